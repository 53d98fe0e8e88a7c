//! Embeds the guest components built by `scripts/build-guests.sh`, when
//! they exist, so that the runtime works with no files beside the binary.

use std::path::PathBuf;

use sha2::Digest;

/// (cfg name, env var with the path, file name in the guests' target dir)
const GUESTS: &[(&str, &str, &str)] = &[
    (
        "computer_js_guest",
        "COMPUTER_JS_GUEST_WASM",
        "computer_guest_js.wasm",
    ),
    (
        "computer_shell_guest",
        "COMPUTER_SHELL_GUEST_WASM",
        "computer_guest_shell.wasm",
    ),
];

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap_or_default());
    let built = manifest.join("../../guests/target/wasm32-wasip2/release");
    for (cfg, var, file) in GUESTS {
        println!("cargo::rustc-check-cfg=cfg({cfg})");
        println!("cargo::rerun-if-env-changed={var}");
        let path = std::env::var_os(var)
            .map(PathBuf::from)
            .unwrap_or_else(|| built.join(file));
        println!("cargo::rerun-if-changed={}", path.display());
        if path.is_file() {
            let abs = path.canonicalize().unwrap_or(path);
            // Its digest, so no process hashes the guest to find its compiled form.
            let bytes = std::fs::read(&abs).expect("reading the guest");
            let digest: String = sha2::Sha256::digest(&bytes)
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect();
            println!("cargo::rustc-env={var}_SHA256={digest}");
            println!("cargo::rustc-env={var}={}", abs.display());
            println!("cargo::rustc-cfg={cfg}");
        } else {
            println!(
                "cargo::warning={file} not found at {}; run scripts/build-guests.sh to embed it",
                path.display()
            );
        }
    }
}
