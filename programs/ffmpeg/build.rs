//! Links FFmpeg's libraries and command-line units (both tools' in
//! libfftools.a), built by scripts/build-ffmpeg.sh into
//! $COMPUTER_FFMPEG_OBJECTS, into the program.
use std::env;

/// The libraries, in dependency order (wasm-ld resolves
/// archive members in any order, but the order documents the layers).
const LIBS: &[&str] = &[
    "fftools",
    "avfilter",
    "postproc",
    "avformat",
    "avcodec",
    "swscale",
    "swresample",
    "avutil",
    "mp3lame",
    "vorbisenc",
    "vorbis",
    "ogg",
    "opus",
    "x264",
    "z",
    "ffcompat",
];

fn main() {
    println!("cargo:rerun-if-env-changed=COMPUTER_FFMPEG_OBJECTS");
    let Ok(dir) = env::var("COMPUTER_FFMPEG_OBJECTS") else {
        panic!(
            "COMPUTER_FFMPEG_OBJECTS is not set: build this crate through scripts/build-ffmpeg.sh"
        );
    };
    for lib in LIBS {
        println!("cargo:rerun-if-changed={dir}/lib{lib}.a");
        println!("cargo:rustc-link-arg={dir}/lib{lib}.a");
    }
    // wasi-libc's `_Exit` can only say 0 or 1 (src/lib.rs).
    println!("cargo:rustc-link-arg=--wrap=_Exit");
    // Every libc call FFmpeg makes must exist: an unresolved one would
    // become an import no host provides.
    println!("cargo:rustc-link-arg=--unresolved-symbols=report-all");
    // Decoders keep large structures on the stack; the default wasm stack
    // is 64 KiB.
    println!("cargo:rustc-link-arg=-zstack-size=8388608");
}
