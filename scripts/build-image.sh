#!/usr/bin/env bash
# Builds a container image locally, with no image registry (these machines
# reach Debian's package mirrors, not registries), and imports it with
# `podman import` (or `docker import`). Idempotent: does nothing when the tag
# exists, unless --force is given.
#
#   ./scripts/build-image.sh [--force] [debian|busybox] [TAG]
#
#   debian  (the default) localhost/computer-debian:12: Debian 12 (bookworm)
#           from deb.debian.org by debootstrap, with gcc, make, python3,
#           python3-pip, nodejs, npm and git. The default image of the
#           `container` and `auto` backends. About 300 MB of packages are
#           downloaded; a few minutes.
#   busybox localhost/computer-busybox:latest: busybox-static only (2 MB, a
#           second to build). The image the container tests use (CI builds
#           this one only).
#
# Both have /workspace, /tmp and a non-root user 1000 `agent`.
# DEBIAN_MIRROR overrides the Debian mirror (default http://deb.debian.org/debian).
set -euo pipefail

log() { printf '[build-image] %s\n' "$*" >&2; }
. "$(dirname "${BASH_SOURCE[0]}")/apt.sh"

FORCE=0
if [ "${1:-}" = "--force" ]; then FORCE=1; shift; fi
KIND="${1:-debian}"
case "$KIND" in
  debian) DEFAULT_TAG=localhost/computer-debian:12 ;;
  busybox) DEFAULT_TAG=localhost/computer-busybox:latest ;;
  *)
    log "unknown image kind \"$KIND\": debian or busybox (usage: $0 [--force] [debian|busybox] [TAG])"
    exit 2
    ;;
esac
[ "$#" -gt 0 ] && shift
IMAGE="${1:-$DEFAULT_TAG}"

if command -v podman >/dev/null; then ENGINE=podman
elif command -v docker >/dev/null; then ENGINE=docker
else
  log "neither podman nor docker is installed: run scripts/setup-podman.sh first"
  exit 1
fi

if [ "$FORCE" -eq 0 ] && $ENGINE image inspect "$IMAGE" >/dev/null 2>&1; then
  log "image $IMAGE present (--force rebuilds it)"
  exit 0
fi

ROOTFS="$(mktemp -d "${TMPDIR:-/tmp}/computer-rootfs.XXXXXX")"
cleanup() {
  # debootstrap mounts /proc and /sys in the rootfs while it works: never
  # remove through a mount that a failed run left behind.
  if [ -r /proc/mounts ]; then
    awk -v root="$ROOTFS" 'index($2, root "/") == 1 { print $2 }' /proc/mounts | sort -r |
      while read -r m; do umount -l "$m" 2>/dev/null || true; done
  fi
  rm -rf --one-file-system "$ROOTFS"
}
trap cleanup EXIT

# The layout both images share: the mount point, temp dirs, user `agent`.
finish_rootfs() {
  mkdir -p "$ROOTFS"/{tmp,var/tmp,workspace,home/agent,root,etc}
  chmod 1777 "$ROOTFS/tmp" "$ROOTFS/var/tmp"
  chmod 0777 "$ROOTFS/workspace"
  chown 1000:1000 "$ROOTFS/home/agent" 2>/dev/null || true
}

busybox_rootfs() {
  local busybox
  busybox="$(command -v busybox || true)"
  if [ -z "$busybox" ] || ! file -L "$busybox" 2>/dev/null | grep -q 'statically linked'; then
    if [ -x /bin/busybox ] && ldd /bin/busybox 2>&1 | grep -q 'not a dynamic'; then
      busybox=/bin/busybox
    elif ldd "${busybox:-/nonexistent}" 2>&1 | grep -q 'not a dynamic'; then
      :
    else
      log "a static busybox is needed (Debian package busybox-static): run scripts/setup-podman.sh"
      exit 1
    fi
  fi
  mkdir -p "$ROOTFS"/{bin,sbin,usr/bin,usr/sbin,proc,sys,dev,run}
  cp "$busybox" "$ROOTFS/bin/busybox"
  chmod 0755 "$ROOTFS/bin/busybox"
  # One link per applet, where busybox says it lives (bin/ls, usr/bin/awk, ...).
  "$ROOTFS/bin/busybox" --list-full | while read -r applet; do
    [ -n "$applet" ] || continue
    [ "$applet" = "bin/busybox" ] && continue
    mkdir -p "$ROOTFS/$(dirname "$applet")"
    ln -sf /bin/busybox "$ROOTFS/$applet"
  done
  finish_rootfs
  cat >"$ROOTFS/etc/passwd" <<'EOF'
root:x:0:0:root:/root:/bin/sh
agent:x:1000:1000:agent:/home/agent:/bin/sh
nobody:x:65534:65534:nobody:/nonexistent:/bin/false
EOF
  cat >"$ROOTFS/etc/group" <<'EOF'
root:x:0:
agent:x:1000:
nogroup:x:65534:
EOF
}

# What the `auto` fallback is for: compilers, pip and npm installs, real git.
DEBIAN_PACKAGES=(gcc libc6-dev make python3 python3-pip python3-venv nodejs npm git ca-certificates)

debian_rootfs() {
  if [ "$(id -u)" -ne 0 ]; then
    log "the debian image needs root (debootstrap and chroot)"
    exit 1
  fi
  apt_install_missing debootstrap
  local mirror="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
  log "debootstrap bookworm from $mirror"
  debootstrap --variant=minbase bookworm "$ROOTFS" "$mirror" >"$ROOTFS.log" 2>&1 || {
    tail -20 "$ROOTFS.log" >&2
    log "debootstrap failed (full log: $ROOTFS.log)"
    exit 1
  }
  rm -f "$ROOTFS.log"
  cp /etc/resolv.conf "$ROOTFS/etc/resolv.conf"
  # No service may start inside the chroot while packages install.
  printf '#!/bin/sh\nexit 101\n' >"$ROOTFS/usr/sbin/policy-rc.d"
  chmod 0755 "$ROOTFS/usr/sbin/policy-rc.d"
  log "installing ${DEBIAN_PACKAGES[*]}"
  chroot "$ROOTFS" /usr/bin/env DEBIAN_FRONTEND=noninteractive PATH=/usr/sbin:/usr/bin:/sbin:/bin \
    sh -c "apt-get update -qq && apt-get install -y -qq --no-install-recommends ${DEBIAN_PACKAGES[*]} >/dev/null" || {
    log "installing the packages in the chroot failed"
    exit 1
  }
  chroot "$ROOTFS" /usr/sbin/useradd --uid 1000 --user-group --home-dir /home/agent --shell /bin/bash agent
  chroot "$ROOTFS" apt-get clean
  rm -rf "$ROOTFS"/var/lib/apt/lists/* "$ROOTFS/usr/sbin/policy-rc.d"
  : >"$ROOTFS/etc/resolv.conf"
  finish_rootfs
}

case "$KIND" in
  debian) debian_rootfs ;;
  busybox) busybox_rootfs ;;
esac

log "importing $IMAGE with $ENGINE import"
tar -C "$ROOTFS" -c . | $ENGINE import \
  --change 'WORKDIR=/workspace' \
  --change 'ENV=PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'CMD=["/bin/sh"]' \
  - "$IMAGE" >/dev/null
log "image $IMAGE ready"
