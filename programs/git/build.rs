//! Links git's objects, built by scripts/build-git.sh into
//! $COMPUTER_GIT_OBJECTS (libgitprogram.a, libgit.a, xdiff, reftable, zlib
//! and our own C in libcomputergit.a).
use std::env;

fn main() {
    println!("cargo:rerun-if-env-changed=COMPUTER_GIT_OBJECTS");
    let Ok(dir) = env::var("COMPUTER_GIT_OBJECTS") else {
        panic!("COMPUTER_GIT_OBJECTS is not set: build this crate through scripts/build-git.sh");
    };
    for lib in ["gitprogram", "computergit", "git", "xdiff", "reftable", "z"] {
        println!("cargo:rerun-if-changed={dir}/lib{lib}.a");
    }
    println!("cargo:rustc-link-search=native={dir}");
    // wasm-ld resolves archive members in any order, as lld does.
    for lib in ["gitprogram", "computergit", "git", "xdiff", "reftable", "z"] {
        println!("cargo:rustc-link-arg={dir}/lib{lib}.a");
    }
    // The libc calls whose WASI answers git cannot use as they are
    // (c/wrap.c): exit codes above 1, permission bits, and the descriptors of
    // children's pipes.
    for sym in [
        "_Exit", "lstat", "stat", "fstat", "open", "read", "write", "readv", "writev", "close",
        "chmod", "fchmod", "fcntl", "poll", "unlink", "rename", "mkdir", "rmdir", "symlink",
        "link",
    ] {
        println!("cargo:rustc-link-arg=--wrap={sym}");
    }
    // Every libc call git makes must exist: an unresolved one would become
    // an import no host provides.
    println!("cargo:rustc-link-arg=--unresolved-symbols=report-all");
    // git recurses deeply (revision walks, xdiff): the default wasm stack is 64 KiB.
    println!("cargo:rustc-link-arg=-zstack-size=8388608");
}
