#!/usr/bin/env bash
# Build ffmpeg and ffprobe, the real programs, for the sandbox: FFmpeg 5.1
# (the last whose command line runs without threads) from Debian 12's source
# package, with the codec libraries from Debian's source packages too (LAME
# for mp3, libvorbis/libogg, opus, x264, zlib), compiled by clang-19 against
# Debian's wasi-libc headers, single-threaded and without assembly, and
# linked with our glue (programs/ffmpeg: main, the tool by argv[0], exit
# codes) into one wasm32-wasip2 command component that is both programs.
# Output:
#   target/programs/ffmpeg/ffmpeg.wasm (+ .sha256)
#   COPYING and SOURCE beside it: FFmpeg with x264 and LAME is GPL
# The `computer` binary finds them beside itself (host/builtins, programs.rs)
# and registers them as built-in commands at run time: they are never linked
# into or embedded in the MIT binary.
#
# Nothing of their source is copied or patched here: everything is build
# settings (configure options, defines on the compiler's command line).
#
# Idempotent: sources are downloaded once (target/third-party), each library
# is built once per version (a stamp in the prefix), and the whole is
# skipped when its inputs hash as they did last time. A clean build takes
# about 10 minutes on 2 cores. Needs clang-19, llvm-19, lld-19, wasi-libc,
# dpkg-dev, autotools-dev, pkg-config and the Rust wasm32-wasip2 target
# (scripts/setup.sh).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
GLUE="$ROOT/programs/ffmpeg"
THIRD_PARTY="${COMPUTER_THIRD_PARTY:-$ROOT/target/third-party}"
BUILD="$ROOT/target/ffmpeg-build"
PREFIX="$BUILD/prefix"
PROGRAMS="${COMPUTER_PROGRAMS_DIR:-$ROOT/target/programs}"
TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/guests/target}"
STAMP="$PROGRAMS/ffmpeg/.stamp"
JOBS="$(nproc)"

# Debian 12's versions. FFmpeg is the version of the tests' oracle
# (Debian's /usr/bin/ffmpeg).
PACKAGES=(
  "ffmpeg=7:5.1.9-0+deb12u1"
  "lame=3.100-6"
  "libogg=1.3.5-3"
  "libvorbis=1.3.7-1"
  "opus=1.3.1-3"
  "x264=2:0.164.3095+gitbaee400-3"
  "zlib=1:1.2.13.dfsg-1"
)

log() { printf '[build-ffmpeg] %s\n' "$*" >&2; }

case "${1:-}" in
  lint)
    cargo fmt --check --manifest-path "$GLUE/Cargo.toml"
    COMPUTER_FFMPEG_OBJECTS="$BUILD/objects" cargo clippy --release --target wasm32-wasip2 \
      --manifest-path "$GLUE/Cargo.toml" --target-dir "$TARGET_DIR" -- -D warnings
    exit 0
    ;;
esac

for tool in clang-19 llvm-ar-19 llvm-ranlib-19 dpkg-source pkg-config; do
  command -v "$tool" >/dev/null || { log "missing $tool: run scripts/setup.sh"; exit 1; }
done
[ -f /usr/share/misc/config.sub ] || { log "missing autotools-dev: run scripts/setup.sh"; exit 1; }

# shellcheck source=lib/debian-source.sh
. "$ROOT/scripts/lib/debian-source.sh"
for p in "${PACKAGES[@]}"; do
  debian_fetch "${p%%=*}" "${p#*=}"
done
# Debian's ffmpeg says "5.1.9-0+deb12u1": its revision is the extra version.
FFMPEG_DEB_VERSION="$(sed -n 's/^Version: //p' "$THIRD_PARTY/ffmpeg"/*.dsc | head -1)"

stamp="$(
  {
    sha256sum <"${BASH_SOURCE[0]}"
    for p in "${PACKAGES[@]}"; do ls "$THIRD_PARTY/${p%%=*}"; done
    (cd "$ROOT" && find programs/ffmpeg scripts/lib wit -type f -not -path "*/target/*" -print0 |
      LC_ALL=C sort -z | xargs -0 sha256sum)
  } | sha256sum | cut -d' ' -f1
)"
if [ -f "$PROGRAMS/ffmpeg/ffmpeg.wasm" ] && [ "$(cat "$STAMP" 2>/dev/null)" = "$stamp" ]; then
  log "up to date: $PROGRAMS/ffmpeg"
  exit 0
fi

# SIMD128 lets clang vectorize the C the libraries fall back to without
# their assembly; wasmtime runs it natively.
CFLAGS_WASM="-O2 -msimd128 -D_WASI_EMULATED_SIGNAL -D_WASI_EMULATED_PROCESS_CLOCKS"
# shellcheck source=lib/wasm-c.sh
. "$ROOT/scripts/lib/wasm-c.sh"
wasm_sysroot

# --- the codec libraries ------------------------------------------------------
build_zlib
autotools lame --disable-frontend --disable-gtktest --disable-decoder
autotools libogg
autotools libvorbis --disable-oggtest --disable-docs --disable-examples
# No run-time CPU detection: there is one CPU, wasm32, and no intrinsics.
autotools opus --disable-doc --disable-extra-programs --disable-rtcd --disable-intrinsics
if ! built x264; then
  src="$(debian_unpack x264 "$BUILD")"
  log "building x264"
  cp /usr/share/misc/config.sub /usr/share/misc/config.guess "$src/"
  # x264's configure knows no WASI: as Linux, without threads and
  # assembly, it asks for nothing WASI lacks but memalign, which wasi-libc
  # calls aligned_alloc. Its own -O3 stays.
  (cd "$src" && CC=clang-19 ./configure --host=wasm32-unknown-linux-gnu --prefix="$PREFIX" \
    --disable-asm --disable-thread --disable-cli --enable-static --disable-opencl \
    --extra-cflags="--target=wasm32-wasi --sysroot=$SYSROOT -msimd128 -D_WASI_EMULATED_SIGNAL -Dmemalign=aligned_alloc" \
    --extra-ldflags="--target=wasm32-wasi --sysroot=$SYSROOT" >../configure.log 2>&1 &&
    make -j"$JOBS" >../make.log 2>&1 && make install-lib-static >>../make.log 2>&1) || {
    tail -30 "$src/../make.log" >&2
    log "x264 failed"
    exit 1
  }
  mark_built x264
fi

# --- FFmpeg --------------------------------------------------------------------
FFMPEG_SRC="$(debian_unpack ffmpeg "$BUILD")"
OBJ="$BUILD/objects"
mkdir -p "$OBJ"
# Our stand-ins for POSIX calls wasi-libc lacks (programs/ffmpeg/c), on
# configure's --extra-libs so that its checks find them.
$CC_WASM $CFLAGS_WASM -c "$GLUE/c/compat.c" -o "$OBJ/compat.o"
rm -f "$OBJ/libffcompat.a" && llvm-ar-19 rcs "$OBJ/libffcompat.a" "$OBJ/compat.o"
CONFIGURE_ARGS=(
  --prefix=/usr --enable-cross-compile --target-os=none --arch=wasm32
  --cc=clang-19 --ar=llvm-ar-19 --ranlib=llvm-ranlib-19 --nm=llvm-nm-19
  --pkg-config=pkg-config --pkg-config-flags=--static
  --extra-cflags="--target=wasm32-wasi --sysroot=$SYSROOT $CFLAGS_WASM -I$PREFIX/include -include $GLUE/c/wasi-compat.h"
  --extra-ldflags="--target=wasm32-wasi --sysroot=$SYSROOT -L$PREFIX/lib"
  --extra-libs="$OBJ/libffcompat.a"
  --extra-version="${FFMPEG_DEB_VERSION#*-}"
  --disable-autodetect --disable-asm --disable-inline-asm --disable-x86asm
  --disable-pthreads --disable-w32threads --disable-os2threads --disable-network
  --disable-avdevice --disable-ffplay --disable-doc --disable-debug --disable-runtime-cpudetect
  --enable-gpl --enable-zlib --enable-libmp3lame --enable-libvorbis
  --enable-libopus --enable-libx264
)
# configure again only when its options or the set of our stand-ins
# change (what it may find): a new config.h rebuilds everything.
configured="$(
  {
    printf '%s\n' "${CONFIGURE_ARGS[@]}"
    cat "$GLUE/c/wasi-compat.h"
    llvm-nm-19 --defined-only "$OBJ/compat.o" | awk '$2 == "T" { print $3 }' | sort
  } | sha256sum | cut -c1-16
)"
if [ "$(cat "$BUILD/ffmpeg-configured" 2>/dev/null)" != "$configured" ] || [ ! -f "$FFMPEG_SRC/config.h" ]; then
  log "configuring FFmpeg"
  (cd "$FFMPEG_SRC" && ./configure "${CONFIGURE_ARGS[@]}" >"$BUILD/ffmpeg-configure.log" 2>&1) || {
    tail -30 "$FFMPEG_SRC/ffbuild/config.log" >&2
    log "FFmpeg's configure failed (log: $FFMPEG_SRC/ffbuild/config.log)"
    exit 1
  }
  echo "$configured" >"$BUILD/ffmpeg-configured"
fi
log "building FFmpeg (make, $JOBS jobs)"
make -C "$FFMPEG_SRC" -j"$JOBS" libavutil/libavutil.a libavcodec/libavcodec.a \
  libavformat/libavformat.a libavfilter/libavfilter.a libswscale/libswscale.a \
  libswresample/libswresample.a libpostproc/libpostproc.a fftools/cmdutils.o \
  fftools/opt_common.o fftools/ffmpeg_filter.o fftools/ffmpeg_hw.o fftools/ffmpeg_mux.o \
  fftools/ffmpeg_opt.o >"$BUILD/ffmpeg-make.log" 2>&1 || {
  grep -m20 -B2 -A5 "error" "$BUILD/ffmpeg-make.log" >&2
  log "make failed (log: $BUILD/ffmpeg-make.log)"
  exit 1
}
# ffmpeg and ffprobe are one program (programs/ffmpeg picks by argv[0]), so
# one compile serves both. Their units are compiled as make would, but with
# the few names both define renamed (main, program_name,
# program_birth_year, show_help_default): programs/ffmpeg/c/tools.c
# defines the shared names for the tool that runs.
recompile() { # recompile UNIT OBJECT DEFINES...
  local unit=$1 obj=$2 line
  shift 2
  line="$(make -C "$FFMPEG_SRC" -n -W "fftools/$unit.c" "fftools/$unit.o" 2>/dev/null |
    grep -o "clang-19 .* -c -o fftools/$unit.o fftools/$unit.c$")"
  # (-MMD and friends dropped; a renamed main has no prototype.)
  line="$(sed -e 's/ -MMD -MF [^ ]* -MT [^ ]*//' <<<"${line% -c -o *}")"
  (cd "$FFMPEG_SRC" && eval "$line -Wno-missing-prototypes $* -c -o \"$obj\" fftools/$unit.c") \
    2>>"$BUILD/ffmpeg-make.log" || {
    tail -20 "$BUILD/ffmpeg-make.log" >&2
    log "compiling fftools/$unit.c failed"
    exit 1
  }
}
for tool in ffmpeg ffprobe; do
  recompile "$tool" "$OBJ/$tool-main.o" "-Dmain=${tool}_main" "-Dprogram_name=${tool}_program_name" \
    "-Dprogram_birth_year=${tool}_program_birth_year" "-Dshow_help_default=${tool}_show_help_default"
done
recompile ffmpeg_opt "$OBJ/ffmpeg_opt.o" -Dshow_help_default=ffmpeg_show_help_default
$CC_WASM $CFLAGS_WASM -I"$FFMPEG_SRC" -c "$GLUE/c/tools.c" -o "$OBJ/tools.o"

for lib in avutil avcodec avformat avfilter swscale swresample postproc; do
  cp "$FFMPEG_SRC/lib$lib/lib$lib.a" "$OBJ/"
done
for lib in mp3lame vorbisenc vorbis ogg opus x264 z; do
  cp "$PREFIX/lib/lib$lib.a" "$OBJ/"
done
rm -f "$OBJ/libfftools.a"
(cd "$FFMPEG_SRC/fftools" && llvm-ar-19 rcs "$OBJ/libfftools.a" cmdutils.o opt_common.o \
  ffmpeg_filter.o ffmpeg_hw.o ffmpeg_mux.o "$OBJ/ffmpeg_opt.o" "$OBJ/ffmpeg-main.o" \
  "$OBJ/ffprobe-main.o" "$OBJ/tools.o")

log "linking the command components"
COMPUTER_FFMPEG_OBJECTS="$OBJ" cargo build --release --target wasm32-wasip2 \
  --manifest-path "$GLUE/Cargo.toml" --target-dir "$TARGET_DIR"

version="$(sed -n 's/^Version: //p' "$THIRD_PARTY/ffmpeg"/*.dsc | head -1)"
out="$PROGRAMS/ffmpeg"
mkdir -p "$out"
rm -rf "$PROGRAMS/ffprobe" # (an earlier layout: a program of its own)
cp "$TARGET_DIR/wasm32-wasip2/release/ffmpeg.wasm" "$out/ffmpeg.wasm.tmp"
sha256sum "$out/ffmpeg.wasm.tmp" | cut -d' ' -f1 >"$out/ffmpeg.wasm.sha256"
mv "$out/ffmpeg.wasm.tmp" "$out/ffmpeg.wasm"
{
  echo "ffmpeg.wasm is FFmpeg's ffmpeg and ffprobe, built with --enable-gpl: the whole is"
  echo "GPL-2.0-or-later."
  echo
  cat "$FFMPEG_SRC/COPYING.GPLv2"
  for p in lame libogg libvorbis opus x264 zlib; do
    src="$(debian_unpack "$p" "$BUILD")"
    printf '\n\n==== %s %s (linked into ffmpeg.wasm) ====\n\n' "$p" \
      "$(sed -n 's/^Version: //p' "$THIRD_PARTY/$p"/*.dsc | head -1)"
    cat "$src/debian/copyright"
  done
} >"$out/COPYING"
{
  echo "ffmpeg.wasm is FFmpeg $version's ffmpeg and ffprobe (GPL, COPYING), built by"
  echo "scripts/build-ffmpeg.sh of the computer repository from Debian 12's source packages"
  echo "(apt-get source), single-threaded, without assembly or network:"
  for p in "${PACKAGES[@]}"; do
    echo "  $(basename "$(ls "$THIRD_PARTY/${p%%=*}"/*.dsc)")"
  done
  echo "with the glue in programs/ffmpeg (MIT): main, the tool by argv[0], exit codes."
  echo "FFmpeg's configure line: 'ffmpeg -buildconf'."
} >"$out/SOURCE"
echo "$stamp" >"$STAMP"
log "built $out/ffmpeg.wasm ($(du -h "$out/ffmpeg.wasm" | cut -f1)): ffmpeg and ffprobe"
