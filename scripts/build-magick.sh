#!/usr/bin/env bash
# Build ImageMagick's command-line programs for the sandbox: ImageMagick
# 6.9.11 (Debian 12's, the version of the tests' oracle) from Debian's
# source package, with libpng, libjpeg-turbo, libwebp, libtiff and zlib
# from Debian's source packages too, compiled by clang-19 against Debian's
# wasi-libc, single-threaded, into one wasip1 command module that is
# convert, identify, mogrify, composite, compare, montage, conjure and
# stream (programs/magick/c/main.c picks by argv[0]). Output:
#   target/programs/magick/magick.wasm (+ .sha256), COPYING, SOURCE
# The `computer` binary finds it beside itself (host/builtins, programs.rs)
# and registers the tools at run time, adapting the module into a component
# once (as for any wasip1 command).
#
# libpng and ImageMagick's coders recover from errors with setjmp/longjmp:
# clang lowers them to wasm exceptions (-mllvm -wasm-enable-sjlj) with our
# runtime (programs/magick/c/sjlj.c, setjmp.h), and binaryen's wasm-opt
# (npm `binaryen`, pinned) translates clang-19's legacy encoding to the
# exnref one wasmtime runs.
#
# Nothing of their source is copied or patched here: everything is build
# settings. Idempotent: sources are downloaded once, each library is built
# once per version, and the whole is skipped when its inputs hash as they
# did last time. Needs what build-ffmpeg.sh needs, plus cmake and npm.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
GLUE="$ROOT/programs/magick"
THIRD_PARTY="${COMPUTER_THIRD_PARTY:-$ROOT/target/third-party}"
BUILD="$ROOT/target/magick-build"
PREFIX="$BUILD/prefix"
PROGRAMS="${COMPUTER_PROGRAMS_DIR:-$ROOT/target/programs}"
OUT="$PROGRAMS/magick"
STAMP="$OUT/.stamp"
JOBS="$(nproc)"

# Debian 12's versions (the ones its archive still serves).
PACKAGES=(
  "imagemagick=8:6.9.11.60+dfsg-1.6+deb12u11"
  "libpng1.6=1.6.39-2+deb12u5"
  "libjpeg-turbo=1:2.1.5-2"
  "libwebp=1.2.4-0.2+deb12u1"
  "tiff=4.5.0-6+deb12u4"
  "zlib=1:1.2.13.dfsg-1"
)
BINARYEN_VERSION=132.0.0
BINARYEN_SHA256=6543555fb29bb92548f325c7dc18e9ab7dbb1215edda25993d1e3f71d85b8618

log() { printf '[build-magick] %s\n' "$*" >&2; }

for tool in clang-19 llvm-ar-19 dpkg-source pkg-config cmake npm node; do
  command -v "$tool" >/dev/null || { log "missing $tool: run scripts/setup.sh"; exit 1; }
done

# shellcheck source=lib/debian-source.sh
. "$ROOT/scripts/lib/debian-source.sh"
for p in "${PACKAGES[@]}"; do
  debian_fetch "${p%%=*}" "${p#*=}"
done

stamp="$(
  {
    sha256sum <"${BASH_SOURCE[0]}"
    for p in "${PACKAGES[@]}"; do ls "$THIRD_PARTY/${p%%=*}"; done
    (cd "$ROOT" && find programs/magick scripts/lib -type f -print0 |
      LC_ALL=C sort -z | xargs -0 sha256sum)
  } | sha256sum | cut -d' ' -f1
)"
if [ -f "$OUT/magick.wasm" ] && [ "$(cat "$STAMP" 2>/dev/null)" = "$stamp" ]; then
  log "up to date: $OUT/magick.wasm"
  exit 0
fi

# binaryen, from npm, once.
BINARYEN="$THIRD_PARTY/binaryen/$BINARYEN_VERSION"
if [ ! -x "$BINARYEN/package/bin/wasm-opt" ]; then
  log "downloading binaryen $BINARYEN_VERSION (npm)"
  mkdir -p "$BINARYEN"
  (cd "$BINARYEN" && npm pack --silent "binaryen@$BINARYEN_VERSION" >/dev/null)
  echo "$BINARYEN_SHA256  $BINARYEN/binaryen-$BINARYEN_VERSION.tgz" | sha256sum --check --quiet || {
    log "binaryen-$BINARYEN_VERSION.tgz is not the pinned one"
    rm -rf "$BINARYEN"
    exit 1
  }
  tar -xzf "$BINARYEN/binaryen-$BINARYEN_VERSION.tgz" -C "$BINARYEN"
fi

SJLJ="-mllvm -wasm-enable-sjlj -mllvm -wasm-enable-eh -mexception-handling"
CFLAGS_WASM="-O2 -msimd128 -D_WASI_EMULATED_SIGNAL -D_WASI_EMULATED_PROCESS_CLOCKS -D_WASI_EMULATED_MMAN -D_WASI_EMULATED_GETPID -I$GLUE/c/include -I$BUILD/prefix/include $SJLJ"
# shellcheck source=lib/wasm-c.sh
. "$ROOT/scripts/lib/wasm-c.sh"
wasm_sysroot
export LDFLAGS="-L$PREFIX/lib" CPPFLAGS="-I$PREFIX/include"
# Our setjmp/longjmp runtime, and wasi-libc's emulations, on every link
# (configure's checks, the libraries' own test programs).
$CC_WASM $CFLAGS_WASM -c "$GLUE/c/sjlj.c" -o "$BUILD/sjlj.o"
rm -f "$PREFIX/lib/libcomputersjlj.a" && mkdir -p "$PREFIX/lib" &&
  llvm-ar-19 rcs "$PREFIX/lib/libcomputersjlj.a" "$BUILD/sjlj.o"
export LIBS="-lcomputersjlj -lwasi-emulated-signal -lwasi-emulated-process-clocks -lwasi-emulated-mman -lwasi-emulated-getpid"

# --- the image libraries ----------------------------------------------------------
build_zlib
# (Its test programs and tools need what WASI lacks, tmpfile among them.
# Its options beyond the defaults: programs/magick/c/pnglibconf.dfa.)
AUTOTOOLS_MAKE="check_PROGRAMS= bin_PROGRAMS= DFA_XTRA=$GLUE/c/pnglibconf.dfa" \
  autotools libpng1.6 --disable-hardware-optimizations
if ! built libjpeg-turbo; then
  src="$(debian_unpack libjpeg-turbo "$BUILD")"
  log "building libjpeg-turbo"
  rm -rf "$src/../build" && mkdir -p "$src/../build"
  (cd "$src/../build" && cmake "$src" -DCMAKE_SYSTEM_NAME=Generic -DCMAKE_SYSTEM_PROCESSOR=wasm32 \
    -DCMAKE_C_COMPILER=clang-19 -DCMAKE_C_FLAGS="--target=wasm32-wasi --sysroot=$SYSROOT $CFLAGS_WASM" \
    -DCMAKE_AR="$(command -v llvm-ar-19)" -DCMAKE_RANLIB="$(command -v llvm-ranlib-19)" \
    -DCMAKE_INSTALL_PREFIX="$PREFIX" -DCMAKE_INSTALL_LIBDIR=lib -DENABLE_SHARED=0 -DENABLE_STATIC=1 \
    -DWITH_SIMD=0 -DWITH_TURBOJPEG=0 -DWITH_JAVA=0 -DCMAKE_BUILD_TYPE=Release \
    >../cmake.log 2>&1 && make -j"$JOBS" jpeg-static >../make.log 2>&1 &&
    # (its install step wants the command-line tools too)
    cp libjpeg.a "$PREFIX/lib/" && cp jconfig.h "$src/jpeglib.h" "$src/jmorecfg.h" \
      "$src/jerror.h" "$PREFIX/include/") || {
    tail -30 "$src/../cmake.log" "$src/../make.log" >&2 2>/dev/null
    log "libjpeg-turbo failed"
    exit 1
  }
  mark_built libjpeg-turbo
fi
autotools libwebp --disable-threading --disable-gl --disable-sdl --disable-png --disable-jpeg \
  --disable-tiff --disable-gif --disable-wic
if ! built tiff; then
  src="$(debian_unpack tiff "$BUILD")"
  log "building tiff"
  rm -rf "$src/../build" && mkdir -p "$src/../build"
  (cd "$src/../build" && cmake "$src" -DCMAKE_SYSTEM_NAME=Generic -DCMAKE_SYSTEM_PROCESSOR=wasm32 \
    -DCMAKE_C_COMPILER=clang-19 -DCMAKE_C_FLAGS="--target=wasm32-wasi --sysroot=$SYSROOT $CFLAGS_WASM" \
    -DCMAKE_AR="$(command -v llvm-ar-19)" -DCMAKE_RANLIB="$(command -v llvm-ranlib-19)" \
    -DCMAKE_PREFIX_PATH="$PREFIX" -DCMAKE_INSTALL_PREFIX="$PREFIX" -DCMAKE_INSTALL_LIBDIR=lib \
    -DBUILD_SHARED_LIBS=OFF -DCMAKE_BUILD_TYPE=Release -Dtiff-tools=OFF -Dtiff-tests=OFF \
    -Dtiff-contrib=OFF -Dtiff-docs=OFF -Dcxx=OFF -Djbig=OFF -Dlerc=OFF -Dzstd=OFF -Dwebp=OFF \
    -Dlzma=OFF -Dlibdeflate=OFF -Djpeg=ON -Dzlib=ON >../cmake.log 2>&1 &&
    make -j"$JOBS" tiff >../make.log 2>&1 && cp libtiff/libtiff.a "$PREFIX/lib/" &&
    cp "$src/libtiff/tiff.h" "$src/libtiff/tiffio.h" "$src/libtiff/tiffvers.h" \
      libtiff/tiffconf.h "$PREFIX/include/") || {
    tail -30 "$src/../cmake.log" "$src/../make.log" >&2 2>/dev/null
    log "tiff failed"
    exit 1
  }
  mark_built tiff
fi

# --- ImageMagick -----------------------------------------------------------------
MAGICK_SRC="$(debian_unpack imagemagick "$BUILD")"
cp /usr/share/misc/config.sub /usr/share/misc/config.guess "$MAGICK_SRC/config/"
# One quantum depth and no HDRI, as Debian's default `imagemagick-6.q16`;
# no threads (WASI has none), no modules (no dlopen), no delegates that
# are programs (no fork), no X.
CONFIGURE_ARGS=(
  --host=wasm32-unknown-wasi --prefix=/usr --sysconfdir=/etc --disable-shared --enable-static
  --with-quantum-depth=16 --disable-hdri --without-threads --disable-openmp --disable-opencl
  --without-modules --without-magick-plus-plus --without-perl --without-x
  --disable-docs --disable-deprecated --without-bzlib --without-lzma --without-zstd
  --without-fontconfig --without-freetype --without-xml --without-lcms --without-openexr
  --without-djvu --without-wmf --without-fftw --without-raqm --without-heic --without-jbig
  --without-openjp2 --without-gvc --without-lqr --without-pango --without-rsvg --without-dps
  --without-fpx --without-gslib --without-flif --without-jxl --without-ltdl
  --with-png --with-jpeg --with-webp --with-tiff --with-zlib
)
MAGICK_CFLAGS="$CFLAGS_WASM -include $GLUE/c/wasi-compat.h"
configured="$(printf '%s\n' "${CONFIGURE_ARGS[@]}" "$MAGICK_CFLAGS" | sha256sum | cut -c1-16)"
if [ "$(cat "$BUILD/magick-configured" 2>/dev/null)" != "$configured" ] ||
  [ ! -f "$MAGICK_SRC/config/config.h" ]; then
  log "configuring ImageMagick"
  (cd "$MAGICK_SRC" && CC="$CC_WASM" CFLAGS="$MAGICK_CFLAGS" ./configure "${CONFIGURE_ARGS[@]}" \
    >"$BUILD/magick-configure.log" 2>&1) || {
    tail -30 "$BUILD/magick-configure.log" >&2
    log "ImageMagick's configure failed (log: $MAGICK_SRC/config.log)"
    exit 1
  }
  echo "$configured" >"$BUILD/magick-configured"
fi
log "building ImageMagick (make, $JOBS jobs)"
# magick/distribute-cache.c does not compile without threads: make goes on
# past it (-k), and programs/magick/c/distribute-cache.c replaces it whole
# in the archive made below.
make -C "$MAGICK_SRC" -k -j"$JOBS" magick/libMagickCore-6.Q16.la wand/libMagickWand-6.Q16.la \
  >"$BUILD/magick-make.log" 2>&1 || true
OBJ="$BUILD/objects"
rm -rf "$OBJ" && mkdir -p "$OBJ"
# The libraries' objects, as make lists them; every one but
# distribute-cache's must be there.
objects="$(make -s -C "$MAGICK_SRC" -f Makefile -f <(printf 'computer-objects:\n\t@echo $(magick_libMagickCore_6_Q16_la_OBJECTS) $(wand_libMagickWand_6_Q16_la_OBJECTS)\n') computer-objects)"
kept=()
for lo in $objects; do
  case "$lo" in */libMagickCore_6_Q16_la-distribute-cache.lo) continue ;; esac
  [ -f "$MAGICK_SRC/${lo%.lo}.o" ] || {
    grep -m20 -B2 -A5 "error" "$BUILD/magick-make.log" >&2
    log "make failed: no ${lo%.lo}.o (log: $BUILD/magick-make.log)"
    exit 1
  }
  kept+=("$MAGICK_SRC/${lo%.lo}.o")
done
for unit in main compat distribute-cache; do
  $CC_WASM $MAGICK_CFLAGS -I"$MAGICK_SRC" -c "$GLUE/c/$unit.c" -o "$OBJ/$unit.o" 2>>"$BUILD/magick-make.log" || {
    tail -20 "$BUILD/magick-make.log" >&2
    log "compiling programs/magick/c/$unit.c failed"
    exit 1
  }
done
llvm-ar-19 rcs "$OBJ/libmagick.a" "${kept[@]}" "$OBJ/distribute-cache.o" "$OBJ/compat.o"

log "linking the command module"
# wasm32-wasip1 with Debian's wasi-libc; 8 MiB of stack (the coders keep
# large buffers on it); every symbol must resolve.
$CC_WASM -O2 -mexception-handling -o "$OBJ/magick-legacy-eh.wasm" "$OBJ/main.o" "$OBJ/libmagick.a" \
  -L"$PREFIX/lib" -ltiff -lwebpmux -lwebpdemux -lwebp -lpng16 -ljpeg -lz $LIBS -lm \
  -Wl,-z,stack-size=8388608 -Wl,--error-limit=0 2>>"$BUILD/magick-make.log" || {
  grep -m30 "error" "$BUILD/magick-make.log" >&2
  log "linking failed (log: $BUILD/magick-make.log)"
  exit 1
}
# clang-19 writes setjmp/longjmp's exceptions in the legacy encoding;
# wasmtime runs the standard (exnref) one.
node "$BINARYEN/package/bin/wasm-opt" --all-features --disable-compact-imports \
  --fpcast-emu --translate-to-exnref "$OBJ/magick-legacy-eh.wasm" -o "$OBJ/magick.wasm"

mkdir -p "$OUT"
# ImageMagick's configuration (policy, delegates, colours, magic numbers)
# and its messages, where Debian installs them; mounted read-only there.
rm -rf "$OUT/etc" "$OUT/share" && mkdir -p "$OUT/etc" "$OUT/share"
for xml in "$MAGICK_SRC"/config/*.xml; do
  case "$(basename "$xml")" in
    english.xml | francais.xml | locale.xml) cp "$xml" "$OUT/share/" ;;
    configure.xml) ;;
    *) cp "$xml" "$OUT/etc/" ;;
  esac
done
cp "$OBJ/magick.wasm" "$OUT/magick.wasm.tmp"
sha256sum "$OUT/magick.wasm.tmp" | cut -d' ' -f1 >"$OUT/magick.wasm.sha256"
mv "$OUT/magick.wasm.tmp" "$OUT/magick.wasm"
version="$(sed -n 's/^Version: //p' "$THIRD_PARTY/imagemagick"/*.dsc | head -1)"
{
  echo "magick.wasm is ImageMagick $version's command-line programs, under ImageMagick's"
  echo "licence (below), with libpng, libjpeg-turbo, libwebp, libtiff and zlib linked in."
  echo
  cat "$MAGICK_SRC/LICENSE"
  for p in libpng1.6 libjpeg-turbo libwebp tiff zlib; do
    src="$(debian_unpack "$p" "$BUILD")"
    printf '\n\n==== %s %s (linked into magick.wasm) ====\n\n' "$p" \
      "$(sed -n 's/^Version: //p' "$THIRD_PARTY/$p"/*.dsc | head -1)"
    cat "$src/debian/copyright"
  done
} >"$OUT/COPYING"
{
  echo "magick.wasm is ImageMagick $version (convert, identify, mogrify, composite,"
  echo "compare, montage, conjure, stream), built by scripts/build-magick.sh of the computer"
  echo "repository from Debian 12's source packages (apt-get source), single-threaded:"
  for p in "${PACKAGES[@]}"; do
    echo "  $(basename "$(ls "$THIRD_PARTY/${p%%=*}"/*.dsc)")"
  done
  echo "with the glue in programs/magick (MIT): main (the tool by argv[0]), setjmp/longjmp,"
  echo "stand-ins for POSIX calls WASI lacks, and magick/distribute-cache.c replaced whole."
  echo "Exceptions translated to exnref by binaryen $BINARYEN_VERSION's wasm-opt (npm)."
} >"$OUT/SOURCE"
echo "$stamp" >"$STAMP"
log "built $OUT/magick.wasm ($(du -h "$OUT/magick.wasm" | cut -f1))"
