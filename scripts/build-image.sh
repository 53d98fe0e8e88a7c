#!/usr/bin/env bash
# Builds the `container` backend's default image locally, with no registry:
# a busybox-static rootfs (the binary and its applet links, /tmp, /workspace,
# a non-root user 1000 `agent`) imported with `podman import` (or
# `docker import`). Idempotent: does nothing when the image exists, unless
# --force is given.
#
#   ./scripts/build-image.sh [--force] [IMAGE]   # default IMAGE: localhost/computer-busybox:latest
set -euo pipefail

log() { printf '[build-image] %s\n' "$*" >&2; }

FORCE=0
if [ "${1:-}" = "--force" ]; then FORCE=1; shift; fi
IMAGE="${1:-localhost/computer-busybox:latest}"

if command -v podman >/dev/null; then ENGINE=podman
elif command -v docker >/dev/null; then ENGINE=docker
else
  log "neither podman nor docker is installed: run scripts/setup-podman.sh first"
  exit 1
fi

if [ "$FORCE" -eq 0 ] && $ENGINE image inspect "$IMAGE" >/dev/null 2>&1; then
  log "image $IMAGE present"
  exit 0
fi

BUSYBOX="$(command -v busybox || true)"
if [ -z "$BUSYBOX" ] || ! file -L "$BUSYBOX" 2>/dev/null | grep -q 'statically linked'; then
  if [ -x /bin/busybox ] && ldd /bin/busybox 2>&1 | grep -q 'not a dynamic'; then
    BUSYBOX=/bin/busybox
  elif ldd "${BUSYBOX:-/nonexistent}" 2>&1 | grep -q 'not a dynamic'; then
    :
  else
    log "a static busybox is needed (Debian package busybox-static): run scripts/setup-podman.sh"
    exit 1
  fi
fi

ROOTFS="$(mktemp -d "${TMPDIR:-/tmp}/computer-rootfs.XXXXXX")"
trap 'rm -rf "$ROOTFS"' EXIT

mkdir -p "$ROOTFS"/{bin,sbin,usr/bin,usr/sbin,etc,tmp,workspace,home/agent,root,proc,sys,dev,run,var/tmp}
cp "$BUSYBOX" "$ROOTFS/bin/busybox"
chmod 0755 "$ROOTFS/bin/busybox"
# One link per applet, where busybox says it lives (bin/ls, usr/bin/awk, ...).
"$ROOTFS/bin/busybox" --list-full | while read -r applet; do
  [ -n "$applet" ] || continue
  [ "$applet" = "bin/busybox" ] && continue
  mkdir -p "$ROOTFS/$(dirname "$applet")"
  ln -sf /bin/busybox "$ROOTFS/$applet"
done
chmod 1777 "$ROOTFS/tmp" "$ROOTFS/var/tmp"
chmod 0777 "$ROOTFS/workspace"
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
chown 1000:1000 "$ROOTFS/home/agent" 2>/dev/null || true

log "importing $IMAGE with $ENGINE import"
tar -C "$ROOTFS" -c . | $ENGINE import \
  --change 'WORKDIR=/workspace' \
  --change 'ENV=PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'CMD=["/bin/sh"]' \
  - "$IMAGE" >/dev/null
log "image $IMAGE ready"
