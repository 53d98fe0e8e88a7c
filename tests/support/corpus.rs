//! The shell compatibility corpus (`tests/shell-corpus/`): loading the
//! scripts, running them under real bash (the oracle), snapshotting a file
//! tree, comparing two outcomes and reading/writing the baseline.
//!
//! Like the rest of this crate it does not link against the host crates:
//! the side that runs a script in the `shell` backend lives in
//! `tests/it/shell_corpus.rs` and turns its result into an [`Outcome`].

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use crate::workspace_root;

/// The bash every script is compared against.
pub const BASH: &str = "/bin/bash";

/// Fewer scripts than this means the corpus was not found or got truncated.
pub const MIN_SCRIPTS: usize = 300;

/// The name of the tree root in both environments (`/work` in the
/// workspace, `<tmp>/work` on the host), so `basename "$PWD"` agrees.
pub const ROOT_NAME: &str = "work";

/// `tests/shell-corpus`.
pub fn corpus_dir() -> PathBuf {
    workspace_root().join("tests/shell-corpus")
}

/// The tree every script starts from.
pub fn fixture_dir() -> PathBuf {
    corpus_dir().join("fixture")
}

pub fn baseline_path() -> PathBuf {
    corpus_dir().join("baseline.txt")
}

/// The whole environment of a run, in both backends: nothing of the host's
/// leaks in.
pub fn script_env() -> BTreeMap<String, String> {
    [
        ("PATH", "/usr/bin:/bin"),
        ("HOME", "/home/agent"),
        ("LC_ALL", "C"),
        ("TZ", "UTC"),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_owned(), v.to_owned()))
    .collect()
}

/// One corpus script.
#[derive(Debug, Clone)]
pub struct Script {
    /// The file name, `NNN-topic-name.sh`.
    pub name: String,
    pub path: PathBuf,
    pub source: String,
}

/// Reads every `scripts/*.sh`, sorted by name. Names must be
/// `NNN-lowercase-words.sh` with unique numbers; anything else in the
/// directory is an error (a typo must not silently drop a script).
pub fn load_scripts() -> Result<Vec<Script>, String> {
    let dir = corpus_dir().join("scripts");
    let entries = std::fs::read_dir(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut scripts = Vec::new();
    let mut problems = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|e| format!("{}: {e}", dir.display()))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if !valid_script_name(&name) {
            problems.push(format!("not NNN-topic-name.sh: {name:?}"));
            continue;
        }
        let path = entry.path();
        match std::fs::read_to_string(&path) {
            Ok(source) => scripts.push(Script { name, path, source }),
            Err(e) => problems.push(format!("{name}: {e}")),
        }
    }
    scripts.sort_by(|a, b| a.name.cmp(&b.name));
    for pair in scripts.windows(2) {
        if pair[0].name[..3] == pair[1].name[..3] {
            problems.push(format!(
                "two scripts numbered {}: {} and {}",
                &pair[0].name[..3],
                pair[0].name,
                pair[1].name
            ));
        }
    }
    if problems.is_empty() {
        Ok(scripts)
    } else {
        Err(problems.join("\n"))
    }
}

fn valid_script_name(name: &str) -> bool {
    let Some(stem) = name.strip_suffix(".sh") else {
        return false;
    };
    let b = stem.as_bytes();
    b.len() > 4
        && b[..3].iter().all(u8::is_ascii_digit)
        && b[3] == b'-'
        && stem[4..].split('-').all(|w| {
            !w.is_empty()
                && w.bytes()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        })
}

// ------------------------------------------------------------ trees

/// One entry of a file tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Node {
    Dir,
    File(Vec<u8>),
    Symlink(String),
}

/// A file tree: path relative to its root (`a/b.txt`) → entry. The root
/// itself is not in it.
pub type Tree = BTreeMap<String, Node>;

/// Copies `src` into `dst` (created), symlinks as symlinks.
pub fn copy_tree(src: &Path, dst: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dst)?;
    let mut entries: Vec<_> = std::fs::read_dir(src)?.collect::<Result<_, _>>()?;
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let from = entry.path();
        let to = dst.join(entry.file_name());
        let ft = entry.file_type()?;
        if ft.is_symlink() {
            std::os::unix::fs::symlink(std::fs::read_link(&from)?, &to)?;
        } else if ft.is_dir() {
            copy_tree(&from, &to)?;
        } else {
            std::fs::copy(&from, &to)?;
        }
    }
    Ok(())
}

/// Snapshots the host directory `root`.
pub fn host_tree(root: &Path) -> std::io::Result<Tree> {
    let mut tree = Tree::new();
    walk_host(root, "", &mut tree)?;
    Ok(tree)
}

fn walk_host(dir: &Path, prefix: &str, tree: &mut Tree) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let rel = format!("{prefix}{name}");
        let path = entry.path();
        let ft = entry.file_type()?;
        if ft.is_symlink() {
            let target = std::fs::read_link(&path)?;
            tree.insert(rel, Node::Symlink(target.to_string_lossy().into_owned()));
        } else if ft.is_dir() {
            tree.insert(rel.clone(), Node::Dir);
            walk_host(&path, &format!("{rel}/"), tree)?;
        } else {
            tree.insert(rel, Node::File(std::fs::read(&path)?));
        }
    }
    Ok(())
}

// ------------------------------------------------------------ outcomes

/// What one run of a script produced.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Outcome {
    pub stdout: Vec<u8>,
    pub exit: i32,
    pub tree: Tree,
    /// Not compared; shown in failure reports.
    pub stderr: Vec<u8>,
    /// Why the run did not complete normally (timeout, host error), if so.
    pub error: Option<String>,
}

/// Runs `script` under [`BASH`] in a fresh copy of the fixture, with
/// [`script_env`] and an empty stdin, and snapshots the tree afterwards.
pub fn run_oracle(script: &Script, timeout: Duration) -> Outcome {
    let tmp = tempfile::tempdir().expect("creating a temporary directory");
    let root = tmp.path().join(ROOT_NAME);
    copy_tree(&fixture_dir(), &root).expect("copying the fixture");
    let mut outcome = run_bash_in(&root, &script.path, timeout);
    outcome.tree = host_tree(&root).unwrap_or_else(|e| {
        outcome
            .error
            .get_or_insert(format!("snapshotting the tree: {e}"));
        Tree::new()
    });
    // bash may have left files unreadable or directories unwritable; make
    // sure the temporary directory can still be removed.
    let _ = Command::new("/bin/chmod")
        .args(["-R", "u+rwX"])
        .arg(tmp.path())
        .status();
    outcome
}

fn run_bash_in(root: &Path, script: &Path, timeout: Duration) -> Outcome {
    let mut cmd = Command::new(BASH);
    cmd.arg(script)
        .current_dir(root)
        .env_clear()
        .envs(script_env());
    run_with_timeout(cmd, timeout)
}

/// Runs `cmd` (its program, arguments, directory and environment as the
/// caller set them) with an empty stdin, in a process group of its own that
/// is killed whole after `timeout`; its stdout, stderr and exit code (128 +
/// the signal for a signalled process). The tree is left empty.
pub fn run_with_timeout(cmd: Command, timeout: Duration) -> Outcome {
    run_with_stdin(cmd, &[], timeout)
}

/// [`run_with_timeout`], with `stdin` fed to the program (none: an empty stdin).
pub fn run_with_stdin(mut cmd: Command, stdin: &[u8], timeout: Duration) -> Outcome {
    let program = cmd.get_program().to_string_lossy().into_owned();
    cmd.stdin(if stdin.is_empty() {
        Stdio::null()
    } else {
        Stdio::piped()
    })
    .stdout(Stdio::piped())
    .stderr(Stdio::piped());
    std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
    let mut child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) => {
            return Outcome {
                exit: -1,
                error: Some(format!("cannot start {program}: {e}")),
                ..Outcome::default()
            };
        }
    };
    let pgid = child.id();
    let writer = child.stdin.take().map(|mut input| {
        let data = stdin.to_vec();
        // A program that never reads its stdin closes the pipe: the error is moot.
        std::thread::spawn(move || {
            let _ = std::io::Write::write_all(&mut input, &data);
        })
    });
    let mut out = child.stdout.take().expect("stdout is piped");
    let mut err = child.stderr.take().expect("stderr is piped");
    let out_reader = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = out.read_to_end(&mut v);
        v
    });
    let err_reader = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = err.read_to_end(&mut v);
        v
    });
    let deadline = Instant::now() + timeout;
    let mut error = None;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if Instant::now() >= deadline => {
                error = Some(format!("{program} timed out after {timeout:?}"));
                // The whole process group, so no grandchild keeps a pipe open.
                let _ = Command::new("/bin/kill")
                    .args(["-KILL", "--", &format!("-{pgid}")])
                    .status();
                break child.wait().ok();
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(2)),
            Err(e) => {
                error = Some(format!("waiting for {program}: {e}"));
                break None;
            }
        }
    };
    if let Some(writer) = writer {
        let _ = writer.join();
    }
    let exit = status.map_or(-1, |s| {
        use std::os::unix::process::ExitStatusExt;
        s.code().unwrap_or_else(|| 128 + s.signal().unwrap_or(0))
    });
    Outcome {
        stdout: out_reader.join().unwrap_or_default(),
        stderr: err_reader.join().unwrap_or_default(),
        exit,
        tree: Tree::new(),
        error,
    }
}

// ------------------------------------------------------------ comparison

/// At most this many lines per difference kind in a report.
const MAX_TREE_LINES: usize = 4;

/// What differs between `expected` (bash) and `actual`, one short line
/// each; empty when they agree on stdout, the exit code and the tree.
pub fn compare(expected: &Outcome, actual: &Outcome) -> Vec<String> {
    let mut diffs = Vec::new();
    if expected.stdout != actual.stdout {
        diffs.push(format!(
            "stdout: {}",
            first_difference(&expected.stdout, &actual.stdout)
        ));
    }
    if expected.exit != actual.exit {
        diffs.push(format!("exit: bash {}, got {}", expected.exit, actual.exit));
    }
    if expected.tree != actual.tree {
        diffs.extend(tree_differences(&expected.tree, &actual.tree));
    }
    diffs
}

/// The first line where two outputs differ, quoted.
pub fn first_difference(expected: &[u8], actual: &[u8]) -> String {
    let e: Vec<&[u8]> = expected.split_inclusive(|&b| b == b'\n').collect();
    let a: Vec<&[u8]> = actual.split_inclusive(|&b| b == b'\n').collect();
    let i = e.iter().zip(&a).take_while(|(x, y)| x == y).count();
    let line = |v: &[&[u8]]| match v.get(i) {
        Some(l) => clip(&String::from_utf8_lossy(l), 100),
        None => "<end>".to_owned(),
    };
    format!(
        "line {} ({} vs {} lines): bash {} | got {}",
        i + 1,
        e.len(),
        a.len(),
        line(&e),
        line(&a)
    )
}

fn clip(s: &str, max: usize) -> String {
    let quoted = format!("{s:?}");
    if quoted.chars().count() <= max {
        return quoted;
    }
    let cut: String = quoted.chars().take(max).collect();
    format!("{cut}...")
}

fn describe_node(n: &Node) -> String {
    match n {
        Node::Dir => "dir".into(),
        Node::File(b) => format!("file of {} bytes", b.len()),
        Node::Symlink(t) => format!("symlink to {t:?}"),
    }
}

fn tree_differences(expected: &Tree, actual: &Tree) -> Vec<String> {
    let mut missing = Vec::new();
    let mut extra = Vec::new();
    let mut changed = Vec::new();
    for (path, node) in expected {
        match actual.get(path) {
            None => missing.push(path.as_str()),
            Some(n) if n != node => changed.push(match (node, n) {
                (Node::File(e), Node::File(a)) => {
                    format!("{path}: {}", first_difference(e, a))
                }
                _ => format!(
                    "{path}: bash {}, got {}",
                    describe_node(node),
                    describe_node(n)
                ),
            }),
            Some(_) => {}
        }
    }
    for path in actual.keys() {
        if !expected.contains_key(path) {
            extra.push(path.as_str());
        }
    }
    let mut out = Vec::new();
    let list = |v: &[&str]| {
        let mut s = v
            .iter()
            .take(MAX_TREE_LINES)
            .copied()
            .collect::<Vec<_>>()
            .join(", ");
        if v.len() > MAX_TREE_LINES {
            s.push_str(&format!(", ... ({} in all)", v.len()));
        }
        s
    };
    if !missing.is_empty() {
        out.push(format!("tree: missing (bash has them): {}", list(&missing)));
    }
    if !extra.is_empty() {
        out.push(format!("tree: extra (bash has none): {}", list(&extra)));
    }
    for c in changed.iter().take(MAX_TREE_LINES) {
        out.push(format!("tree: {c}"));
    }
    if changed.len() > MAX_TREE_LINES {
        out.push(format!(
            "tree: ... {} changed entries in all",
            changed.len()
        ));
    }
    out
}

/// A few lines of a failure report for `name`: the differences, then the
/// first line of the subject's stderr and its host error, if any.
pub fn failure_report(name: &str, diffs: &[String], actual: &Outcome) -> String {
    let mut s = format!("FAIL {name}");
    for d in diffs {
        s.push_str("\n    ");
        s.push_str(d);
    }
    let stderr = String::from_utf8_lossy(&actual.stderr);
    if let Some(first) = stderr.lines().find(|l| !l.trim().is_empty()) {
        s.push_str(&format!("\n    stderr: {}", clip(first, 120)));
    }
    if let Some(e) = &actual.error {
        s.push_str(&format!("\n    error: {}", clip(e, 120)));
    }
    s
}

// ------------------------------------------------------------ baseline

/// `baseline.txt`: the minimum number of scripts that must pass, and the
/// scripts known to fail when it was recorded.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Baseline {
    pub passing: usize,
    pub total: usize,
    pub known_failures: Vec<String>,
}

impl Baseline {
    pub fn parse(text: &str) -> Result<Baseline, String> {
        let mut b = Baseline::default();
        let mut seen_passing = false;
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let (key, value) = line
                .split_once(char::is_whitespace)
                .map(|(k, v)| (k, v.trim()))
                .ok_or_else(|| format!("baseline.txt line {}: {line:?}", i + 1))?;
            let number = || {
                value
                    .parse::<usize>()
                    .map_err(|e| format!("baseline.txt line {}: {value:?}: {e}", i + 1))
            };
            match key {
                "passing" => {
                    b.passing = number()?;
                    seen_passing = true;
                }
                "total" => b.total = number()?,
                "fail" => b.known_failures.push(value.to_owned()),
                _ => return Err(format!("baseline.txt line {}: unknown key {key:?}", i + 1)),
            }
        }
        if !seen_passing {
            return Err("baseline.txt has no `passing N` line".into());
        }
        Ok(b)
    }

    pub fn render(&self) -> String {
        let mut s = String::from(
            "# Shell corpus baseline: the shell backend must keep at least `passing`\n\
             # scripts identical to bash (stdout, exit code and resulting tree).\n\
             # `fail` lines list the scripts that differed when this was recorded.\n\
             # Rewrite it with:\n\
             #   UPDATE_SHELL_BASELINE=1 cargo test -p computer-tests --test it -- shell_corpus:: --nocapture\n",
        );
        s.push_str(&format!("passing {}\ntotal {}\n", self.passing, self.total));
        for f in &self.known_failures {
            s.push_str(&format!("fail {f}\n"));
        }
        s
    }
}

// ------------------------------------------------------------ helpers

/// Runs `f` over `items` on a few threads; results keep the input order.
pub fn parallel_map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let threads = std::thread::available_parallelism()
        .map_or(2, |n| n.get())
        .clamp(2, 8)
        .min(items.len().max(1));
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<R>>> = Mutex::new((0..items.len()).map(|_| None).collect());
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    let Some(item) = items.get(i) else { break };
                    let r = f(item);
                    results.lock().unwrap_or_else(|p| p.into_inner())[i] = Some(r);
                }
            });
        }
    });
    results
        .into_inner()
        .unwrap_or_else(|p| p.into_inner())
        .into_iter()
        .map(|r| r.expect("every item was processed"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn script_names() {
        assert!(valid_script_name("001-quote-basic.sh"));
        assert!(valid_script_name("120-awk-nr-2.sh"));
        assert!(!valid_script_name("01-x.sh"));
        assert!(!valid_script_name("001-Quote.sh"));
        assert!(!valid_script_name("001-.sh"));
        assert!(!valid_script_name("001-a--b.sh"));
        assert!(!valid_script_name("001-a.bash"));
    }

    #[test]
    fn baseline_round_trip() {
        let b = Baseline {
            passing: 7,
            total: 9,
            known_failures: vec!["001-a.sh".into(), "002-b.sh".into()],
        };
        assert_eq!(Baseline::parse(&b.render()).unwrap(), b);
        assert!(Baseline::parse("total 3\n").is_err());
        assert!(Baseline::parse("passing x\n").is_err());
        assert!(Baseline::parse("passing 1\nbogus 2\n").is_err());
    }
}
