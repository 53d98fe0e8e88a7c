//! Compiled components on disk, keyed by the component's hash and the
//! engine's compatibility (wasmtime version and settings), so no start-up
//! compiles the same component twice.

use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};
use wasmtime::Engine;
use wasmtime::component::Component;

use crate::error::ExecError;

pub(crate) fn default_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("COMPUTER_CACHE_DIR") {
        return PathBuf::from(dir);
    }
    if let Some(dir) = std::env::var_os("XDG_CACHE_HOME") {
        return PathBuf::from(dir).join("computer");
    }
    if let Some(home) = std::env::var_os("HOME") {
        return PathBuf::from(home).join(".cache").join("computer");
    }
    std::env::temp_dir().join("computer-cache")
}

fn key(engine: &Engine, bytes: &[u8]) -> String {
    let mut compat = std::collections::hash_map::DefaultHasher::new();
    engine.precompile_compatibility_hash().hash(&mut compat);
    let mut h = Sha256::new();
    h.update(bytes);
    h.update(compat.finish().to_le_bytes());
    h.update(env!("CARGO_PKG_VERSION").as_bytes());
    h.finalize()[..16]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Loads `bytes` as a component, from the cache when possible.
#[allow(unsafe_code)] // deserializing our own cached compile; see the SAFETY note
pub(crate) fn load(
    engine: &Engine,
    name: &str,
    bytes: &[u8],
    dir: &Path,
) -> Result<Component, ExecError> {
    let path = dir.join(format!("{}.cwasm", key(engine, bytes)));
    if path.exists() {
        // SAFETY: the file was written by `Component::serialize` of this
        // same engine configuration (the key covers it) into a cache
        // directory we own; a corrupt or foreign file fails to deserialize
        // and is replaced below.
        match unsafe { Component::deserialize_file(engine, &path) } {
            Ok(c) => return Ok(c),
            Err(e) => tracing::warn!(
                "ignoring unusable cached component {}: {e:#}",
                path.display()
            ),
        }
    }
    let component = Component::new(engine, bytes).map_err(|e| ExecError::BadGuest {
        name: name.to_owned(),
        reason: format!(
            "not a valid WebAssembly component: {}",
            crate::error::one_line(&e)
        ),
    })?;
    if let Err(e) = store(&component, dir, &path) {
        // The cache is an optimization: run without it.
        tracing::warn!("cannot cache compiled component in {}: {e}", dir.display());
    }
    Ok(component)
}

fn store(component: &Component, dir: &Path, path: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let bytes = component.serialize().map_err(std::io::Error::other)?;
    // Write then rename, so a concurrent reader never sees half a file.
    let tmp = dir.join(format!(".{}.{}.tmp", std::process::id(), rand_suffix()));
    std::fs::write(&tmp, bytes)?;
    std::fs::rename(&tmp, path)
}

fn rand_suffix() -> u64 {
    use std::time::{SystemTime, UNIX_EPOCH};
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.subsec_nanos() as u64)
        .unwrap_or(0)
}
