//! The shell backend under hostile and heavy scripts, through the public
//! interfaces: `computer_runtime::Runtime::exec` with the built-in `shell`
//! guest (and the `computer` CLI for a few cases).
//!
//! - Adversarial scripts (fork bomb, endless loops, `yes | head -c 10G`,
//!   output floods, deep recursion, memory growth) must end cleanly within
//!   the run's limits and leave nothing behind but what the script wrote.
//! - The host's `Limits.shell` reach the guest as `COMPUTER_SHELL_*`
//!   variables (an explicit variable from the caller wins), and a breach
//!   ends the script with a message naming the variable.
//! - A 100 MB file works with cat, grep, wc, sort and sha256sum; every
//!   result is checked against the value computed here.

use computer_tests::component_cache_dir;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use computer_runtime::{ExecOptions, Limits, RunResult, RunStatus, Runtime, RuntimeConfig};
use computer_store::{Config, NodeKind, Page, Workspace, WriteOptions};
use computer_tests::{Ws, describe};
use sha2::{Digest, Sha256};

mod adversarial;
mod limits_scale;

const BACKEND: &str = "shell";

// ------------------------------------------------------------ helpers

/// One runtime per test process (the engine is shared anyway), with the
/// compiled-component cache under the target directory.
pub(crate) fn runtime() -> &'static Runtime {
    static RUNTIME: OnceLock<Runtime> = OnceLock::new();
    RUNTIME.get_or_init(|| {
        let config = RuntimeConfig {
            cache_dir: Some(component_cache_dir()),
            ..Default::default()
        };
        let runtime = Runtime::with_builtin_guests(config).expect("creating the runtime");
        assert!(
            runtime.backends().iter().any(|b| b == BACKEND),
            "no built-in `shell` backend (backends: {:?}): run scripts/build-guests.sh",
            runtime.backends()
        );
        runtime
    })
}

/// The limits a shell run gets when it names none: the runtime's defaults
/// with the shell's own memory cap.
fn shell_defaults() -> Limits {
    let config = RuntimeConfig::default();
    Limits {
        memory_bytes: config.backend_memory[BACKEND],
        ..config.limits
    }
}

/// [`shell_defaults`] with another timeout.
fn limits_with_timeout(timeout: Duration) -> Limits {
    Limits {
        timeout,
        ..shell_defaults()
    }
}

fn empty_workspace() -> Arc<Workspace> {
    Arc::new(Workspace::in_memory().expect("in-memory workspace"))
}

fn options(limits: Option<Limits>, env: &[(&str, &str)]) -> ExecOptions {
    ExecOptions {
        backend: BACKEND.into(),
        env: env
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect(),
        limits,
        ..Default::default()
    }
}

fn exec(ws: &Arc<Workspace>, script: &str, options: ExecOptions) -> RunResult {
    runtime()
        .exec(ws.clone(), script, options)
        .unwrap_or_else(|e| panic!("exec refused {script:?}: {e}"))
        .wait()
}

/// Runs `script` in the shell with `limits`.
fn run(ws: &Arc<Workspace>, script: &str, limits: Limits) -> RunResult {
    exec(ws, script, options(Some(limits), &[]))
}

fn show(script: &str, r: &RunResult) -> String {
    let clip = |b: &[u8]| {
        let s = String::from_utf8_lossy(b);
        if s.len() > 600 {
            let head: String = s.chars().take(300).collect();
            let tail: String = s
                .chars()
                .rev()
                .take(300)
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
                .collect();
            format!("{head}[... {} bytes ...]{tail}", s.len())
        } else {
            s.into_owned()
        }
    };
    format!(
        "script: {script}\nstatus: {:?}, exit {}, error {:?}, after {:?}\nstdout: {}\nstderr: {}",
        r.status,
        r.exit_code,
        r.error,
        r.duration,
        clip(&r.stdout),
        clip(&r.stderr)
    )
}

fn text(r: &RunResult) -> (String, String) {
    (
        String::from_utf8_lossy(&r.stdout).into_owned(),
        String::from_utf8_lossy(&r.stderr).into_owned(),
    )
}

/// Every path in the workspace, with its kind.
fn tree(ws: &Workspace) -> BTreeMap<String, NodeKind> {
    fn walk(ws: &Workspace, dir: &str, out: &mut BTreeMap<String, NodeKind>) {
        for st in ws
            .readdir(dir, Page::all())
            .unwrap_or_else(|e| panic!("readdir {dir}: {e}"))
        {
            let path = if dir == "/" {
                format!("/{}", st.name)
            } else {
                format!("{dir}/{}", st.name)
            };
            out.insert(path.clone(), st.kind);
            if st.kind == NodeKind::Directory {
                walk(ws, &path, out);
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(ws, "/", &mut out);
    out
}

/// Nothing left but, for a stream cut at its cap, the whole stream the
/// host keeps under /.computer/output.
fn assert_empty(ws: &Workspace, what: &str) {
    let t = tree(ws);
    let left: Vec<_> = t
        .keys()
        .filter(|p| !(p.as_str() == "/.computer" || p.starts_with("/.computer/output")))
        .collect();
    assert!(left.is_empty(), "{what} left files behind: {t:?}");
}

/// Whether `bytes` is a prefix of `unit` repeated.
fn is_repeat_prefix(bytes: &[u8], unit: &[u8]) -> bool {
    bytes
        .iter()
        .enumerate()
        .all(|(i, b)| *b == unit[i % unit.len()])
}

/// Splits a capped stream into what was kept and the host's truncation
/// marker's count of dropped bytes, checking the marker names `cap`.
fn split_marker(stream: &[u8], cap: usize) -> (&[u8], u64) {
    let text = String::from_utf8_lossy(stream);
    let start = text
        .rfind("\n[output truncated: ")
        .unwrap_or_else(|| panic!("no truncation marker in {text:?}"));
    let marker = &text[start..];
    // The marker may go on to say where the whole stream was kept.
    let rest = marker
        .strip_prefix("\n[output truncated: ")
        .and_then(|m| m.strip_suffix("]\n"))
        .and_then(|m| {
            let limit = format!(" more bytes over the {cap}-byte limit");
            let at = m.find(&limit)?;
            let tail = &m[at + limit.len()..];
            (tail.is_empty() || tail.starts_with("; ")).then_some(&m[..at])
        })
        .unwrap_or_else(|| panic!("not the marker for a {cap}-byte cap: {marker:?}"));
    let dropped: u64 = rest
        .parse()
        .unwrap_or_else(|_| panic!("bad dropped count in {marker:?}"));
    (&stream[..start], dropped)
}

// ------------------------------------------------------------ defaults

#[test]
fn shell_runs_default_to_a_one_gib_memory_cap() {
    let config = RuntimeConfig::default();
    assert_eq!(config.backend_memory.get(BACKEND), Some(&(1usize << 30)));
    assert!(
        config.limits.memory_bytes < 1 << 30,
        "the general default should stay below the shell's"
    );

    // A run that names no limits is recorded with the shell's cap.
    let ws = empty_workspace();
    let r = exec(&ws, "echo hi", options(None, &[]));
    assert_eq!(
        (r.exit_code, &r.stdout[..]),
        (0, &b"hi\n"[..]),
        "{}",
        show("echo hi", &r)
    );
    let record = ws
        .runs()
        .get(&r.run_id)
        .expect("reading the run record")
        .expect("the run is recorded");
    let recorded: serde_json::Value =
        serde_json::from_str(&record.options).expect("run options are JSON");
    assert_eq!(
        recorded["memory_bytes"].as_u64(),
        Some(1 << 30),
        "recorded options: {recorded}"
    );
}

#[test]
fn program_name_is_bash() {
    let ws = empty_workspace();
    let script = "nosuchcmd";
    let r = exec(&ws, script, options(None, &[]));
    let (stdout, stderr) = text(&r);
    assert_eq!(r.exit_code, 127, "{}", show(script, &r));
    assert_eq!(stdout, "");
    // bash 5.2 says `bash: nosuchcmd: ...` for `bash -c` and adds
    // `line N: ` for a script; either is bash's.
    let rest = stderr
        .strip_prefix("bash: ")
        .unwrap_or_else(|| panic!("stderr does not start with `bash: `: {stderr:?}"));
    let rest = rest.strip_prefix("line 1: ").unwrap_or(rest);
    assert_eq!(rest, "nosuchcmd: command not found\n", "stderr: {stderr:?}");

    let r = exec(&ws, "echo \"$0\"", options(None, &[]));
    assert_eq!(text(&r).0, "bash\n", "{}", show("echo \"$0\"", &r));
}
