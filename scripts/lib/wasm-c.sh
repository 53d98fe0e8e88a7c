# C libraries and programs built for wasm32-wasi with clang-19 against
# Debian 12's wasi-libc, for the scripts that build third-party programs
# (build-ffmpeg.sh, build-magick.sh). Sourced, not run. Needs BUILD,
# PREFIX, THIRD_PARTY, JOBS, CFLAGS_WASM, a log function and
# debian-source.sh.
#   wasm_sysroot                 sets SYSROOT and CC_WASM
#   built PACKAGE / mark_built PACKAGE
#                                whether this source version is in PREFIX
#   autotools PACKAGE ARGS...    configure + make + install a static
#                                library into PREFIX, once per version
#                                ($AUTOTOOLS_MAKE: make's own arguments)

# A sysroot of Debian's wasi-libc alone: clang's default search would fall
# back to /usr/include, where glibc's headers would answer configure's
# checks for things WASI does not have.
wasm_sysroot() {
  SYSROOT="$BUILD/sysroot"
  mkdir -p "$SYSROOT/include" "$SYSROOT/lib"
  ln -sfn /usr/include/wasm32-wasi "$SYSROOT/include/wasm32-wasi"
  ln -sfn /usr/lib/wasm32-wasi "$SYSROOT/lib/wasm32-wasi"
  CC_WASM="clang-19 --target=wasm32-wasi --sysroot=$SYSROOT"
  export AR=llvm-ar-19 RANLIB=llvm-ranlib-19 NM=llvm-nm-19
  export PKG_CONFIG_LIBDIR="$PREFIX/lib/pkgconfig" PKG_CONFIG_PATH=
  mkdir -p "$PREFIX"
}

_built_stamp() { echo "$PREFIX/.built-$1-$(ls "$THIRD_PARTY/$1" | sha256sum | cut -c1-16)"; }
built() { [ -f "$(_built_stamp "$1")" ]; }
mark_built() { touch "$(_built_stamp "$1")"; }

# The autotools packages get the config.sub/config.guess of Debian's
# autotools-dev, which know wasm32-wasi, as Debian's own builds refresh them.
autotools() {
  local pkg=$1 src
  shift
  built "$pkg" && return
  src="$(debian_unpack "$pkg" "$BUILD")"
  log "building $pkg"
  cp /usr/share/misc/config.sub /usr/share/misc/config.guess "$src/"
  (
    cd "$src"
    CC="$CC_WASM" CFLAGS="$CFLAGS_WASM" ./configure --host=wasm32-unknown-wasi \
      --prefix="$PREFIX" --disable-shared --enable-static "$@" >../configure.log 2>&1 &&
      # shellcheck disable=SC2086 # make's arguments, split
      make -j"$JOBS" ${AUTOTOOLS_MAKE:-} >../make.log 2>&1 &&
      make install ${AUTOTOOLS_MAKE:-} >>../make.log 2>&1
  ) || {
    tail -30 "$src/../configure.log" "$src/../make.log" >&2 2>/dev/null
    log "$pkg failed (logs in $(dirname "$src"))"
    exit 1
  }
  mark_built "$pkg"
}

# zlib's own configure.
build_zlib() {
  built zlib && return
  local src
  src="$(debian_unpack zlib "$BUILD")"
  log "building zlib"
  (cd "$src" && CC="$CC_WASM" CFLAGS="$CFLAGS_WASM" CHOST=wasm32 ./configure --static \
    --prefix="$PREFIX" >../configure.log 2>&1 && make -j"$JOBS" libz.a >../make.log 2>&1 &&
    make install >>../make.log 2>&1) || {
    log "zlib failed (logs in $(dirname "$src"))"
    exit 1
  }
  mark_built zlib
}
