//! The git oracle corpus (`tests/git-corpus/`, see its README): every
//! script runs once with real git (`/usr/bin/git`, git 2.39) under
//! `/bin/bash` in a temporary directory, and once in the `shell` backend on a
//! fresh workspace where `git` is our command component. Stdout, the exit
//! code, the worktree files (not `.git` internals) and, for `err-*` scripts,
//! stderr must match; every repository ours leaves behind is exported and
//! must pass real `git fsck --strict`.
//!
//! Until the runtime has a `git` command the corpus runs against real git
//! alone (oracle-only mode, announced on stderr), and still checks itself:
//! each script twice with identical results, no `command not found`, no
//! temporary path in the output, and `git fsck --strict` clean on every
//! repository real git made.
//!
//! Environment:
//! - `GIT_CORPUS_ORACLE_ONLY=1` forces oracle-only mode;
//! - `GIT_CORPUS_FILTER=SUBSTRING` runs only the matching scripts;
//! - `UPDATE_GIT_BASELINE=1` rewrites `baseline.txt` with the scripts that
//!   pass (unfiltered full runs only);
//! - `GIT_CORPUS_COMMAND=PATH.wasm` registers that component as `git` when
//!   the runtime has none.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use computer_runtime::{
    Bytes, CommandSpec, ExecOptions, Limits, RunStatus, Runtime, RuntimeConfig,
};
use computer_store::{MkdirOptions, NodeKind, Page, Workspace};
use computer_tests::corpus::{
    Node, Outcome, Tree, copy_tree, host_tree, parallel_map, run_with_timeout,
};
use computer_tests::{component_cache_dir, workspace_root};

/// The oracle: Debian 12's git, not whatever is first on `PATH`.
const ORACLE_GIT: &str = "/usr/bin/git";
const ORACLE_VERSION: &str = "git version 2.39.";
const BASH: &str = "/bin/bash";
const SHELL: &str = "shell";
const GIT: &str = "git";

/// Fewer scripts than this means the corpus was not found or got truncated.
const MIN_SCRIPTS: usize = 70;

/// Per script and side; generous, so a hang shows up as a failure.
const TIMEOUT: Duration = Duration::from_secs(30);

/// Where a script runs (its cwd) and the home it gets, in the workspace;
/// on the host both sit under a temporary root that is cut out of the
/// oracle's output, so `/work/.git` reads the same on both sides.
const WORK: &str = "/work";
const HOME: &str = "/home/agent";

/// The identities and the date every commit gets unless a script sets its
/// own, so commit ids are fixed.
const PINNED: &[(&str, &str)] = &[
    ("GIT_AUTHOR_NAME", "A U Thor"),
    ("GIT_AUTHOR_EMAIL", "author@example.com"),
    ("GIT_AUTHOR_DATE", "2024-01-01T00:00:00+00:00"),
    ("GIT_COMMITTER_NAME", "C O Mitter"),
    ("GIT_COMMITTER_EMAIL", "committer@example.com"),
    ("GIT_COMMITTER_DATE", "2024-01-01T00:00:00+00:00"),
    ("GIT_CONFIG_NOSYSTEM", "1"),
    ("GIT_PAGER", "cat"),
    ("PAGER", "cat"),
    ("TERM", "dumb"),
    ("LANG", "C"),
    ("LC_ALL", "C"),
    ("TZ", "UTC"),
];

fn env_flag(name: &str) -> bool {
    std::env::var(name).is_ok_and(|v| !v.is_empty() && v != "0")
}

fn corpus_dir() -> PathBuf {
    workspace_root().join("tests/git-corpus")
}

fn baseline_path() -> PathBuf {
    corpus_dir().join("baseline.txt")
}

/// The whole environment of a script in the workspace; the oracle gets the
/// same with its host paths (see [`OracleRoot::env`]).
fn script_env() -> BTreeMap<String, String> {
    let mut env: BTreeMap<String, String> = PINNED
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect();
    env.insert("HOME".into(), HOME.into());
    env.insert("PATH".into(), "/usr/bin:/bin".into());
    env
}

// ------------------------------------------------------------ scripts

#[derive(Debug, Clone)]
struct Script {
    name: String,
    path: PathBuf,
    source: String,
}

impl Script {
    /// Error cases: their stderr is compared too.
    fn compares_stderr(&self) -> bool {
        self.name.starts_with("err-")
    }
}

/// `area-words.sh`: lowercase words and digits joined by single dashes.
fn valid_script_name(name: &str) -> bool {
    name.strip_suffix(".sh").is_some_and(|stem| {
        !stem.is_empty()
            && stem.split('-').all(|w| {
                !w.is_empty()
                    && w.bytes()
                        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
            })
    })
}

/// Every `scripts/*.sh`, sorted; anything else in the directory is an error.
fn load_scripts() -> Result<Vec<Script>, String> {
    let dir = corpus_dir().join("scripts");
    let entries = std::fs::read_dir(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut scripts = Vec::new();
    let mut problems = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|e| format!("{}: {e}", dir.display()))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if !valid_script_name(&name) {
            problems.push(format!("not area-words.sh: {name:?}"));
            continue;
        }
        match std::fs::read_to_string(entry.path()) {
            Ok(source) => scripts.push(Script {
                name,
                path: entry.path(),
                source,
            }),
            Err(e) => problems.push(format!("{name}: {e}")),
        }
    }
    scripts.sort_by(|a, b| a.name.cmp(&b.name));
    if problems.is_empty() {
        Ok(scripts)
    } else {
        Err(problems.join("\n"))
    }
}

/// The scripts to run, and whether a filter chose them.
fn selected_scripts() -> (Vec<Script>, bool) {
    let scripts = load_scripts().unwrap_or_else(|e| panic!("bad git corpus:\n{e}"));
    assert!(
        scripts.len() >= MIN_SCRIPTS,
        "only {} scripts in {}",
        scripts.len(),
        corpus_dir().display()
    );
    match std::env::var("GIT_CORPUS_FILTER") {
        Ok(f) if !f.is_empty() => {
            let chosen: Vec<Script> = scripts
                .into_iter()
                .filter(|s| s.name.contains(&f))
                .collect();
            assert!(
                !chosen.is_empty(),
                "GIT_CORPUS_FILTER={f} matches no script"
            );
            (chosen, true)
        }
        _ => (scripts, false),
    }
}

// ------------------------------------------------------------ baseline

/// `baseline.txt`: the scripts that passed with our git when it was
/// recorded; each must keep passing.
fn parse_baseline(text: &str) -> Result<BTreeSet<String>, String> {
    let mut passing = BTreeSet::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        match line.split_once(char::is_whitespace) {
            Some(("pass", name)) if valid_script_name(name.trim()) => {
                passing.insert(name.trim().to_owned());
            }
            _ => return Err(format!("baseline.txt line {}: {line:?}", i + 1)),
        }
    }
    Ok(passing)
}

fn render_baseline(passing: &BTreeSet<String>, total: usize) -> String {
    let mut s = String::from(
        "# Git corpus baseline: the scripts that were identical to real git 2.39\n\
         # (stdout, exit code, worktree files, stderr for err-*, fsck clean) when\n\
         # this was recorded. Each must keep passing. Rewrite it with:\n\
         #   UPDATE_GIT_BASELINE=1 cargo test --workspace --test it -- git_corpus\n",
    );
    s.push_str(&format!("# {} of {total} scripts\n", passing.len()));
    for name in passing {
        s.push_str(&format!("pass {name}\n"));
    }
    s
}

fn read_baseline() -> BTreeSet<String> {
    let path = baseline_path();
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
    parse_baseline(&text).unwrap_or_else(|e| panic!("{e}"))
}

// ------------------------------------------------------------ the oracle

/// Panics unless `/usr/bin/git` is git 2.39.
fn check_oracle_git() {
    static CHECKED: OnceLock<Result<(), String>> = OnceLock::new();
    let checked = CHECKED.get_or_init(|| {
        let out = Command::new(ORACLE_GIT)
            .arg("--version")
            .env_clear()
            .output()
            .map_err(|e| {
                format!("cannot run {ORACLE_GIT} ({e}); install it with `apt-get install -y git`")
            })?;
        let version = String::from_utf8_lossy(&out.stdout);
        if version.starts_with(ORACLE_VERSION) {
            Ok(())
        } else {
            Err(format!(
                "{ORACLE_GIT} is {version:?}; the oracle must be {ORACLE_VERSION}x"
            ))
        }
    });
    if let Err(e) = checked {
        panic!("{e}");
    }
}

/// A temporary root for one oracle run: `work/` (the cwd), `home/agent/`
/// (`$HOME`) and `bin/git`, a symlink to [`ORACLE_GIT`] first on `PATH`.
struct OracleRoot {
    _dir: tempfile::TempDir,
    root: PathBuf,
}

impl OracleRoot {
    fn new() -> OracleRoot {
        let dir = tempfile::tempdir().expect("creating a temporary directory");
        // Canonical, because git prints real paths and they are cut out.
        let root = dir.path().canonicalize().expect("canonical temp dir");
        for sub in ["work", "home/agent", "bin"] {
            std::fs::create_dir_all(root.join(sub)).expect("creating the oracle root");
        }
        std::os::unix::fs::symlink(ORACLE_GIT, root.join("bin/git")).expect("linking git");
        OracleRoot { _dir: dir, root }
    }

    fn work(&self) -> PathBuf {
        self.root.join("work")
    }

    fn home(&self) -> PathBuf {
        self.root.join("home/agent")
    }

    fn shown(&self) -> String {
        self.root.display().to_string()
    }

    /// [`script_env`] with host paths, and a ceiling at the root so git
    /// never finds a repository above it (the workspace has nothing above
    /// `/work` either).
    fn env(&self) -> BTreeMap<String, String> {
        let mut env = script_env();
        env.insert("HOME".into(), self.home().display().to_string());
        env.insert(
            "PATH".into(),
            format!("{}:/usr/bin:/bin", self.root.join("bin").display()),
        );
        env.insert("GIT_CEILING_DIRECTORIES".into(), self.shown());
        env
    }

    /// Runs `script` with bash in `work/`; stdout and stderr have the root
    /// cut out.
    fn run(&self, script: &Path) -> Outcome {
        let mut out = run_bash(script, &self.work(), &self.env());
        out.stdout = unroot(&out.stdout, &self.shown());
        out.stderr = unroot(&out.stderr, &self.shown());
        out
    }

    /// `work/` and `home/agent/`, without `.git` internals.
    fn tree(&self) -> Result<Tree, String> {
        let mut tree = Tree::new();
        for (prefix, dir) in [("work", self.work()), ("home/agent", self.home())] {
            let sub = host_tree(&dir).map_err(|e| format!("snapshotting {prefix}: {e}"))?;
            tree.extend(sub.into_iter().map(|(k, v)| (format!("{prefix}/{k}"), v)));
        }
        Ok(worktree_only(tree))
    }
}

impl Drop for OracleRoot {
    fn drop(&mut self) {
        // A script may leave unreadable files or unwritable directories.
        let _ = Command::new("/bin/chmod")
            .args(["-R", "u+rwX"])
            .arg(&self.root)
            .status();
    }
}

/// `bytes` with every occurrence of `root` removed.
fn unroot(bytes: &[u8], root: &str) -> Vec<u8> {
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

/// Runs `/bin/bash script` in `cwd` with exactly `env`, an empty stdin and
/// [`TIMEOUT`].
fn run_bash(script: &Path, cwd: &Path, env: &BTreeMap<String, String>) -> Outcome {
    let mut cmd = Command::new(BASH);
    cmd.arg(script).current_dir(cwd).env_clear().envs(env);
    run_with_timeout(cmd, TIMEOUT)
}

/// Real git run in `dir` with a neutral environment: (exit code, stdout,
/// stderr).
fn real_git(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(ORACLE_GIT)
        .args(args)
        .current_dir(dir)
        .env_clear()
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("HOME", dir.join(".no-home"))
        .env("LANG", "C")
        .env("LC_ALL", "C")
        .env("TZ", "UTC")
        .env("GIT_CEILING_DIRECTORIES", dir.parent().unwrap_or(dir))
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("running {ORACLE_GIT}: {e}"));
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Every repository (a directory holding `.git`) under `dir`, relative to
/// it (`.` for `dir` itself), sorted.
fn repositories(dir: &Path) -> Vec<String> {
    fn walk(dir: &Path, rel: &str, found: &mut Vec<String>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        let mut names: Vec<String> = entries
            .flatten()
            .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        if names.iter().any(|n| n == ".git") {
            found.push(if rel.is_empty() {
                ".".into()
            } else {
                rel.into()
            });
        }
        for name in names.iter().filter(|n| *n != ".git") {
            let sub = if rel.is_empty() {
                name.clone()
            } else {
                format!("{rel}/{name}")
            };
            walk(&dir.join(name), &sub, found);
        }
    }
    let mut found = Vec::new();
    walk(dir, "", &mut found);
    found
}

/// Real `git fsck --strict` on every repository under `dir`: one line per
/// problem (a failing exit, an error or warning line).
fn fsck_all(dir: &Path, side: &str) -> Vec<String> {
    let mut problems = Vec::new();
    for repo in repositories(dir) {
        let (code, _, stderr) = real_git(&dir.join(&repo), &["fsck", "--strict", "--no-progress"]);
        let bad: Vec<&str> = stderr
            .lines()
            .filter(|l| {
                l.starts_with("error") || l.starts_with("warning") || l.starts_with("fatal")
            })
            .collect();
        if code != 0 || !bad.is_empty() {
            let first = bad
                .first()
                .copied()
                .or_else(|| stderr.lines().next())
                .unwrap_or("");
            problems.push(format!(
                "fsck --strict of {side}'s repository {repo}: exit {code}: {}",
                clip(first, 160)
            ));
        }
    }
    problems
}

/// One oracle run: the outcome (tree included) and what fsck said.
struct OracleRun {
    outcome: Outcome,
    fsck: Vec<String>,
}

fn run_oracle(script: &Script) -> OracleRun {
    let root = OracleRoot::new();
    let mut outcome = root.run(&script.path);
    match root.tree() {
        Ok(t) => outcome.tree = t,
        Err(e) => {
            outcome.error.get_or_insert(e);
        }
    }
    let fsck = fsck_all(&root.work(), "real git");
    OracleRun { outcome, fsck }
}

// ------------------------------------------------------------ trees

/// `tree` without what is inside `.git` directories (the `.git` entry
/// itself stays, so a missing or extra repository shows).
fn worktree_only(tree: Tree) -> Tree {
    tree.into_iter()
        .filter(|(path, _)| !path.split('/').rev().skip(1).any(|c| c == ".git"))
        .collect()
}

fn ws_tree(ws: &Workspace, root: &str) -> Result<Tree, String> {
    let mut tree = Tree::new();
    walk_ws(ws, root, "", &mut tree)?;
    Ok(tree)
}

fn walk_ws(ws: &Workspace, dir: &str, prefix: &str, tree: &mut Tree) -> Result<(), String> {
    let entries = ws
        .readdir(dir, Page::all())
        .map_err(|e| format!("readdir {dir}: {e}"))?;
    for st in entries {
        let path = format!("{dir}/{}", st.name);
        let rel = format!("{prefix}{}", st.name);
        match st.kind {
            NodeKind::Directory => {
                tree.insert(rel.clone(), Node::Dir);
                walk_ws(ws, &path, &format!("{rel}/"), tree)?;
            }
            NodeKind::File => {
                let data = ws.read(&path).map_err(|e| format!("read {path}: {e}"))?;
                tree.insert(rel, Node::File(data));
            }
            NodeKind::Symlink => {
                let target = ws
                    .readlink(&path)
                    .map_err(|e| format!("readlink {path}: {e}"))?;
                tree.insert(rel, Node::Symlink(target));
            }
        }
    }
    Ok(())
}

// ------------------------------------------------------------ comparison

/// At most this many paths per kind of tree difference in a report.
const MAX_TREE_LINES: usize = 4;

/// The two sides of a comparison, as reports name them.
type Sides = [&'static str; 2];
const VS_OURS: Sides = ["git", "ours"];
const TWICE: Sides = ["run 1", "run 2"];

/// The first line where two outputs differ, quoted.
fn first_difference(expected: &[u8], actual: &[u8], sides: Sides) -> String {
    let e: Vec<&[u8]> = expected.split_inclusive(|&b| b == b'\n').collect();
    let a: Vec<&[u8]> = actual.split_inclusive(|&b| b == b'\n').collect();
    let i = e.iter().zip(&a).take_while(|(x, y)| x == y).count();
    let line = |v: &[&[u8]]| match v.get(i) {
        Some(l) => clip(&String::from_utf8_lossy(l), 100),
        None => "<end>".to_owned(),
    };
    format!(
        "line {} ({} vs {} lines): {} {} | {} {}",
        i + 1,
        e.len(),
        a.len(),
        sides[0],
        line(&e),
        sides[1],
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

fn list(paths: &[&str]) -> String {
    let mut s = paths
        .iter()
        .take(MAX_TREE_LINES)
        .copied()
        .collect::<Vec<_>>()
        .join(", ");
    if paths.len() > MAX_TREE_LINES {
        s.push_str(&format!(", ... ({} in all)", paths.len()));
    }
    s
}

/// How `actual` differs from `expected`, one line per kind.
fn tree_differences(expected: &Tree, actual: &Tree, sides: Sides) -> Vec<String> {
    let [label, other] = sides;
    let missing: Vec<&str> = expected
        .keys()
        .filter(|k| !actual.contains_key(*k))
        .map(String::as_str)
        .collect();
    let extra: Vec<&str> = actual
        .keys()
        .filter(|k| !expected.contains_key(*k))
        .map(String::as_str)
        .collect();
    let changed: Vec<String> = expected
        .iter()
        .filter_map(|(path, node)| match actual.get(path) {
            Some(n) if n != node => Some(match (node, n) {
                (Node::File(e), Node::File(a)) => {
                    format!("{path}: {}", first_difference(e, a, sides))
                }
                _ => format!(
                    "{path}: {label} {}, {other} {}",
                    describe_node(node),
                    describe_node(n)
                ),
            }),
            _ => None,
        })
        .collect();
    let mut out = Vec::new();
    if !missing.is_empty() {
        out.push(format!(
            "tree: missing ({label} has them): {}",
            list(&missing)
        ));
    }
    if !extra.is_empty() {
        out.push(format!("tree: extra ({label} has none): {}", list(&extra)));
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

/// What differs between the oracle's `expected` and `actual`: stdout, the
/// exit code, the tree, and stderr when `with_stderr`.
fn differences(
    expected: &Outcome,
    actual: &Outcome,
    with_stderr: bool,
    sides: Sides,
) -> Vec<String> {
    let mut diffs = Vec::new();
    if expected.stdout != actual.stdout {
        diffs.push(format!(
            "stdout: {}",
            first_difference(&expected.stdout, &actual.stdout, sides)
        ));
    }
    if expected.exit != actual.exit {
        diffs.push(format!(
            "exit: {} {}, {} {}",
            sides[0], expected.exit, sides[1], actual.exit
        ));
    }
    if with_stderr && expected.stderr != actual.stderr {
        diffs.push(format!(
            "stderr: {}",
            first_difference(&expected.stderr, &actual.stderr, sides)
        ));
    }
    diffs.extend(tree_differences(&expected.tree, &actual.tree, sides));
    diffs
}

fn report(name: &str, diffs: &[String], actual: &Outcome) -> String {
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

// ------------------------------------------------------------ our side

/// The runtime with the built-in guests and commands, plus
/// `GIT_CORPUS_COMMAND` as `git` when it has none. Shared by the tests.
fn runtime() -> &'static Runtime {
    static RT: OnceLock<Runtime> = OnceLock::new();
    RT.get_or_init(|| {
        let rt = Runtime::with_builtin_guests(RuntimeConfig {
            cache_dir: Some(component_cache_dir()),
            ..Default::default()
        })
        .expect("creating the runtime");
        computer_builtins::register(&rt).expect("registering the built-in commands");
        if let Some(path) = std::env::var_os("GIT_CORPUS_COMMAND")
            && !has_git(&rt)
        {
            let path = PathBuf::from(path);
            let bytes = std::fs::read(&path)
                .unwrap_or_else(|e| panic!("reading GIT_CORPUS_COMMAND {}: {e}", path.display()));
            rt.register_command(CommandSpec {
                name: GIT.into(),
                description: "git (GIT_CORPUS_COMMAND)".into(),
                component: Bytes::from(bytes),
                mounts: Vec::new(),
                sha256: None,
                own_cwd: true,
            })
            .unwrap_or_else(|e| panic!("registering {} as git: {e}", path.display()));
        }
        rt
    })
}

fn has_git(rt: &Runtime) -> bool {
    let ws = Workspace::in_memory().expect("workspace");
    rt.commands(&ws)
        .expect("listing commands")
        .iter()
        .any(|c| c.name == GIT)
}

fn has_shell(rt: &Runtime) -> bool {
    rt.backends().iter().any(|b| b == SHELL)
}

/// A fresh workspace with `/work` and `/home/agent`.
fn fresh_workspace() -> Result<Arc<Workspace>, String> {
    let ws = Workspace::in_memory().map_err(|e| format!("workspace: {e}"))?;
    let opts = MkdirOptions {
        recursive: true,
        mode: None,
    };
    for dir in [WORK, HOME] {
        ws.mkdir(dir, &opts)
            .map_err(|e| format!("mkdir {dir}: {e}"))?;
    }
    Ok(Arc::new(ws))
}

/// Runs `source` in the shell backend of `ws`, cwd `/work`.
fn exec_ours(rt: &Runtime, ws: &Arc<Workspace>, name: &str, source: &str) -> Outcome {
    let options = ExecOptions {
        backend: SHELL.into(),
        cwd: Some(WORK.into()),
        env: script_env(),
        program: Some(name.to_owned()),
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
        tree: Tree::new(),
        error,
    }
}

/// `/work` and `/home/agent` of `ws`, without `.git` internals, keyed as
/// [`OracleRoot::tree`] keys them.
fn ws_worktree(ws: &Workspace) -> Result<Tree, String> {
    let mut tree = Tree::new();
    for dir in [WORK, HOME] {
        let sub = ws_tree(ws, dir)?;
        let prefix = dir.trim_start_matches('/');
        tree.extend(sub.into_iter().map(|(k, v)| (format!("{prefix}/{k}"), v)));
    }
    Ok(worktree_only(tree))
}

/// Exports `/work` of `ws` to the host and runs real `git fsck --strict` on
/// every repository in it.
fn export_and_fsck(ws: &Workspace) -> Vec<String> {
    let dir = tempfile::tempdir().expect("creating a temporary directory");
    let host = dir.path().join("work");
    if let Err(e) = ws.export(WORK, &host) {
        return vec![format!("exporting /work: {e}")];
    }
    fsck_all(&host, "our git")
}

/// One script with our git: the outcome, tree included, and fsck's
/// complaints about the exported repositories.
fn run_ours(rt: &Runtime, script: &Script) -> (Outcome, Vec<String>) {
    let ws = match fresh_workspace() {
        Ok(ws) => ws,
        Err(e) => {
            let failed = Outcome {
                exit: -1,
                error: Some(e),
                ..Outcome::default()
            };
            return (failed, Vec::new());
        }
    };
    let mut outcome = exec_ours(rt, &ws, &script.name, &script.source);
    match ws_worktree(&ws) {
        Ok(t) => outcome.tree = t,
        Err(e) => {
            outcome.error.get_or_insert(e);
        }
    }
    (outcome, export_and_fsck(&ws))
}

// ------------------------------------------------------------ modes

/// Lines of `bytes` that say a command was not found, except for `git`.
fn missing_commands(bytes: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(bytes)
        .lines()
        .filter(|l| l.contains("command not found") && !l.contains("git: command not found"))
        .map(str::to_owned)
        .collect()
}

/// Oracle-only: each script twice with real git; then, if the shell
/// backend exists, once in it to catch commands it lacks.
fn check_oracle(scripts: &[Script]) {
    let rt = runtime();
    let shell = has_shell(rt);
    let problems: Vec<String> = parallel_map(scripts, |s| {
        let first = run_oracle(s);
        let second = run_oracle(s);
        let (a, b) = (&first.outcome, &second.outcome);
        let mut issues = differences(a, b, true, TWICE);
        for e in [&a.error, &b.error].into_iter().flatten() {
            issues.push(format!("error: {e}"));
        }
        issues.extend(first.fsck.iter().cloned());
        for line in missing_commands(&a.stdout)
            .into_iter()
            .chain(missing_commands(&a.stderr))
        {
            issues.push(format!("real bash: {line}"));
        }
        let stdout = String::from_utf8_lossy(&a.stdout);
        if stdout.contains("/tmp/") || stdout.contains("/.tmp") {
            issues.push("stdout shows a temporary path".into());
        }
        if shell {
            let ws = fresh_workspace().expect("workspace");
            let ours = exec_ours(rt, &ws, &s.name, &s.source);
            for line in missing_commands(&ours.stdout)
                .into_iter()
                .chain(missing_commands(&ours.stderr))
            {
                issues.push(format!("the shell backend lacks a command: {line}"));
            }
        }
        if issues.is_empty() {
            None
        } else {
            Some(report(&s.name, &issues, a))
        }
    })
    .into_iter()
    .flatten()
    .collect();
    println!(
        "git corpus, oracle only: {} of {} scripts deterministic and fsck-clean under {ORACLE_GIT}{}",
        scripts.len() - problems.len(),
        scripts.len(),
        if shell {
            ", and every command but git is in the shell backend"
        } else {
            " (no shell backend: its commands were not checked)"
        }
    );
    assert!(
        problems.is_empty(),
        "{} scripts are not fit for the git corpus:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

/// Full mode: real git against ours, with the baseline.
fn check_against_ours(scripts: &[Script], filtered: bool) {
    let rt = runtime();
    assert!(
        has_shell(rt),
        "the runtime has a git command but no `shell` backend (backends: {:?})",
        rt.backends()
    );
    let results: Vec<(String, Vec<String>, Outcome)> = parallel_map(scripts, |s| {
        let expected = run_oracle(s);
        if let Some(e) = &expected.outcome.error {
            panic!("{}: real git's run failed: {e}", s.name);
        }
        assert!(
            expected.fsck.is_empty(),
            "{}: real git's own repository fails fsck: {:?}",
            s.name,
            expected.fsck
        );
        let (actual, fsck) = run_ours(rt, s);
        let mut diffs = differences(&expected.outcome, &actual, s.compares_stderr(), VS_OURS);
        diffs.extend(fsck);
        if diffs.is_empty()
            && let Some(e) = &actual.error
        {
            diffs.push(format!("host error: {e}"));
        }
        (s.name.clone(), diffs, actual)
    });
    let total = results.len();
    let passing: BTreeSet<String> = results
        .iter()
        .filter(|(_, d, _)| d.is_empty())
        .map(|(n, _, _)| n.clone())
        .collect();
    let mut text = String::new();
    for (name, diffs, actual) in results.iter().filter(|(_, d, _)| !d.is_empty()) {
        text.push_str(&report(name, diffs, actual));
        text.push('\n');
    }
    text.push_str(&format!(
        "\ngit corpus: {}/{total} scripts identical to real git 2.39\n",
        passing.len()
    ));

    if env_flag("UPDATE_GIT_BASELINE") {
        assert!(
            !filtered,
            "UPDATE_GIT_BASELINE=1 needs the whole corpus: unset GIT_CORPUS_FILTER"
        );
        let path = baseline_path();
        std::fs::write(&path, render_baseline(&passing, total))
            .unwrap_or_else(|e| panic!("writing {}: {e}", path.display()));
        println!("{text}baseline rewritten: {} passing", passing.len());
        return;
    }
    let baseline = read_baseline();
    let selected: BTreeSet<&str> = scripts.iter().map(|s| s.name.as_str()).collect();
    let regressed: Vec<&str> = baseline
        .iter()
        .map(String::as_str)
        .filter(|n| selected.contains(n) && !passing.contains(*n))
        .collect();
    let fixed: Vec<&str> = passing
        .iter()
        .map(String::as_str)
        .filter(|n| !baseline.contains(*n))
        .collect();
    if !fixed.is_empty() {
        text.push_str(&format!(
            "NOTE: passing but not in baseline.txt (add them with UPDATE_GIT_BASELINE=1): {}\n",
            fixed.join(", ")
        ));
    }
    println!("{text}");
    assert!(
        regressed.is_empty(),
        "the git corpus regressed: {} in baseline.txt no longer pass: {}\n\n{text}",
        regressed.len(),
        regressed.join(", ")
    );
}

// ------------------------------------------------------------ tests

#[test]
fn corpus() {
    check_oracle_git();
    let (scripts, filtered) = selected_scripts();
    let ours = has_git(runtime());
    if env_flag("GIT_CORPUS_ORACLE_ONLY") {
        check_oracle(&scripts);
    } else if !ours {
        eprintln!(
            "git_corpus: the runtime has no `git` command, so the {} scripts run against real \
             git only (oracle-only mode: determinism, fsck, commands); set GIT_CORPUS_COMMAND \
             to a component to compare one",
            scripts.len()
        );
        check_oracle(&scripts);
    } else {
        check_against_ours(&scripts, filtered);
    }
}

/// Crossing over the other way: a repository real git made (packed by
/// `git gc`) is imported into a workspace byte for byte, survives an
/// export, and, once our git exists, ours continues on it as real git does.
#[test]
fn import_real_repository() {
    check_oracle_git();
    let made = OracleRoot::new();
    let out = made.run(&corpus_dir().join("make-real-repo.sh"));
    assert!(
        out.exit == 0 && out.error.is_none() && out.stderr.is_empty(),
        "make-real-repo.sh failed: exit {}, {:?}\n{}",
        out.exit,
        out.error,
        String::from_utf8_lossy(&out.stderr)
    );
    let repo = made.work();
    let original = host_tree(&repo).expect("snapshotting the real repository");
    let has = |pred: &dyn Fn(&str) -> bool| original.keys().any(|k| pred(k));
    assert!(
        has(&|k| k.starts_with(".git/objects/pack/") && k.ends_with(".pack")),
        "make-real-repo.sh made no pack"
    );
    assert!(has(&|k| k == ".git/packed-refs"), "no packed-refs");
    assert!(
        has(&|k| k.len() == ".git/objects/xx/".len() + 38 && k.starts_with(".git/objects/")),
        "no loose object after gc"
    );

    // Into a workspace, byte for byte.
    let ws = fresh_workspace().expect("workspace");
    let stats = ws
        .import(&repo, WORK, &mut |_| {})
        .expect("importing the real repository");
    assert!(
        stats.skipped.is_empty(),
        "import skipped {:?}",
        stats.skipped
    );
    let imported = ws_tree(&ws, WORK).expect("snapshotting the import");
    let diffs = tree_differences(&original, &imported, ["the host", "the workspace"]);
    assert!(
        diffs.is_empty(),
        "the import differs:\n{}",
        diffs.join("\n")
    );

    // Out again: real git sees the same repository.
    let out_dir = tempfile::tempdir().expect("tempdir");
    let exported = out_dir.path().join("work");
    ws.export(WORK, &exported).expect("exporting");
    assert_eq!(fsck_all(&exported, "the exported"), Vec::<String>::new());
    for args in [
        &["log", "--oneline", "--all"][..],
        &["rev-parse", "--all"],
        &["status", "--porcelain"],
        &["ls-files", "-s"],
    ] {
        assert_eq!(
            real_git(&exported, args),
            real_git(&repo, args),
            "git {} differs after import and export",
            args.join(" ")
        );
    }

    let rt = runtime();
    if env_flag("GIT_CORPUS_ORACLE_ONLY") || !has_git(rt) {
        eprintln!(
            "git_corpus: no `git` command in the runtime; the imported repository was checked \
             byte for byte and through export, but not continued with ours"
        );
        return;
    }
    // Real git continues on a copy; ours on the import.
    let script = corpus_dir().join("continue-real-repo.sh");
    let source = std::fs::read_to_string(&script).expect("reading continue-real-repo.sh");
    let oracle = OracleRoot::new();
    std::fs::remove_dir(oracle.work()).expect("emptying work/");
    copy_tree(&repo, &oracle.work()).expect("copying the real repository");
    let mut expected = oracle.run(&script);
    expected.tree = oracle.tree().expect("snapshotting");
    let mut actual = exec_ours(rt, &ws, "continue-real-repo.sh", &source);
    actual.tree = ws_worktree(&ws).expect("snapshotting the workspace");
    let mut diffs = differences(&expected, &actual, false, VS_OURS);
    diffs.extend(fsck_all(&oracle.work(), "real git"));
    diffs.extend(export_and_fsck(&ws));
    assert!(
        diffs.is_empty(),
        "{}",
        report("continue-real-repo.sh", &diffs, &actual)
    );
}

/// The corpus is well formed and the baseline readable, whatever the mode.
#[test]
fn corpus_is_well_formed() {
    let scripts = load_scripts().unwrap_or_else(|e| panic!("bad git corpus:\n{e}"));
    assert!(
        scripts.len() >= MIN_SCRIPTS,
        "only {} scripts",
        scripts.len()
    );
    for s in &scripts {
        assert!(
            s.source.starts_with("# "),
            "{} does not start with a comment saying what it checks",
            s.name
        );
        assert!(s.source.contains("git "), "{} runs no git", s.name);
        assert!(
            !s.source.contains("/usr/bin/git") && !s.source.contains("/usr/local"),
            "{} names a git binary: scripts use `git` from PATH",
            s.name
        );
        assert!(
            s.source.lines().count() <= 30,
            "{} is over 30 lines: split it",
            s.name
        );
    }
    let errors = scripts.iter().filter(|s| s.compares_stderr()).count();
    assert!(errors >= 10, "only {errors} err-* scripts");
    for name in read_baseline() {
        assert!(
            scripts.iter().any(|s| s.name == name),
            "baseline.txt lists {name}, which is not a script"
        );
    }
    for fixture in ["make-real-repo.sh", "continue-real-repo.sh"] {
        assert!(corpus_dir().join(fixture).is_file(), "{fixture} is missing");
    }
}

/// The helpers must be able to fail: each kind of difference is caught,
/// `.git` internals are ignored, the oracle's root is cut out.
#[test]
fn comparison_catches_differences() {
    let mut tree = Tree::new();
    tree.insert("work/.git".into(), Node::Dir);
    tree.insert("work/.git/HEAD".into(), Node::File(b"ref: x\n".to_vec()));
    tree.insert("work/sub/.git/index".into(), Node::File(vec![1]));
    tree.insert("work/a.txt".into(), Node::File(b"one\n".to_vec()));
    tree.insert("work/.gitignore".into(), Node::File(b"*.o\n".to_vec()));
    let tree = worktree_only(tree);
    assert_eq!(
        tree.keys().map(String::as_str).collect::<Vec<_>>(),
        ["work/.git", "work/.gitignore", "work/a.txt"]
    );
    let base = Outcome {
        stdout: b"x\ny\n".to_vec(),
        exit: 0,
        tree,
        stderr: b"fatal: x\n".to_vec(),
        error: None,
    };
    assert!(differences(&base, &base.clone(), true, VS_OURS).is_empty());

    let mut other = base.clone();
    other.stdout = b"x\nz\n".to_vec();
    other.exit = 128;
    assert_eq!(differences(&base, &other, false, VS_OURS).len(), 2);

    let mut other = base.clone();
    other.stderr = b"fatal: y\n".to_vec();
    assert!(differences(&base, &other, false, VS_OURS).is_empty());
    assert_eq!(differences(&base, &other, true, VS_OURS).len(), 1);

    let mut other = base.clone();
    other.tree.remove("work/.git");
    other
        .tree
        .insert("work/a.txt".into(), Node::File(b"two\n".to_vec()));
    other.tree.insert("work/new".into(), Node::Dir);
    assert_eq!(differences(&base, &other, false, TWICE).len(), 3);

    assert_eq!(
        unroot(b"in /tmp/r/work/.git/\n/tmp/r/home\n", "/tmp/r"),
        b"in /work/.git/\n/home\n"
    );
    assert_eq!(
        missing_commands(b"bash: git: command not found\nbash: tree: command not found\n"),
        ["bash: tree: command not found"]
    );
    assert!(valid_script_name("merge-conflict.sh"));
    assert!(valid_script_name("err-clone-missing.sh"));
    assert!(!valid_script_name("Merge.sh"));
    assert!(!valid_script_name("a--b.sh"));
    let b = ["a-b.sh".to_owned()].into_iter().collect();
    assert_eq!(parse_baseline(&render_baseline(&b, 3)).unwrap(), b);
    assert!(parse_baseline("bogus x.sh\n").is_err());
}
