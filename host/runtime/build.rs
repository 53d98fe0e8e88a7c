//! Embeds the guest components built by `scripts/build-guests.sh`, when
//! they exist, so that the runtime works with no files beside the binary.

use std::path::PathBuf;

fn main() {
    println!("cargo::rustc-check-cfg=cfg(computer_js_guest)");
    println!("cargo::rerun-if-env-changed=COMPUTER_JS_GUEST_WASM");
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap_or_default());
    let path = std::env::var_os("COMPUTER_JS_GUEST_WASM")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            manifest.join("../../guests/target/wasm32-wasip2/release/computer_guest_js.wasm")
        });
    println!("cargo::rerun-if-changed={}", path.display());
    if path.is_file() {
        let abs = path.canonicalize().unwrap_or(path);
        println!("cargo::rustc-env=COMPUTER_JS_GUEST_WASM={}", abs.display());
        println!("cargo::rustc-cfg=computer_js_guest");
    } else {
        println!(
            "cargo::warning=JS guest not found at {}; run scripts/build-guests.sh to embed it",
            path.display()
        );
    }
}
