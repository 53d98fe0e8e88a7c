//! Embeds the built-in command components the build scripts made: the
//! component's bytes, and its runtime files packed into one blob (`pack`),
//! so the binary works with no files beside it. One that is missing fails
//! the build with the script that builds it, unless
//! `COMPUTER_WITHOUT_GUESTS=1` asks for a binary without it.

use std::io::Write;

use sha2::Digest;
use std::path::{Path, PathBuf};

/// (cfg, env var overriding the component's path (and, with `_FILES`, the
/// files directory's), component path under the repository, files directory
/// under the repository and blob name (None: a command with no files), the
/// script that builds it)
type BuiltIn = (
    &'static str,
    &'static str,
    &'static str,
    Option<(&'static str, &'static str)>,
    &'static str,
);

const BUILTINS: &[BuiltIn] = &[
    (
        "computer_python",
        "COMPUTER_PYTHON_WASM",
        "target/python/python3.wasm",
        Some(("target/python/lib/python3.14", "python-lib.blob")),
        "scripts/build-python.sh",
    ),
    (
        "computer_curl",
        "COMPUTER_CURL_WASM",
        "guests/target/wasm32-wasip2/release/curl.wasm",
        None,
        "scripts/build-guests.sh",
    ),
    (
        "computer_sqlite3",
        "COMPUTER_SQLITE3_WASM",
        "target/sqlite3/sqlite3.wasm",
        None,
        "scripts/build-sqlite3.sh",
    ),
];

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap_or_default());
    let root = manifest.join("../..");
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("OUT_DIR"));
    println!("cargo::rerun-if-env-changed=COMPUTER_WITHOUT_GUESTS");
    // Where this checkout's build scripts install the separate programs
    // (scripts/build-git.sh): the last place programs.rs looks, so the
    // binaries and tests of a checkout find them. Nothing is embedded.
    println!(
        "cargo::rustc-env=COMPUTER_CHECKOUT_PROGRAMS={}",
        root.join("target/programs").display()
    );
    let allow_missing = std::env::var_os("COMPUTER_WITHOUT_GUESTS").is_some_and(|v| v == "1");
    for (cfg, var, wasm, files, script) in BUILTINS {
        println!("cargo::rustc-check-cfg=cfg({cfg})");
        println!("cargo::rerun-if-env-changed={var}");
        let wasm = std::env::var_os(var)
            .map(PathBuf::from)
            .unwrap_or_else(|| root.join(wasm));
        println!("cargo::rerun-if-changed={}", wasm.display());
        let files = files.map(|(dir, blob)| {
            let files_var = format!("{var}_FILES");
            println!("cargo::rerun-if-env-changed={files_var}");
            let dir = std::env::var_os(&files_var)
                .map(PathBuf::from)
                .unwrap_or_else(|| root.join(dir));
            println!("cargo::rerun-if-changed={}", dir.display());
            (dir, blob)
        });
        let files_missing = files.as_ref().is_some_and(|(dir, _)| !dir.is_dir());
        if !wasm.is_file() || files_missing {
            let what = match &files {
                Some((dir, _)) => format!("{} or {}", wasm.display(), dir.display()),
                None => wasm.display().to_string(),
            };
            if allow_missing {
                println!(
                    "cargo::warning={what} not found; built without it (COMPUTER_WITHOUT_GUESTS=1)"
                );
            } else {
                println!(
                    "cargo::error={what} not found: build it first with {script} \
                     (or set COMPUTER_WITHOUT_GUESTS=1 for a binary without it)"
                );
            }
            continue;
        }
        if let Some((dir, blob)) = &files {
            let packed = out.join(blob);
            pack(dir, &packed).expect("packing the built-in's files");
            println!("cargo::rustc-env={var}_FILES={}", packed.display());
        }
        let abs = wasm.canonicalize().unwrap_or(wasm);
        let bytes = std::fs::read(&abs).expect("reading the built-in component");
        let digest: String = sha2::Sha256::digest(&bytes)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        println!("cargo::rustc-env={var}_SHA256={digest}");
        println!("cargo::rustc-env={var}={}", abs.display());
        println!("cargo::rustc-cfg={cfg}");
    }
}

/// Every file under `dir` as `u32 path length, path, u64 size, bytes`,
/// little-endian, paths relative and `/`-separated, in sorted order.
fn pack(dir: &Path, to: &Path) -> std::io::Result<()> {
    let mut paths = Vec::new();
    collect(dir, dir, &mut paths)?;
    paths.sort();
    let mut w = std::io::BufWriter::new(std::fs::File::create(to)?);
    for rel in paths {
        let data = std::fs::read(dir.join(&rel))?;
        w.write_all(&(rel.len() as u32).to_le_bytes())?;
        w.write_all(rel.as_bytes())?;
        w.write_all(&(data.len() as u64).to_le_bytes())?;
        w.write_all(&data)?;
    }
    w.flush()
}

fn collect(root: &Path, dir: &Path, out: &mut Vec<String>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let path = entry.path();
        let kind = entry.file_type()?;
        if kind.is_dir() {
            collect(root, &path, out)?;
        } else if kind.is_file()
            && let Ok(rel) = path.strip_prefix(root)
        {
            out.push(rel.to_string_lossy().replace('\\', "/"));
        }
    }
    Ok(())
}
