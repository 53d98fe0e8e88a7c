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

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use computer_runtime::{ExecOptions, Limits, RunResult, RunStatus, Runtime, RuntimeConfig};
use computer_store::{Config, NodeKind, Page, Workspace, WriteOptions};
use computer_tests::{Ws, describe};
use sha2::{Digest, Sha256};

const BACKEND: &str = "shell";

// ------------------------------------------------------------ helpers

/// One runtime per test process (the engine is shared anyway), with the
/// compiled-component cache under the target directory.
fn runtime() -> &'static Runtime {
    static RUNTIME: OnceLock<Runtime> = OnceLock::new();
    RUNTIME.get_or_init(|| {
        let config = RuntimeConfig {
            cache_dir: Some(PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("component-cache")),
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

fn assert_empty(ws: &Workspace, what: &str) {
    let t = tree(ws);
    assert!(t.is_empty(), "{what} left files behind: {t:?}");
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
    let rest = marker
        .strip_prefix("\n[output truncated: ")
        .and_then(|m| m.strip_suffix(&format!(" more bytes over the {cap}-byte limit]\n")))
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

// ------------------------------------------------------------ adversarial

#[test]
fn fork_bomb_ends_within_the_limits() {
    let ws = empty_workspace();
    let script = ":(){ :|:& };:";
    let limits = shell_defaults();
    let stderr_cap = limits.stderr_bytes;
    let r = run(&ws, script, limits);
    let shown = show(script, &r);
    match r.status {
        // Ended by the shell: its function depth limit, or the output limit
        // on the flood of depth errors.
        RunStatus::Failed => {
            assert_eq!(r.exit_code, 1, "{shown}");
            assert!(
                text(&r).1.contains("maximum function depth exceeded (16)"),
                "{shown}"
            );
        }
        // Ended by the host's timeout.
        RunStatus::TimedOut => assert_eq!(r.exit_code, 124, "{shown}"),
        other => panic!("unexpected end {other:?}\n{shown}"),
    }
    assert_eq!(r.stdout, b"", "{shown}");
    // Whatever it printed stays within the cap (plus the host's marker).
    assert!(r.stderr.len() <= stderr_cap + 100, "{shown}");
    assert_empty(&ws, "the fork bomb");
}

#[test]
fn endless_loop_times_out_with_124() {
    let ws = empty_workspace();
    let script = "while true; do :; done";
    let r = run(&ws, script, limits_with_timeout(Duration::from_secs(2)));
    let shown = show(script, &r);
    assert_eq!(
        (r.status, r.exit_code),
        (RunStatus::TimedOut, 124),
        "{shown}"
    );
    assert!(
        r.error.as_deref().is_some_and(|e| e.contains("timed out")),
        "{shown}"
    );
    assert_eq!(r.stdout, b"", "{shown}");
    assert_empty(&ws, "the endless loop");
}

/// `yes | head -c 10G > /f` on a workspace whose files may grow to
/// `max_file_size`: the run must end within its limits (time, memory, or the
/// file-size cap), and the workspace must hold at most `/f`, a prefix of
/// `y\n` repeated.
fn yes_into_file(max_file_size: u64) -> (RunResult, Option<Vec<u8>>) {
    let dir = tempfile::tempdir().expect("temp dir");
    let ws = Arc::new(
        Workspace::open_with(
            dir.path().join("ws.db"),
            Config {
                max_file_size,
                ..Config::default()
            },
        )
        .expect("workspace"),
    );
    let script = "yes | head -c 10G > /f";
    let r = run(&ws, script, limits_with_timeout(Duration::from_secs(30)));
    let shown = show(script, &r);
    match r.status {
        RunStatus::Completed | RunStatus::Failed | RunStatus::TimedOut => {}
        other => panic!("unexpected end {other:?}\n{shown}"),
    }
    if r.status == RunStatus::TimedOut {
        assert_eq!(r.exit_code, 124, "{shown}");
    }
    let t = tree(&ws);
    let others: Vec<&String> = t.keys().filter(|p| *p != "/f").collect();
    assert!(others.is_empty(), "unexpected paths {others:?}\n{shown}");
    let f = t.get("/f").map(|kind| {
        assert_eq!(*kind, NodeKind::File, "{shown}");
        ws.read("/f").expect("reading /f")
    });
    if let Some(data) = &f {
        assert!(
            data.len() as u64 <= max_file_size,
            "/f has {} bytes, over the {max_file_size}-byte cap\n{shown}",
            data.len()
        );
        assert!(
            is_repeat_prefix(data, b"y\n"),
            "/f is not `y\\n` repeated\n{shown}"
        );
    }
    assert_eq!(r.stdout, b"", "{shown}");
    (r, f)
}

#[test]
fn yes_into_head_10g_ends_and_leaves_only_what_was_written() {
    let (r, f) = yes_into_file(computer_store::DEFAULT_MAX_FILE_SIZE);
    let shown = show("yes | head -c 10G > /f", &r);
    match (r.status, &f) {
        // Ended by `yes`'s own cap: /f holds all head passed on.
        (RunStatus::Completed, Some(data)) => assert!(!data.is_empty(), "{shown}"),
        (RunStatus::Completed, None) => panic!("completed without creating /f\n{shown}"),
        (RunStatus::Failed, _) => assert!(
            r.error.as_deref().is_some_and(|e| e.contains("memory"))
                || text(&r).1.contains("File too large"),
            "failed for another reason than a limit\n{shown}"
        ),
        _ => {}
    }
}

#[test]
fn yes_into_head_10g_stops_at_the_file_size_cap() {
    // `yes_into_file` checked that any /f left is a prefix under the cap.
    let (r, _) = yes_into_file(4096);
    let shown = show("yes | head -c 10G > /f", &r);
    assert_eq!((r.status, r.exit_code), (RunStatus::Failed, 1), "{shown}");
    assert!(
        text(&r).1.contains("/f: File too large"),
        "no EFBIG message\n{shown}"
    );
}

#[test]
fn stdout_flood_is_capped_with_the_marker_and_ends() {
    let cap = 4096;
    for (script, unit) in [
        ("yes", b"y\n".to_vec()),
        (
            // An endless flood that does not rely on `yes`'s own cap.
            "line=$(printf '%0500d' 0); while :; do echo \"$line\"; done",
            [vec![b'0'; 500], b"\n".to_vec()].concat(),
        ),
    ] {
        let ws = empty_workspace();
        let limits = Limits {
            // The guest's own budget follows the larger of the two caps.
            stdout_bytes: cap,
            stderr_bytes: cap,
            timeout: Duration::from_secs(30),
            ..shell_defaults()
        };
        let r = run(&ws, script, limits);
        let shown = show(script, &r);
        let (kept, dropped) = split_marker(&r.stdout, cap);
        assert_eq!(kept.len(), cap, "{shown}");
        assert!(dropped > 0, "{shown}");
        assert!(is_repeat_prefix(kept, &unit), "{shown}");
        // The guest stopped the script at its own output budget.
        assert_eq!((r.status, r.exit_code), (RunStatus::Failed, 1), "{shown}");
        assert!(
            text(&r).1.contains("output limit exceeded"),
            "no output-limit message\n{shown}"
        );
        assert_empty(&ws, script);
    }
}

#[test]
fn deep_recursion_stops_at_the_function_depth_limit() {
    let ws = empty_workspace();
    let script = "f(){ f; }; f";
    let r = run(&ws, script, shell_defaults());
    let shown = show(script, &r);
    assert_eq!((r.status, r.exit_code), (RunStatus::Failed, 1), "{shown}");
    assert!(
        text(&r).1.contains("maximum function depth exceeded"),
        "{shown}"
    );

    // A lowered limit is the depth reached, and the message names the knob.
    let depth = 5u64;
    let script = "f(){ echo $1; f $(( $1 + 1 )); }; f 1";
    let mut limits = shell_defaults();
    limits.shell.max_function_depth = depth;
    let r = run(&ws, script, limits);
    let shown = show(script, &r);
    let expected: String = (1..=depth).map(|i| format!("{i}\n")).collect();
    assert_eq!(text(&r).0, expected, "{shown}");
    assert_eq!(r.exit_code, 1, "{shown}");
    assert!(
        text(&r).1.contains("COMPUTER_SHELL_MAX_FUNCTION_DEPTH"),
        "{shown}"
    );
    assert_empty(&ws, "recursion");
}

#[test]
fn memory_growth_ends_at_the_memory_limit() {
    let ws = empty_workspace();
    let script = "s=x; while :; do s=\"$s$s\"; done";
    let limits = Limits {
        memory_bytes: 64 << 20,
        timeout: Duration::from_secs(30),
        ..shell_defaults()
    };
    let r = run(&ws, script, limits);
    let shown = show(script, &r);
    assert_eq!(r.status, RunStatus::Failed, "{shown}");
    assert_ne!(r.exit_code, 0, "{shown}");
    assert!(
        r.error
            .as_deref()
            .is_some_and(|e| e.contains("memory limit exceeded")),
        "{shown}"
    );
    assert_empty(&ws, "memory growth");
}

// ------------------------------------------------------------ shell limits

/// A loop of 5000 iterations that prints its count.
const LOOP_5000: &str = "i=0; while [ $i -lt 5000 ]; do i=$((i+1)); done; echo $i";

#[test]
fn loop_limit_comes_from_the_runs_limits() {
    let ws = empty_workspace();
    let with_loops = |n: u64| {
        let mut limits = shell_defaults();
        limits.shell.max_loop_iterations = n;
        limits
    };

    let r = run(&ws, LOOP_5000, with_loops(10_000));
    assert_eq!(
        (r.exit_code, text(&r).0.as_str()),
        (0, "5000\n"),
        "{}",
        show(LOOP_5000, &r)
    );

    let r = run(&ws, LOOP_5000, with_loops(1000));
    let shown = show(LOOP_5000, &r);
    assert_eq!((r.status, r.exit_code), (RunStatus::Failed, 1), "{shown}");
    assert_eq!(r.stdout, b"", "the script must stop at the loop\n{shown}");
    assert_eq!(
        text(&r).1,
        "bash: maximum loop iterations exceeded (1000) \
         (raise it with COMPUTER_SHELL_MAX_LOOP_ITERATIONS)\n",
        "{shown}"
    );

    // The caller's explicit variable wins over the run's limits.
    let r = exec(
        &ws,
        LOOP_5000,
        options(
            Some(with_loops(1000)),
            &[("COMPUTER_SHELL_MAX_LOOP_ITERATIONS", "100000")],
        ),
    );
    assert_eq!(
        (r.exit_code, text(&r).0.as_str()),
        (0, "5000\n"),
        "{}",
        show(LOOP_5000, &r)
    );
    // The other way round too: a low variable over generous limits.
    let r = exec(
        &ws,
        LOOP_5000,
        options(
            Some(with_loops(1_000_000)),
            &[("COMPUTER_SHELL_MAX_LOOP_ITERATIONS", "100")],
        ),
    );
    assert!(
        r.exit_code == 1
            && text(&r)
                .1
                .contains("maximum loop iterations exceeded (100)"),
        "{}",
        show(LOOP_5000, &r)
    );
}

#[test]
fn limit_variables_are_not_visible_to_the_script() {
    let ws = empty_workspace();
    let script = "env | grep -c '^COMPUTER_SHELL_'; echo \"${COMPUTER_SHELL_MAX_COMMANDS-unset}\"";
    let r = run(&ws, script, shell_defaults());
    assert_eq!(text(&r).0, "0\nunset\n", "{}", show(script, &r));
}

#[test]
fn command_limit_comes_from_the_runs_limits() {
    let ws = empty_workspace();
    let script = "for i in $(seq 1 1000); do true; done; echo finished";
    let r = run(&ws, script, shell_defaults());
    assert_eq!(text(&r).0, "finished\n", "{}", show(script, &r));

    let mut limits = shell_defaults();
    limits.shell.max_commands = 200;
    let r = run(&ws, script, limits);
    let shown = show(script, &r);
    assert_eq!((r.status, r.exit_code), (RunStatus::Failed, 1), "{shown}");
    assert_eq!(r.stdout, b"", "{shown}");
    assert!(
        text(&r).1.contains("COMPUTER_SHELL_MAX_COMMANDS"),
        "{shown}"
    );
}

// ------------------------------------------------------------ the CLI

#[test]
fn cli_endless_loop_times_out_with_124() {
    let ws = Ws::new();
    let args = [
        "--backend",
        "shell",
        "--timeout",
        "2",
        "while true; do :; done",
    ];
    let out = ws.exec(&args, "");
    let shown = describe(&args, &out);
    assert_eq!(out.status.code(), Some(124), "{shown}");
    assert!(out.stdout.is_empty(), "{shown}");
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("timed out"),
        "{shown}"
    );
    assert!(ws.names("/").is_empty(), "{shown}");
}

#[test]
fn cli_fork_bomb_ends() {
    let ws = Ws::new();
    let args = ["--backend", "shell", "--timeout", "60", ":(){ :|:& };:"];
    let out = ws.exec(&args, "");
    let shown = describe(&args, &out);
    let code = out.status.code();
    assert!(code == Some(1) || code == Some(124), "{shown}");
    assert!(out.stdout.is_empty(), "{shown}");
    assert!(ws.names("/").is_empty(), "{shown}");
}

#[test]
fn cli_command_not_found_is_127() {
    let ws = Ws::new();
    // The CLI's default backend is the shell.
    let mut cmd = ws.command(&["exec", "nosuchcmd"]);
    cmd.env("COMPUTER_CACHE_DIR", computer_tests::component_cache_dir());
    let out = computer_tests::run_command(&mut cmd, b"");
    let shown = describe(&["exec", "nosuchcmd"], &out);
    assert_eq!(out.status.code(), Some(127), "{shown}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.starts_with("bash: ") && stderr.ends_with("nosuchcmd: command not found\n"),
        "{shown}"
    );
}

// ------------------------------------------------------------ scale

/// Words cycled through the big file; `grep -c` counts one of them.
const WORDS: [&str; 7] = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta"];

/// Deterministic content of at least `size` bytes: numbered lines whose
/// leading key is scrambled, so `sort` has real work to do.
fn big_content(size: usize) -> Vec<u8> {
    use std::io::Write;
    let mut data = Vec::with_capacity(size + 64);
    let mut i: u64 = 0;
    while data.len() < size {
        let key = i.wrapping_mul(2_654_435_761) % 4_294_967_296;
        writeln!(data, "{key:010} {i:08} {}", WORDS[(i % 7) as usize]).expect("vec write");
        i += 1;
    }
    data
}

#[test]
fn hundred_megabyte_file_with_cat_grep_wc_sort_sha256sum() {
    let started = Instant::now();
    let data = big_content(100 << 20);
    let ws = empty_workspace();

    // The expected results are computed while the store takes the file.
    let (expected, written) = std::thread::scope(|s| {
        let writer = s.spawn(|| {
            ws.write("/f", &data, &WriteOptions::default())
                .expect("writing /f");
            started.elapsed()
        });
        let lines: Vec<&[u8]> = data
            .split(|b| *b == b'\n')
            .filter(|l| !l.is_empty())
            .collect();
        let gammas = lines
            .iter()
            .filter(|l| l.windows(5).any(|w| w == b"gamma"))
            .count();
        let max_line = lines.iter().max().expect("lines");
        let digest: String = Sha256::digest(&data)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        let mib = |n: usize| n << 20;
        // (script, memory cap, expected stdout). The caps bound how much
        // the guest may grow: `wc FILE` reads in ranges and stays well below
        // the file's size; grep and sha256sum take the file whole, within
        // 2.5 times its size. A pipe into a builtin (bashkit drains the pipe
        // and hands `wc` its stdin whole) and `sort` need 4 to 7 times the
        // file's size: they get the shell's default (1 GiB).
        let shell_memory = shell_defaults().memory_bytes;
        let expected: Vec<(&str, usize, String)> = vec![
            ("cat f | wc -c", shell_memory, format!("{}\n", data.len())),
            ("wc -l f", mib(64), format!("{} f\n", lines.len())),
            ("grep -c gamma f", mib(256), format!("{gammas}\n")),
            ("sha256sum f", mib(256), format!("{digest}  f\n")),
            (
                "sort f | tail -1",
                shell_memory,
                format!("{}\n", String::from_utf8_lossy(max_line)),
            ),
        ];
        (expected, writer.join().expect("writer thread"))
    });
    let prepared = started.elapsed();

    let mut timings = Vec::new();
    let mut failures = Vec::new();
    for (script, memory, want) in &expected {
        let limits = Limits {
            memory_bytes: *memory,
            ..limits_with_timeout(Duration::from_secs(120))
        };
        let r = run(&ws, script, limits);
        timings.push(format!("{script}: {:?}", r.duration));
        let got = text(&r).0;
        if r.exit_code != 0 || &got != want || !r.stderr.is_empty() {
            failures.push(format!(
                "want {want:?} (memory cap {} MiB)\n{}",
                memory >> 20,
                show(script, &r)
            ));
        }
    }
    eprintln!(
        "100 MB file ({} bytes): stored in {written:?}, prepared in {prepared:?}; {}",
        data.len(),
        timings.join("; ")
    );
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    // The commands only read.
    let paths: BTreeSet<String> = tree(&ws).into_keys().collect();
    assert_eq!(paths, BTreeSet::from(["/f".to_owned()]));
    assert_eq!(ws.stat("/f").expect("stat /f").size, data.len() as u64);
}
