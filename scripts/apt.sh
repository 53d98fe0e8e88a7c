# Sourced by the set-up scripts: install the Debian packages that are
# missing, and only those. Expects the caller's `log` function.

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null; then SUDO="sudo"; else
    log "not root and no sudo: install packages by hand if any are missing"
  fi
fi

# apt_install_missing PKG...: installs those of PKG not installed yet.
apt_install_missing() {
  local missing=() pkg
  for pkg in "$@"; do
    if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
      missing+=("$pkg")
    fi
  done
  if [ "${#missing[@]}" -gt 0 ]; then
    log "installing Debian packages: ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    $SUDO apt-get update -qq
    $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  else
    log "Debian packages present"
  fi
}
