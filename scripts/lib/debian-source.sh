# Debian's source packages, for the scripts that build third-party programs
# for the sandbox (build-git.sh, build-ffmpeg.sh). Sourced, not run.
#   debian_fetch PACKAGE VERSION   download once into $THIRD_PARTY/PACKAGE
#   debian_unpack PACKAGE BUILD    unpack (Debian's patches applied by
#                                  dpkg-source, as Debian builds it) under
#                                  BUILD once; prints the source directory
# Needs THIRD_PARTY and a log function.

debian_fetch() {
  local pkg=$1 version=$2
  mkdir -p "$THIRD_PARTY/$pkg"
  if compgen -G "$THIRD_PARTY/$pkg/*.dsc" >/dev/null; then
    return
  fi
  if ! grep -rqs "deb-src" /etc/apt/sources.list.d /etc/apt/sources.list; then
    log "adding Debian's source archive (deb-src) to apt"
    cat >/etc/apt/sources.list.d/computer-deb-src.sources <<'SOURCES'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb-src
URIs: http://deb.debian.org/debian-security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SOURCES
    apt-get update -qq
  fi
  log "downloading Debian's source package $pkg $version"
  (cd "$THIRD_PARTY/$pkg" && apt-get source --download-only "$pkg=$version" >/dev/null 2>&1) || {
    log "$pkg $version is not in the archive any more; taking bookworm's current one"
    (cd "$THIRD_PARTY/$pkg" && apt-get source --download-only "$pkg" >/dev/null)
  }
}

debian_unpack() {
  local pkg=$1 build=$2 dsc dir
  dsc="$(ls "$THIRD_PARTY/$pkg"/*.dsc | head -1)"
  dir="$build/$(basename "$dsc" .dsc)"
  if [ ! -d "$dir/src" ]; then
    rm -rf "$dir"
    mkdir -p "$dir"
    dpkg-source --no-check -x "$dsc" "$dir/src" >/dev/null
  fi
  echo "$dir/src"
}
