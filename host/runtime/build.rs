//! Embeds the guest components built by `scripts/build-guests.sh`, so that
//! the runtime works with no files beside the binary. A build without them
//! fails and says how to build them (a binary that cannot run a shell is
//! not what anyone building this meant), unless
//! `COMPUTER_WITHOUT_GUESTS=1` asks for a runtime without built-in guests
//! (an embedder that registers its own).

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
    println!("cargo::rerun-if-env-changed=COMPUTER_WITHOUT_GUESTS");
    let allow_missing = std::env::var_os("COMPUTER_WITHOUT_GUESTS").is_some_and(|v| v == "1");
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
        } else if allow_missing {
            println!(
                "cargo::warning={file} not found at {}; built without it (COMPUTER_WITHOUT_GUESTS=1)",
                path.display()
            );
        } else {
            println!(
                "cargo::error={file} not found at {}: build the guests first with \
                 scripts/build-guests.sh (or set COMPUTER_WITHOUT_GUESTS=1 for a runtime \
                 without built-in guests)",
                path.display()
            );
        }
    }
}
