//! The on-disk cache of compiled components: a component is compiled once
//! per cache directory, and later registrations load the cached file.

use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use computer_runtime::{ExecOptions, JS_GUEST, RunStatus, Runtime, RuntimeConfig};
use computer_store::Workspace;

fn js_guest() -> &'static [u8] {
    JS_GUEST.expect("the JS guest is not embedded in computer-runtime: run scripts/build-guests.sh")
}

fn runtime(cache: &Path) -> Runtime {
    Runtime::new(RuntimeConfig {
        cache_dir: Some(cache.to_path_buf()),
        ..Default::default()
    })
    .expect("creating a runtime")
}

/// Every file in the cache directory (hidden temporaries included).
fn entries(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = match std::fs::read_dir(dir) {
        Ok(rd) => rd.map(|e| e.expect("dir entry").path()).collect(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(e) => panic!("{}: {e}", dir.display()),
    };
    v.sort();
    v
}

fn cwasm_files(dir: &Path) -> Vec<PathBuf> {
    entries(dir)
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "cwasm"))
        .collect()
}

/// (inode, mtime, size): any rewrite of the file changes the inode, since
/// the cache writes a temporary and renames it into place.
fn identity(p: &Path) -> (u64, i64, i64, u64) {
    let m = std::fs::metadata(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    (m.ino(), m.mtime(), m.mtime_nsec(), m.size())
}

fn runs_js(rt: &Runtime, backend: &str) {
    let r = rt
        .exec(
            Arc::new(Workspace::in_memory().unwrap()),
            "export default () => 40 + 2",
            ExecOptions {
                backend: backend.into(),
                ..Default::default()
            },
        )
        .expect("exec")
        .wait();
    assert_eq!(r.status, RunStatus::Completed, "{r:?}");
    assert_eq!(r.value, Some(serde_json::json!(42)));
}

#[test]
fn a_component_is_compiled_once_per_cache_directory() {
    let tmp = tempfile::tempdir().unwrap();
    let cache = tmp.path().join("cache");

    let first = runtime(&cache);
    assert_eq!(first.cache_dir(), cache);
    first.register_guest("js", js_guest()).expect("register");
    let files = cwasm_files(&cache);
    assert_eq!(files.len(), 1, "{:?}", entries(&cache));
    assert_eq!(entries(&cache), files, "no temporaries are left behind");
    let before = identity(&files[0]);
    runs_js(&first, "js");

    // Another runtime (as after a restart), the same component: a cache hit.
    let second = runtime(&cache);
    second.register_guest("js", js_guest()).expect("register");
    // And under another name in the same runtime: still the same entry.
    second
        .register_guest("js-again", js_guest())
        .expect("register");
    assert_eq!(cwasm_files(&cache), files);
    assert_eq!(entries(&cache), files);
    assert_eq!(
        identity(&files[0]),
        before,
        "the cached file was rewritten: the component was compiled again"
    );
    runs_js(&second, "js");
    runs_js(&second, "js-again");
}

#[test]
fn a_corrupt_cache_entry_is_replaced() {
    let tmp = tempfile::tempdir().unwrap();
    let cache = tmp.path().join("cache");
    runtime(&cache).register_guest("js", js_guest()).unwrap();
    let files = cwasm_files(&cache);
    assert_eq!(files.len(), 1);
    std::fs::write(&files[0], b"garbage, not a compiled component").unwrap();

    let rt = runtime(&cache);
    rt.register_guest("js", js_guest())
        .expect("a corrupt cache entry must not break registration");
    runs_js(&rt, "js");
    assert_eq!(cwasm_files(&cache), files);
    let repaired = identity(&files[0]);
    assert!(
        repaired.3 > 1000,
        "the entry was rewritten with a real compile"
    );

    // And the repaired entry is a hit again.
    runtime(&cache).register_guest("js", js_guest()).unwrap();
    assert_eq!(identity(&files[0]), repaired);
}

#[test]
fn different_components_get_different_entries() {
    let tmp = tempfile::tempdir().unwrap();
    let cache = tmp.path().join("cache");
    let rt = runtime(&cache);
    rt.register_guest("js", js_guest()).unwrap();
    // The same component with a custom section appended is another component.
    let mut other = js_guest().to_vec();
    // A custom section: id 0, size, name length, name, no payload.
    other.extend_from_slice(&[0, 5, 4, b't', b'e', b's', b't']);
    rt.register_guest("js2", &other)
        .expect("the variant is valid");
    assert_eq!(cwasm_files(&cache).len(), 2, "{:?}", entries(&cache));
    runs_js(&rt, "js2");
}

#[test]
fn an_unwritable_cache_directory_does_not_prevent_running() {
    let tmp = tempfile::tempdir().unwrap();
    // A file where the directory should be: the cache cannot be created.
    let cache = tmp.path().join("not-a-dir");
    std::fs::write(&cache, b"").unwrap();
    let rt = runtime(&cache);
    rt.register_guest("js", js_guest())
        .expect("the cache is an optimization; registration must still work");
    runs_js(&rt, "js");
}
