//! What the two node oracle tests share (`node_corpus`, `node_packages`):
//! running a shell source with real node 20 on the host and in the `shell`
//! backend of a workspace, comparing the two, a compact line diff, and the
//! `pass NAME` baseline files.
//!
//! Both sides run the same shell source with the same environment; the
//! host side runs it under `/bin/bash` in `<tmp>/work`, the workspace side
//! in `/work`, and `<tmp>` is cut out of the oracle's stdout so absolute
//! paths read the same.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use computer_runtime::{ExecOptions, Limits, RunStatus, Runtime, RuntimeConfig};
use computer_store::{MkdirOptions, Workspace};
use computer_tests::component_cache_dir;
use computer_tests::corpus::{Outcome, run_with_stdin};

/// The oracle: nodesource's node 20 (`scripts/setup.sh`).
pub const ORACLE: &str = "/usr/bin/node";
const BASH: &str = "/bin/bash";
const SHELL: &str = "shell";

/// Where every script runs, in the workspace; `<tmp>/work` on the host.
pub const WORK: &str = "/work";
const HOME: &str = "/home/agent";

/// Per script and side; generous, so a hang shows up as a failure.
pub const TIMEOUT: Duration = Duration::from_secs(60);

pub fn env_flag(name: &str) -> bool {
    std::env::var(name).is_ok_and(|v| !v.is_empty() && v != "0")
}

/// The whole environment of a script, on both sides.
pub fn script_env() -> BTreeMap<String, String> {
    [
        ("PATH", "/usr/bin:/bin"),
        ("HOME", HOME),
        ("LC_ALL", "C"),
        ("TZ", "UTC"),
        ("CORPUS_MODE", "corpus"),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_owned(), v.to_owned()))
    .collect()
}

/// Why the oracle cannot run, if it cannot: the tests then skip.
pub fn oracle_missing() -> Option<String> {
    if !Path::new(ORACLE).exists() {
        return Some(format!(
            "{ORACLE} is missing (scripts/setup.sh installs node)"
        ));
    }
    let out = Command::new(ORACLE).arg("--version").output();
    match out {
        Ok(o) if String::from_utf8_lossy(&o.stdout).starts_with("v20.") => None,
        Ok(o) => {
            eprintln!(
                "warning: {ORACLE} is {}, not node 20: the expectations may differ",
                String::from_utf8_lossy(&o.stdout).trim()
            );
            None
        }
        Err(e) => Some(format!("cannot run {ORACLE}: {e}")),
    }
}

// ------------------------------------------------------------ the oracle

/// A temporary `<tmp>/work` (canonical, as node prints real paths).
pub struct HostRoot {
    _dir: tempfile::TempDir,
    root: PathBuf,
}

impl HostRoot {
    pub fn new() -> HostRoot {
        let dir = tempfile::tempdir().expect("creating a temporary directory");
        let root = dir.path().canonicalize().expect("canonical temp dir");
        HostRoot { _dir: dir, root }
    }

    pub fn work(&self) -> PathBuf {
        self.root.join("work")
    }

    /// `$HOME` of the oracle's runs, `<tmp>/home/agent`, so what npm writes
    /// there stays in the temporary directory and prints as `/home/agent`.
    fn home(&self) -> PathBuf {
        self.root.join(HOME.trim_start_matches('/'))
    }

    /// Runs `source` under bash in `work/` with [`script_env`] and `stdin`;
    /// the root is cut out of stdout.
    pub fn run(&self, source: &str, stdin: &[u8]) -> Outcome {
        let home = self.home();
        if let Err(e) = std::fs::create_dir_all(&home) {
            return Outcome {
                exit: -1,
                error: Some(format!("creating {}: {e}", home.display())),
                ..Outcome::default()
            };
        }
        let mut cmd = Command::new(BASH);
        cmd.arg("-c")
            .arg(source)
            .current_dir(self.work())
            .env_clear()
            .envs(script_env())
            .env("HOME", &home);
        let mut out = run_with_stdin(cmd, stdin, TIMEOUT);
        out.stdout = unroot(&out.stdout, &self.root.display().to_string());
        out
    }
}

/// `bytes` with every occurrence of `root` removed.
pub fn unroot(bytes: &[u8], root: &str) -> Vec<u8> {
    let pat = root.as_bytes();
    if pat.is_empty() {
        return bytes.to_vec();
    }
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i..].starts_with(pat) {
            i += pat.len();
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    out
}

// ------------------------------------------------------------ our side

/// The runtime with the built-in guests and commands, shared by the tests.
pub fn runtime() -> &'static Runtime {
    static RT: OnceLock<Runtime> = OnceLock::new();
    RT.get_or_init(|| {
        let rt = Runtime::with_builtin_guests(RuntimeConfig {
            cache_dir: Some(component_cache_dir()),
            ..Default::default()
        })
        .expect("creating the runtime");
        computer_builtins::register(&rt).expect("registering the built-in commands");
        rt
    })
}

/// Whether our shell runs `node`: Ok, or why not. Probed by running it, so
/// however the runtime provides the command, the test notices.
pub fn our_node(rt: &Runtime) -> Result<(), String> {
    if !rt.backends().iter().any(|b| b == SHELL) {
        return Err(format!(
            "no `shell` backend (backends: {:?})",
            rt.backends()
        ));
    }
    let ws = workspace_from(None)?;
    let got = run_ours(rt, &ws, "probe", r#"node -e "console.log(1)""#, b"");
    if got.exit == 0 && got.stdout == b"1\n" {
        Ok(())
    } else {
        Err(format!(
            "`node -e \"console.log(1)\"` in the shell backend: exit {}, stdout {:?}, stderr {:?}",
            got.exit,
            String::from_utf8_lossy(&got.stdout),
            clip(&String::from_utf8_lossy(&got.stderr), 200)
        ))
    }
}

/// A fresh in-memory workspace with `/home/agent`, and `/work` holding a
/// copy of `host` (empty without one).
pub fn workspace_from(host: Option<&Path>) -> Result<Arc<Workspace>, String> {
    let ws = Workspace::in_memory().map_err(|e| format!("workspace: {e}"))?;
    let opts = MkdirOptions {
        recursive: true,
        mode: None,
    };
    for dir in [WORK, HOME] {
        ws.mkdir(dir, &opts)
            .map_err(|e| format!("mkdir {dir}: {e}"))?;
    }
    if let Some(host) = host {
        let stats = ws
            .import(host, WORK, &mut |_| {})
            .map_err(|e| format!("importing {}: {e}", host.display()))?;
        if !stats.skipped.is_empty() {
            return Err(format!("the import skipped {:?}", stats.skipped));
        }
    }
    Ok(Arc::new(ws))
}

/// Runs `source` in the shell backend of `ws`, cwd `/work`.
pub fn run_ours(
    rt: &Runtime,
    ws: &Arc<Workspace>,
    name: &str,
    source: &str,
    stdin: &[u8],
) -> Outcome {
    let options = ExecOptions {
        backend: SHELL.into(),
        cwd: Some(WORK.into()),
        env: script_env(),
        program: Some(name.to_owned()),
        stdin: stdin.to_vec(),
        limits: Some(Limits {
            timeout: TIMEOUT,
            ..Limits::default()
        }),
        ..Default::default()
    };
    let result = match rt.exec(ws.clone(), source, options) {
        Ok(handle) => handle.wait(),
        Err(e) => {
            return Outcome {
                exit: -1,
                error: Some(format!("exec refused the run: {e}")),
                ..Outcome::default()
            };
        }
    };
    let mut error = result.error.clone();
    if result.status != RunStatus::Completed && result.status != RunStatus::Failed {
        error.get_or_insert_with(|| format!("run status {}", result.status.as_str()));
    }
    Outcome {
        stdout: result.stdout,
        stderr: result.stderr,
        exit: result.exit_code,
        error,
        ..Outcome::default()
    }
}

// ------------------------------------------------------------ comparison

/// How `got` differs from node's `want`: stdout (after `view`), the exit
/// code, and stderr being empty where node's is not. Empty when they agree.
pub fn differences(want: &Outcome, got: &Outcome, view: fn(&[u8]) -> Vec<u8>) -> Vec<String> {
    let mut d = Vec::new();
    let (w, g) = (view(&want.stdout), view(&got.stdout));
    if w != g {
        d.push(format!(
            "stdout differs:\n{}",
            line_diff(&String::from_utf8_lossy(&w), &String::from_utf8_lossy(&g))
        ));
    }
    if want.exit != got.exit {
        d.push(format!("exit: node {}, ours {}", want.exit, got.exit));
    }
    if !want.stderr.is_empty() && got.stderr.is_empty() {
        d.push("stderr: node wrote some, ours none".into());
    }
    if let Some(e) = &got.error {
        d.push(format!("host error: {e}"));
    }
    let stderr = String::from_utf8_lossy(&got.stderr);
    if !d.is_empty()
        && let Some(first) = stderr.lines().find(|l| !l.trim().is_empty())
    {
        d.push(format!("note: ours' stderr begins {}", clip(first, 200)));
    }
    d
}

/// The stdout as is.
pub fn verbatim(bytes: &[u8]) -> Vec<u8> {
    bytes.to_vec()
}

/// Lines at most this long in a diff, and at most this many lines.
const DIFF_WIDTH: usize = 160;
const DIFF_LINES: usize = 24;

/// A line diff of two texts (`-` node, `+` ours, two lines of context),
/// cut to [`DIFF_LINES`] lines.
pub fn line_diff(want: &str, got: &str) -> String {
    let a: Vec<&str> = want.lines().collect();
    let b: Vec<&str> = got.lines().collect();
    // Longest common subsequence; texts past a few hundred lines are
    // compared by their heads only, which is what a reader looks at anyway.
    let (a, b) = (&a[..a.len().min(400)], &b[..b.len().min(400)]);
    let mut lcs = vec![vec![0u16; b.len() + 1]; a.len() + 1];
    for i in (0..a.len()).rev() {
        for j in (0..b.len()).rev() {
            lcs[i][j] = if a[i] == b[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    let mut ops: Vec<(char, &str)> = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        if i < a.len() && j < b.len() && a[i] == b[j] {
            ops.push((' ', a[i]));
            i += 1;
            j += 1;
        } else if i < a.len() && (j == b.len() || lcs[i + 1][j] >= lcs[i][j + 1]) {
            ops.push(('-', a[i]));
            i += 1;
        } else {
            ops.push(('+', b[j]));
            j += 1;
        }
    }
    let near = |k: usize| {
        ops[k.saturating_sub(2)..(k + 3).min(ops.len())]
            .iter()
            .any(|(c, _)| *c != ' ')
    };
    let mut out = Vec::new();
    let mut last = None;
    for (k, (c, line)) in ops.iter().enumerate() {
        if near(k) {
            if last.is_some_and(|l| l + 1 != k) {
                out.push("    ...".to_owned());
            }
            out.push(format!("    {c} {}", clip_raw(line, DIFF_WIDTH)));
            last = Some(k);
        }
    }
    if out.is_empty() {
        // Same lines: the difference is in a trailing newline or a `\r`.
        out.push(format!(
            "    (same lines; node {} | ours {})",
            clip(want, 80),
            clip(got, 80)
        ));
    }
    if out.len() > DIFF_LINES {
        let more = out.len() - DIFF_LINES;
        out.truncate(DIFF_LINES);
        out.push(format!("    ... {more} more diff lines"));
    }
    out.join("\n")
}

fn clip_raw(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_owned();
    }
    let cut: String = s.chars().take(max).collect();
    format!("{cut}...")
}

pub fn clip(s: &str, max: usize) -> String {
    clip_raw(&format!("{s:?}"), max)
}

/// A failure table (name, what differs in one line), then each diff.
/// The names that matched, and the failure table with a `label: N/TOTAL` line.
pub fn summarize(
    results: Vec<(String, Vec<String>)>,
    label: &str,
    total: usize,
) -> (BTreeSet<String>, String) {
    let passing: BTreeSet<String> = results
        .iter()
        .filter(|(_, d)| d.is_empty())
        .map(|(n, _)| n.clone())
        .collect();
    let failures: Vec<(String, Vec<String>)> =
        results.into_iter().filter(|(_, d)| !d.is_empty()).collect();
    let mut report = failure_table(&failures);
    report.push_str(&format!(
        "\n{label}: {}/{total} identical to real node\n",
        passing.len()
    ));
    (passing, report)
}

pub fn failure_table(failures: &[(String, Vec<String>)]) -> String {
    if failures.is_empty() {
        return String::new();
    }
    let width = failures.iter().map(|(n, _)| n.len()).max().unwrap_or(0);
    let mut s = format!("{:width$} | differs in\n", "script");
    s.push_str(&format!("{}-+-{}\n", "-".repeat(width), "-".repeat(30)));
    for (name, diffs) in failures {
        let kinds: Vec<&str> = diffs
            .iter()
            .map(|d| d.split([':', ' ']).next().unwrap_or(""))
            .filter(|k| *k != "note")
            .collect();
        s.push_str(&format!("{name:width$} | {}\n", kinds.join(", ")));
    }
    for (name, diffs) in failures {
        s.push_str(&format!("\nFAIL {name}\n"));
        for d in diffs {
            s.push_str(&format!("  {d}\n"));
        }
    }
    s
}

// ------------------------------------------------------------ baseline

/// A baseline file: `pass NAME` lines (`#` comments), the names that
/// matched node when it was recorded.
pub fn parse_baseline(text: &str) -> Result<BTreeSet<String>, String> {
    let mut passing = BTreeSet::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        match line.split_once(char::is_whitespace) {
            Some(("pass", name)) if !name.trim().is_empty() => {
                passing.insert(name.trim().to_owned());
            }
            _ => return Err(format!("baseline line {}: {line:?}", i + 1)),
        }
    }
    Ok(passing)
}

pub fn render_baseline(header: &str, passing: &BTreeSet<String>, total: usize) -> String {
    let mut s = String::new();
    for line in header.lines() {
        s.push_str(&format!("# {line}\n"));
    }
    s.push_str(&format!("# {} of {total} pass\n", passing.len()));
    for name in passing {
        s.push_str(&format!("pass {name}\n"));
    }
    s
}

/// Checks `passing` against the baseline at `path` (or rewrites it under
/// `UPDATE_NODE_BASELINE=1`): a listed name that no longer passes fails
/// the test. `report` is printed either way.
pub fn check_baseline(
    path: &Path,
    header: &str,
    passing: &BTreeSet<String>,
    selected: &BTreeSet<String>,
    filtered: bool,
    mut report: String,
) {
    if env_flag("UPDATE_NODE_BASELINE") {
        assert!(
            !filtered,
            "UPDATE_NODE_BASELINE=1 needs the whole set: unset the filter"
        );
        std::fs::write(path, render_baseline(header, passing, selected.len()))
            .unwrap_or_else(|e| panic!("writing {}: {e}", path.display()));
        println!(
            "{report}baseline {} rewritten: {} pass",
            path.display(),
            passing.len()
        );
        return;
    }
    let text =
        std::fs::read_to_string(path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
    let baseline = parse_baseline(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let regressed: Vec<&str> = baseline
        .iter()
        .filter(|n| selected.contains(*n) && !passing.contains(*n))
        .map(String::as_str)
        .collect();
    let fixed: Vec<&str> = passing
        .iter()
        .filter(|n| !baseline.contains(*n))
        .map(String::as_str)
        .collect();
    if !fixed.is_empty() {
        report.push_str(&format!(
            "NOTE: {} pass but are not in {} (add them with UPDATE_NODE_BASELINE=1)\n",
            fixed.len(),
            path.display()
        ));
    }
    println!("{report}");
    assert!(
        regressed.is_empty(),
        "regressed: {} listed in {} no longer match node: {}",
        regressed.len(),
        path.display(),
        regressed.join(", ")
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_diff_shows_the_changed_lines() {
        let d = line_diff("a\nb\nc\n", "a\nB\nc\nd\n");
        assert!(
            d.contains("- b") && d.contains("+ B") && d.contains("+ d"),
            "{d}"
        );
        assert!(line_diff("x\n", "x").contains("same lines"));
    }

    #[test]
    fn differences_catch_each_kind() {
        let want = Outcome {
            stdout: b"1\n".to_vec(),
            stderr: b"boom\n".to_vec(),
            exit: 1,
            ..Outcome::default()
        };
        assert!(differences(&want, &want.clone(), verbatim).is_empty());
        let mut got = Outcome {
            stdout: b"2\n".to_vec(),
            exit: 0,
            ..Outcome::default()
        };
        assert_eq!(differences(&want, &got, verbatim).len(), 3);
        got.stderr = b"\nTypeError: x\n".to_vec();
        let d = differences(&want, &got, verbatim);
        assert_eq!(d.len(), 3, "{d:?}");
        assert!(d[2].starts_with("note: ours' stderr begins") && d[2].contains("TypeError"));
        let table = failure_table(&[("001-a.js".into(), d)]);
        assert!(table.contains("001-a.js | stdout, exit\n"), "{table}");
        assert_eq!(unroot(b"/tmp/r/work/x /tmp/r", "/tmp/r"), b"/work/x ");
    }

    #[test]
    fn baseline_round_trip() {
        let names: BTreeSet<String> = ["001-a.js".to_owned()].into_iter().collect();
        let text = render_baseline("header\nline two", &names, 3);
        assert_eq!(parse_baseline(&text).unwrap(), names);
        assert!(parse_baseline("bogus x\n").is_err());
        assert!(parse_baseline("# only comments\n").unwrap().is_empty());
    }
}
