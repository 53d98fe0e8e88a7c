#!/usr/bin/env bash
# Build git, the real program, for the sandbox: git 2.39.5 from Debian 12's
# source package (the version of the tests' oracle, /usr/bin/git), with zlib
# from Debian's source package too, compiled by clang-19 against Debian's
# wasi-libc headers and linked with our glue (programs/git: main, exit
# codes, children through computer:workspace/commands, file modes) into a
# wasm32-wasip2 command component. Output:
#   target/programs/git/git.wasm     the program
#   target/programs/git/COPYING      git's licence (GPL-2.0), and zlib's
#   target/programs/git/SOURCE       where the source came from
#   target/programs/git/templates/   what `git init` copies
#   target/programs/git/git.wasm.sha256
# The `computer` binary finds it beside itself (host/builtins, programs.rs)
# and registers it as the built-in `git` at run time: git is GPL and is
# never linked into or embedded in the MIT binary.
#
# Nothing of git's source is copied or patched here: its run-command.c is
# replaced whole by programs/git/c/run_command.c (git's API, our code), a
# few libc calls are wrapped at link time (programs/git/c/wrap.c), and the
# rest is build settings (see ../shared/TOOLCHAIN.md, "Real git on WASI").
#
# Idempotent: sources are downloaded once (target/third-party), and the
# build is skipped when its inputs hash as they did last time. A clean build
# takes about 3 minutes on 2 cores. Needs clang-19, llvm-19, lld-19,
# wasi-libc, dpkg-dev and the Rust wasm32-wasip2 target (scripts/setup.sh).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
GLUE="$ROOT/programs/git"
GIT_VERSION=2.39.5
GIT_DEB_VERSION=2.39.5-0+deb12u3
ZLIB_DEB_VERSION=1:1.2.13.dfsg-1
THIRD_PARTY="${COMPUTER_THIRD_PARTY:-$ROOT/target/third-party}"
BUILD="$ROOT/target/git-build"
OUT="${COMPUTER_PROGRAMS_DIR:-$ROOT/target/programs}/git"
TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/guests/target}"
STAMP="$OUT/.stamp"

log() { printf '[build-git] %s\n' "$*" >&2; }

case "${1:-}" in
  lint)
    cargo fmt --check --manifest-path "$GLUE/Cargo.toml"
    COMPUTER_GIT_OBJECTS="$BUILD/objects" cargo clippy --release --target wasm32-wasip2 \
      --manifest-path "$GLUE/Cargo.toml" --target-dir "$TARGET_DIR" -- -D warnings
    exit 0
    ;;
esac

for tool in clang-19 llvm-ar-19 dpkg-source; do
  command -v "$tool" >/dev/null || { log "missing $tool: run scripts/setup.sh"; exit 1; }
done

# --- sources: Debian's source packages, once --------------------------------
# shellcheck source=lib/debian-source.sh
. "$ROOT/scripts/lib/debian-source.sh"
debian_fetch git "$GIT_DEB_VERSION"
debian_fetch zlib "$ZLIB_DEB_VERSION"

stamp="$(
  {
    sha256sum <"${BASH_SOURCE[0]}"
    ls "$THIRD_PARTY/git" "$THIRD_PARTY/zlib"
    (cd "$ROOT" && find programs/git wit -type f -not -path "*/target/*" -print0 |
      LC_ALL=C sort -z | xargs -0 sha256sum)
  } | sha256sum | cut -d' ' -f1
)"
if [ -f "$OUT/git.wasm" ] && [ "$(cat "$STAMP" 2>/dev/null)" = "$stamp" ]; then
  log "up to date: $OUT/git.wasm"
  exit 0
fi

GIT_SRC="$(debian_unpack git "$BUILD")"
ZLIB_SRC="$(debian_unpack zlib "$BUILD")"
OBJ="$BUILD/objects"
mkdir -p "$OBJ"

SYSROOT="$TARGET_DIR/wasi-sysroot"
mkdir -p "$SYSROOT/include"
ln -sfn /usr/include/wasm32-wasi "$SYSROOT/include/wasm32-wasip2"
WASM_CFLAGS=(--target=wasm32-wasip2 "--sysroot=$SYSROOT" -O2)

# --- zlib ---------------------------------------------------------------------
if [ ! -f "$OBJ/libz.a" ]; then
  log "building zlib"
  rm -rf "$BUILD/zlib-objects" && mkdir -p "$BUILD/zlib-objects"
  for c in adler32 compress crc32 deflate infback inffast inflate inftrees trees uncompr zutil; do
    clang-19 "${WASM_CFLAGS[@]}" -DHAVE_UNISTD_H -c "$ZLIB_SRC/$c.c" -o "$BUILD/zlib-objects/$c.o"
  done
  llvm-ar-19 rcs "$OBJ/libz.a" "$BUILD/zlib-objects"/*.o
fi

# --- git ------------------------------------------------------------------------
# uname_S=WASI matches none of config.mak.uname's platforms, so every
# setting is here. NO_REGEX: wasi-libc's regex lacks REG_STARTEND.
# CSPRNG_METHOD=getentropy: there is no /dev/urandom to read.
MAKE_ARGS=(
  -C "$GIT_SRC" -k -j"$(nproc)"
  uname_S=WASI uname_M=wasm32 uname_O=WASI uname_R=0 uname_P=wasm32 uname_V=0
  CC=clang-19 AR=llvm-ar-19
  "CFLAGS=${WASM_CFLAGS[*]} -D_WASI_EMULATED_SIGNAL -D_WASI_EMULATED_PROCESS_CLOCKS -D_WASI_EMULATED_GETPID -I$GLUE/c/include -I$ZLIB_SRC -include $GLUE/c/include/wasi-compat.h"
  NO_PTHREADS=1 NO_MMAP=1 NO_CURL=1 NO_OPENSSL=1 NO_EXPAT=1 NO_GETTEXT=1 NO_ICONV=1
  NO_PERL=1 NO_PYTHON=1 NO_TCLTK=1 NO_UNIX_SOCKETS=1 NO_REGEX=NeedsStartEnd
  CSPRNG_METHOD=getentropy prefix=/usr gitexecdir=/usr/lib/git-core NO_SETITIMER=1 NO_STRUCT_ITIMERVAL=1
  NO_INITGROUPS=1 NO_IPV6=1 NO_POSIX_GOODIES=1 NO_INSTALL_HARDLINKS=1
)
builtins=$(cd "$GIT_SRC" && ls builtin/*.c | sed 's/\.c$/.o/')
log "building git $GIT_VERSION (make, $(nproc) jobs)"
# shellcheck disable=SC2086
make "${MAKE_ARGS[@]}" libgit.a xdiff/lib.a reftable/libreftable.a git.o common-main.o $builtins >"$BUILD/make.log" 2>&1 || {
  tail -40 "$BUILD/make.log" >&2
  log "make failed (whole log: $BUILD/make.log)"
  exit 1
}

# The compiler command git's Makefile uses, for our units and for
# common-main.c with its main renamed (the glue's Rust main calls it).
cc_line="$(make "${MAKE_ARGS[@]}" -n -W hex.c hex.o 2>/dev/null | grep -o 'clang-19 -o hex.o .* hex.c$')"
git_flags="$(sed -e 's/^clang-19 -o hex.o -c -MF [^ ]* -MQ hex.o -MMD -MP//' -e 's/ hex.c$//' <<<"$cc_line")"
compile() { # compile SOURCE OBJECT [EXTRA...]
  local src=$1 obj=$2
  shift 2
  # Warnings (git-compat-util.h redefines _XOPEN_SOURCE) go to the log.
  (cd "$GIT_SRC" && eval "clang-19 -c $git_flags \"\$@\" \"$src\" -o \"$obj\"") 2>>"$BUILD/make.log" || {
    tail -20 "$BUILD/make.log" >&2
    exit 1
  }
}
compile common-main.c "$OBJ/common-main-wasi.o" -Dmain=git_main
# git's one non-builtin program its shell scripts need, in the same binary.
compile sh-i18n--envsubst.c "$OBJ/envsubst.o" -Dcmd_main=envsubst_cmd_main
rm -f "$OBJ/libcomputergit.a"
for unit in run_command vfd wrap compat; do
  compile "$GLUE/c/$unit.c" "$OBJ/$unit.o" "-I$GLUE/c"
done
llvm-ar-19 rcs "$OBJ/libcomputergit.a" "$OBJ"/run_command.o "$OBJ"/vfd.o "$OBJ"/wrap.o "$OBJ"/compat.o

rm -f "$OBJ/libgitprogram.a"
# shellcheck disable=SC2086
(cd "$GIT_SRC" && llvm-ar-19 rcs "$OBJ/libgitprogram.a" git.o $builtins "$OBJ/common-main-wasi.o" "$OBJ/envsubst.o")
cp "$GIT_SRC/libgit.a" "$OBJ/libgit.a"
llvm-ar-19 d "$OBJ/libgit.a" run-command.o
cp "$GIT_SRC/xdiff/lib.a" "$OBJ/libxdiff.a"
cp "$GIT_SRC/reftable/libreftable.a" "$OBJ/libreftable.a"

log "linking the command component"
COMPUTER_GIT_OBJECTS="$OBJ" cargo build --release --target wasm32-wasip2 \
  --manifest-path "$GLUE/Cargo.toml" --target-dir "$TARGET_DIR"
# The templates `git init` copies (hook samples, info/exclude,
# description), mounted read-only at /usr/share/git-core/templates, and
# git's shell scripts (bisect, submodule and what they source), mounted at
# /usr/lib/git-core, git's exec path (Debian's).
make -C "$GIT_SRC/templates" SHELL_PATH=/bin/sh PERL_PATH=/usr/bin/perl >>"$BUILD/make.log" 2>&1
scripts=(git-bisect git-difftool--helper git-filter-branch git-merge-octopus git-merge-one-file
  git-merge-resolve git-mergetool git-quiltimport git-request-pull git-submodule git-web--browse
  git-mergetool--lib git-sh-i18n git-sh-setup)
make "${MAKE_ARGS[@]}" "${scripts[@]}" >>"$BUILD/make.log" 2>&1
mkdir -p "$OUT"
rm -rf "$OUT/templates" "$OUT/libexec"
cp -r "$GIT_SRC/templates/blt" "$OUT/templates"
mkdir -p "$OUT/libexec"
for s in "${scripts[@]}"; do cp "$GIT_SRC/$s" "$OUT/libexec/"; done
cp "$TARGET_DIR/wasm32-wasip2/release/git.wasm" "$OUT/git.wasm.tmp"
sha256sum "$OUT/git.wasm.tmp" | cut -d' ' -f1 >"$OUT/git.wasm.sha256"
mv "$OUT/git.wasm.tmp" "$OUT/git.wasm"
{
  cat "$GIT_SRC/COPYING"
  printf '\n\n==== zlib (linked into git.wasm) ====\n\n'
  sed -n '/Copyright notice/,$p' "$ZLIB_SRC/README"
} >"$OUT/COPYING"
cat >"$OUT/SOURCE" <<EOF
git.wasm is git $GIT_VERSION, GPL-2.0 (COPYING), built by scripts/build-git.sh of
the computer repository from Debian 12's source packages:
  $(basename "$(ls "$THIRD_PARTY/git"/*.dsc)") (apt-get source git)
  $(basename "$(ls "$THIRD_PARTY/zlib"/*.dsc)") (apt-get source zlib)
with the glue in programs/git (MIT): its run-command.c is replaced by
programs/git/c/run_command.c, and libc calls are wrapped at link time.
EOF
echo "$stamp" >"$STAMP"
log "built $OUT/git.wasm ($(du -h "$OUT/git.wasm" | cut -f1))"
