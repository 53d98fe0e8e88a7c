#!/usr/bin/env bash
# Idempotent set-up of a Docker-API container engine for the `container`
# backend on Debian 12, as root (or with sudo): Podman with runc, configured
# for a machine that is itself a container (see ../shared/TOOLCHAIN.md),
# serving the Docker-compatible API on unix:///tmp/podman.sock.
#
#   ./scripts/setup-podman.sh          # install + configure + start the API service
#   export DOCKER_HOST=unix:///tmp/podman.sock
#
# Each step is skipped when already done. Set PODMAN_SOCKET to serve elsewhere.
set -euo pipefail

log() { printf '[setup-podman] %s\n' "$*" >&2; }

SOCKET="${PODMAN_SOCKET:-/tmp/podman.sock}"
. "$(dirname "${BASH_SOURCE[0]}")/apt.sh"

# busybox-static: the binary of the test image (scripts/build-image.sh busybox);
# procps: pkill, to restart the API service after a configuration change.
APT_PACKAGES=(podman runc busybox-static procps)
apt_install_missing "${APT_PACKAGES[@]}"

# The machine is itself a container with hybrid cgroups: crun fails and some
# rlimits cannot be raised, so use runc, cgroupfs and modest ulimits.
CONF=/etc/containers/containers.conf
WANTED='[containers]
default_ulimits = ["nofile=20000:20000", "nproc=4096:4096"]
[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
events_logger = "file"'
# A running API service read its configuration when it started: restart it
# when a file below changes.
CHANGED=0
write_conf() { # FILE CONTENT
  if [ "$(cat "$1" 2>/dev/null)" != "$2" ]; then
    log "writing $1"
    $SUDO mkdir -p "$(dirname "$1")"
    printf '%s\n' "$2" | $SUDO tee "$1" >/dev/null
    CHANGED=1
  else
    log "$1 configured"
  fi
}
write_conf "$CONF" "$WANTED"

# The registry-pull test (host/container/tests/container/registry_pull.rs) serves an
# image over plain HTTP on this loopback address; no other registry is
# reachable from these machines.
write_conf /etc/containers/registries.conf.d/50-computer-test-registry.conf '# Written by scripts/setup-podman.sh: the container tests serve an image here.
[[registry]]
location = "127.0.0.1:47291"
insecure = true'

# Is the API answering? (GET /_ping returns OK.)
answers() {
  curl -sf --max-time 2 --unix-socket "$SOCKET" http://d/_ping >/dev/null 2>&1 ||
    podman --url "unix://$SOCKET" version >/dev/null 2>&1
}

if answers && [ "$CHANGED" = 1 ]; then
  log "configuration changed: stopping the API service on unix://$SOCKET"
  $SUDO pkill -f "podman system service --time=0 unix://$SOCKET" || true
  for _ in $(seq 1 100); do
    if ! answers; then break; fi
    sleep 0.1
  done
fi

if answers; then
  log "API service answering on unix://$SOCKET"
else
  rm -f "$SOCKET"
  log "starting podman system service on unix://$SOCKET"
  LOG_FILE="${TMPDIR:-/tmp}/podman-service.log"
  # setsid: the service outlives this script and the CI step's process group.
  # From /: conmon fails every container ("Failed to get working directory")
  # once the directory the service was started in is removed.
  (cd / && exec $SUDO setsid nohup podman system service --time=0 "unix://$SOCKET" >"$LOG_FILE" 2>&1 </dev/null) &
  for _ in $(seq 1 100); do
    if answers; then break; fi
    sleep 0.1
  done
  if ! answers; then
    log "the API service did not come up; its log ($LOG_FILE):"
    tail -n 20 "$LOG_FILE" >&2 || true
    exit 1
  fi
  log "API service answering on unix://$SOCKET"
fi
echo "export DOCKER_HOST=unix://$SOCKET"
