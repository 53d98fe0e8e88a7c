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

/// The SHA-256 of a component's bytes, which its cache key is made from.
pub(crate) fn digest(bytes: &[u8]) -> [u8; 32] {
    Sha256::digest(bytes).into()
}

/// Parses a hex SHA-256 (as the store and the build scripts write them).
pub(crate) fn parse_digest(hex: &str) -> Option<[u8; 32]> {
    if hex.len() != 64 {
        return None;
    }
    let mut out = [0u8; 32];
    for (i, byte) in out.iter_mut().enumerate() {
        *byte = u8::from_str_radix(hex.get(2 * i..2 * i + 2)?, 16).ok()?;
    }
    Some(out)
}

fn key(engine: &Engine, digest: &[u8; 32], adapted: bool) -> String {
    let mut compat = std::collections::hash_map::DefaultHasher::new();
    engine.precompile_compatibility_hash().hash(&mut compat);
    let mut h = Sha256::new();
    h.update(digest);
    // A wasip1 module is compiled as the component its adapter makes of it.
    if adapted {
        h.update(crate::commands::wasip1::ADAPTER_ID.as_bytes());
    }
    h.update(compat.finish().to_le_bytes());
    h.update(env!("CARGO_PKG_VERSION").as_bytes());
    // What is compiled: the component, or its pre-initialized snapshot.
    h.update(if preinit_enabled() {
        b"preinit 1".as_slice()
    } else {
        b"as given"
    });
    h.finalize()[..16]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Loads `bytes` as a component, from the cache when possible.
pub(crate) fn load(
    engine: &Engine,
    name: &str,
    bytes: &[u8],
    dir: &Path,
    observer: Option<&CompileObserver>,
) -> Result<Component, ExecError> {
    load_digested(engine, name, bytes, &digest(bytes), dir, observer)
}

/// What a compile that the cache could not spare is about.
#[derive(Debug, Clone)]
pub enum CompileEvent {
    /// Compiling the component `name` (`bytes` long) starts.
    Started {
        /// The backend or command it is registered as.
        name: String,
        /// The component's size, which is what the compile's time follows.
        bytes: usize,
    },
    /// The compile ended: compiled (and cached for the next process), or
    /// failed (the caller gets the error).
    Finished {
        /// As in `Started`.
        name: String,
        /// How long the compile took.
        elapsed: std::time::Duration,
    },
}

/// Told of every compile the component cache could not spare (a 24 MB
/// interpreter takes seconds), so a front end can say why it waits.
#[derive(Clone)]
pub struct CompileObserver(pub std::sync::Arc<dyn Fn(&CompileEvent) + Send + Sync>);

impl std::fmt::Debug for CompileObserver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("CompileObserver(..)")
    }
}

/// As [`load`], for bytes whose SHA-256 the caller already has (computed at
/// build time, or stored): a 24 MB component is then not hashed again by
/// every process that runs it.
pub(crate) fn load_digested(
    engine: &Engine,
    name: &str,
    bytes: &[u8],
    digest: &[u8; 32],
    dir: &Path,
    observer: Option<&CompileObserver>,
) -> Result<Component, ExecError> {
    load_keyed(engine, name, bytes, digest, dir, observer, false)
}

/// As [`load_digested`], for a command: a wasip1 command module (a core
/// module) is adapted into a component first. Both the adapting and the
/// compile happen once per SHA-256 of the module's own bytes: the cache
/// holds the compiled component under that digest.
pub(crate) fn load_command(
    engine: &Engine,
    name: &str,
    bytes: &[u8],
    digest: &[u8; 32],
    dir: &Path,
    observer: Option<&CompileObserver>,
) -> Result<Component, ExecError> {
    let module = crate::commands::wasip1::is_core_module(bytes);
    load_keyed(engine, name, bytes, digest, dir, observer, module)
}

#[allow(unsafe_code)] // deserializing our own cached compile; see the SAFETY note
fn load_keyed(
    engine: &Engine,
    name: &str,
    bytes: &[u8],
    digest: &[u8; 32],
    dir: &Path,
    observer: Option<&CompileObserver>,
    module: bool,
) -> Result<Component, ExecError> {
    let path = dir.join(format!("{}.cwasm", key(engine, digest, module)));
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
    let started = std::time::Instant::now();
    // Not announced for bytes that are no component: they fail at once.
    let announced = observer.filter(|_| module || looks_like_component(bytes));
    if let Some(o) = announced {
        (o.0)(&CompileEvent::Started {
            name: name.to_owned(),
            bytes: bytes.len(),
        });
    }
    let adapted = module.then(|| crate::commands::wasip1::adapt(engine, bytes));
    let compiled = match &adapted {
        Some(Ok(component)) => Component::new(engine, component)
            .map_err(|e| crate::commands::wasip1::explain(&crate::error::one_line(&e))),
        Some(Err(reason)) => Err(reason.clone()),
        None => {
            let snapshot = preinitialized(name, bytes);
            Component::new(engine, snapshot.as_deref().unwrap_or(bytes)).map_err(|e| {
                format!(
                    "not a valid WebAssembly component: {}",
                    crate::error::one_line(&e)
                )
            })
        }
    };
    // Told either way, so no spinner or progress report outlives a compile.
    if let Some(o) = announced {
        (o.0)(&CompileEvent::Finished {
            name: name.to_owned(),
            elapsed: started.elapsed(),
        });
    }
    let component = compiled.map_err(|reason| ExecError::BadGuest {
        name: name.to_owned(),
        reason,
    })?;
    if let Err(e) = store(&component, dir, &path) {
        // The cache is an optimization: run without it.
        tracing::warn!("cannot cache compiled component in {}: {e}", dir.display());
    }
    Ok(component)
}

/// `COMPUTER_PREINIT=0` compiles components as given (to measure what
/// pre-initialization saves, or as a way out).
fn preinit_enabled() -> bool {
    std::env::var("COMPUTER_PREINIT").map_or(true, |v| v != "0")
}

/// The pre-initialized form of `bytes` (see `preinit`), when it exports an
/// initializer; `None` compiles the component as it is, also when the
/// initialization fails (the guest then initializes itself in every run).
fn preinitialized(name: &str, bytes: &[u8]) -> Option<Vec<u8>> {
    if !preinit_enabled() || !super::preinit::wants_preinit(bytes) {
        return None;
    }
    let started = std::time::Instant::now();
    match std::panic::catch_unwind(|| super::preinit::preinitialize(bytes)) {
        Ok(Ok(snapshot)) => {
            tracing::debug!(name, elapsed = ?started.elapsed(), "pre-initialized");
            Some(snapshot)
        }
        Ok(Err(e)) => {
            tracing::warn!("{name}: pre-initialization failed, compiled as it is: {e:#}");
            None
        }
        Err(_) => {
            tracing::warn!("{name}: pre-initialization panicked, compiled as it is");
            None
        }
    }
}

/// The preamble of a binary component: `\0asm`, then version 0x0d and
/// layer 1 (a core module has layer 0).
fn looks_like_component(bytes: &[u8]) -> bool {
    bytes.len() >= 8 && bytes[..4] == *b"\0asm" && bytes[6..8] == [1, 0]
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

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};

    use super::{CompileEvent, CompileObserver, load, looks_like_component};

    #[test]
    fn a_compile_that_fails_is_still_told_to_have_ended() {
        let events = Arc::new(Mutex::new(Vec::new()));
        let seen = events.clone();
        let observer = CompileObserver(Arc::new(move |e: &CompileEvent| {
            seen.lock().unwrap().push(match e {
                CompileEvent::Started { .. } => "started",
                CompileEvent::Finished { .. } => "finished",
            });
        }));
        let dir = tempfile::tempdir().unwrap();
        let broken = b"\0asm\x0d\x00\x01\x00 not the rest of a component";
        let engine = wasmtime::Engine::default();
        assert!(load(&engine, "broken", broken, dir.path(), Some(&observer)).is_err());
        assert_eq!(*events.lock().unwrap(), ["started", "finished"]);
    }

    #[test]
    fn only_a_component_preamble_is_announced_as_a_compile() {
        assert!(looks_like_component(b"\0asm\x0d\x00\x01\x00rest"));
        assert!(
            !looks_like_component(b"\0asm\x01\x00\x00\x00"),
            "a core module"
        );
        assert!(!looks_like_component(b"not wasm at all"));
        assert!(!looks_like_component(b"\0asm"));
    }
}
