//! Helpers shared by the runtime's test modules: runtimes with the
//! compiled-component cache under the target directory, the failure
//! descriptions, and a way to run a test in a process of its own.

use std::path::PathBuf;
use std::process::Command;
use std::sync::Once;
use std::time::Duration;

use computer_runtime::{JS_GUEST, RunResult, Runtime, RuntimeConfig};

/// A run that takes longer than this is stuck; the test fails.
pub const WATCHDOG: Duration = Duration::from_secs(60);

/// Compiled components are cached next to the build, shared by every test.
pub fn cache_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("component-cache")
}

/// The default configuration, with [`cache_dir`].
pub fn config() -> RuntimeConfig {
    RuntimeConfig {
        cache_dir: Some(cache_dir()),
        ..Default::default()
    }
}

/// The engine is shared by the whole process and was once sized by the
/// first runtime's config, so the first runtime here always has the
/// defaults: tests then do not depend on the order they run in. (The test
/// that a later runtime gets its own limits runs in a process of its own:
/// see [`in_own_process`].)
pub fn ensure_default_engine() {
    static FIRST: Once = Once::new();
    FIRST.call_once(|| {
        Runtime::new(config()).expect("creating the first runtime");
    });
}

/// A runtime with [`config`] and no guest registered.
pub fn bare_runtime() -> Runtime {
    ensure_default_engine();
    Runtime::new(config()).expect("creating a runtime")
}

/// A runtime with `config` and only the `js` guest (other built-in guests
/// are not under test here).
pub fn runtime_with(config: RuntimeConfig) -> Runtime {
    assert!(
        JS_GUEST.is_some(),
        "the JS guest is not embedded in computer-runtime: run scripts/build-guests.sh"
    );
    ensure_default_engine();
    let rt = Runtime::new(config).expect("creating the runtime");
    rt.register_guest("js", JS_GUEST.expect("checked above"))
        .expect("registering the JS guest");
    rt
}

/// [`runtime_with`] the default [`config`].
pub fn runtime() -> Runtime {
    runtime_with(config())
}

/// Bytes as text, lossily.
pub fn s(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// A run's result, for failure messages.
pub fn describe(r: &RunResult) -> String {
    format!(
        "status {:?}, exit {}, error {:?}\nstdout: {:?}\nstderr: {:?}\nvalue: {:?}",
        r.status,
        r.exit_code,
        r.error,
        s(&r.stdout),
        s(&r.stderr),
        r.value
    )
}

/// Runs the test named `test` (its path in this binary, such as
/// `engine_sharing::a_later_runtime_gets_its_own_limits`) alone in a new
/// process of this test binary, for a test that must create the process's
/// first runtime. Returns `true` in that new process, where the caller then
/// runs its body; here it waits for the process and fails unless the test
/// ran and passed there, and returns `false`.
pub fn in_own_process(test: &str) -> bool {
    const VAR: &str = "COMPUTER_TEST_OWN_PROCESS";
    if std::env::var_os(VAR).is_some_and(|v| v == test) {
        return true;
    }
    let exe = std::env::current_exe().expect("the test binary's path");
    let out = Command::new(exe)
        .args([test, "--exact", "--test-threads=1", "--nocapture"])
        .env(VAR, test)
        .output()
        .expect("starting the test binary again");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && stdout.contains("1 passed"),
        "{test} in a process of its own: {}\nstdout:\n{stdout}\nstderr:\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    false
}

/// Waits for a run's result, failing the test after [`WATCHDOG`].
pub fn wait_watched(handle: computer_runtime::RunHandle) -> RunResult {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(handle.wait());
    });
    rx.recv_timeout(WATCHDOG)
        .unwrap_or_else(|_| panic!("the run did not end within {WATCHDOG:?}"))
}
