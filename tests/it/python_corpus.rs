//! The python3 oracle corpus (`tests/python-corpus/`, see its README): every
//! script runs once under the machine's CPython (`/usr/bin/python3`, the
//! oracle) in a temporary copy of the fixture tree, and once as
//! `python3 NAME.py` in the `command` backend, in process, on a workspace
//! seeded from the same tree, with the built-in python3 (CPython 3.14 in
//! wasm, `computer-builtins`). The script itself is copied into the root of
//! the tree on both sides. Stdout, the exit code and the resulting tree
//! (without `__pycache__`) must match; stderr is only shown.
//!
//! Every script must pass, except those in [`EXPECTED_FAILURES`], which must
//! still fail (so a fix is noticed and the entry removed).
//!
//! Environment:
//! - `PYTHON_CORPUS_FILTER=SUBSTRING` runs only the scripts whose file name
//!   contains it;
//! - `PYTHON_CORPUS_ORACLE_ONLY=1` runs only CPython, twice per script, and
//!   checks the corpus itself: identical results both times, something on
//!   stdout, no temporary path in it.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::time::{Duration, Instant};

use computer_runtime::{ExecOptions, Limits, RunStatus, Runtime, RuntimeConfig};
use computer_store::{NodeKind, Page, Workspace, WriteOptions};
use computer_tests::corpus::{
    Node, Outcome, Tree, compare, copy_tree, failure_report, host_tree, parallel_map,
    run_with_timeout,
};
use computer_tests::{component_cache_dir, workspace_root};

/// The oracle.
const PYTHON: &str = "/usr/bin/python3";

/// Fewer scripts than this means the corpus was not found or got truncated.
const MIN_SCRIPTS: usize = 110;

/// The tree root in both environments: `/work` in the workspace,
/// `<tmp>/work` on the host.
const ROOT_NAME: &str = "work";

/// Per script and side; generous, so a hang shows up as a failure.
const TIMEOUT: Duration = Duration::from_secs(60);

/// Scripts that differ because of a known bug in our python3 (or in the
/// workspace filesystem under it), each with the reason. The test fails if
/// one of them starts passing.
const EXPECTED_FAILURES: &[(&str, &str)] = &[
    (
        "067-shutil-disk-and-modes.py",
        "os.stat reports no permission bits (0o000) and os.chmod is a silent no-op",
    ),
    (
        "080-sqlite-two-connections.py",
        "a second connection cannot read while another holds a write transaction: \
         `database is locked`",
    ),
    (
        "220-sys-flags-environment.py",
        "sys.flags ignores PYTHONDONTWRITEBYTECODE and PYTHONHASHSEED",
    ),
];

/// Why `name` is expected to fail, if it is.
fn expected_failure(name: &str) -> Option<&'static str> {
    EXPECTED_FAILURES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, why)| *why)
}

fn env_flag(name: &str) -> bool {
    std::env::var(name).is_ok_and(|v| !v.is_empty() && v != "0")
}

fn corpus_dir() -> PathBuf {
    workspace_root().join("tests/python-corpus")
}

fn fixture_dir() -> PathBuf {
    corpus_dir().join("fixture")
}

/// The whole environment of a run, on both sides.
fn script_env() -> BTreeMap<String, String> {
    [
        ("PATH", "/usr/bin:/bin"),
        ("HOME", "/home/agent"),
        ("LANG", "C.UTF-8"),
        ("TZ", "UTC"),
        ("PYTHONDONTWRITEBYTECODE", "1"),
        ("PYTHONHASHSEED", "0"),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_owned(), v.to_owned()))
    .collect()
}

// ------------------------------------------------------------ scripts

struct Script {
    /// `NNN-topic-name.py`.
    name: String,
    source: Vec<u8>,
}

/// Every `scripts/*.py`, sorted by name; a file with another name there is
/// an error, so that a typo cannot silently drop a script.
fn load_scripts() -> Result<Vec<Script>, String> {
    let dir = corpus_dir().join("scripts");
    let entries = std::fs::read_dir(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut scripts = Vec::new();
    let mut problems = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|e| format!("{}: {e}", dir.display()))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if !valid_script_name(&name) {
            problems.push(format!("not NNN-topic-name.py: {name:?}"));
            continue;
        }
        match std::fs::read(entry.path()) {
            Ok(source) => scripts.push(Script { name, source }),
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
    let Some(stem) = name.strip_suffix(".py") else {
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

fn selected_scripts() -> Vec<Script> {
    let scripts = load_scripts().unwrap_or_else(|e| panic!("bad corpus:\n{e}"));
    assert!(
        scripts.len() >= MIN_SCRIPTS,
        "only {} scripts in {}",
        scripts.len(),
        corpus_dir().display()
    );
    for (name, _) in EXPECTED_FAILURES {
        assert!(
            scripts.iter().any(|s| s.name == *name),
            "EXPECTED_FAILURES lists {name}, which is not a script"
        );
    }
    match std::env::var("PYTHON_CORPUS_FILTER") {
        Ok(f) if !f.is_empty() => {
            let chosen: Vec<Script> = scripts
                .into_iter()
                .filter(|s| s.name.contains(&f))
                .collect();
            assert!(
                !chosen.is_empty(),
                "PYTHON_CORPUS_FILTER={f} matches no script"
            );
            chosen
        }
        _ => scripts,
    }
}

/// The tree without bytecode caches.
fn without_pycache(tree: Tree) -> Tree {
    tree.into_iter()
        .filter(|(path, _)| !path.split('/').any(|c| c == "__pycache__"))
        .collect()
}

// ------------------------------------------------------------ the oracle

/// Runs `script` under CPython in a fresh copy of the fixture and snapshots
/// the tree afterwards.
fn run_oracle(script: &Script) -> Outcome {
    let tmp = tempfile::tempdir().expect("creating a temporary directory");
    let root = tmp.path().join(ROOT_NAME);
    copy_tree(&fixture_dir(), &root).expect("copying the fixture");
    std::fs::write(root.join(&script.name), &script.source).expect("copying the script");
    let mut outcome = run_python_in(&root, &script.name);
    match host_tree(&root) {
        Ok(tree) => outcome.tree = without_pycache(tree),
        Err(e) => {
            outcome
                .error
                .get_or_insert(format!("snapshotting the tree: {e}"));
        }
    }
    // A script may have left a directory unwritable; the temporary
    // directory must still be removable.
    let _ = Command::new("/bin/chmod")
        .args(["-R", "u+rwX"])
        .arg(tmp.path())
        .status();
    outcome
}

fn run_python_in(root: &Path, name: &str) -> Outcome {
    let mut cmd = Command::new(PYTHON);
    cmd.arg(name)
        .current_dir(root)
        .env_clear()
        .envs(script_env())
        .env("PWD", root);
    run_with_timeout(cmd, TIMEOUT)
}

// ------------------------------------------------------------ the subject

/// The runtime with the built-in commands, python3 among them.
fn python_runtime() -> Runtime {
    let config = RuntimeConfig {
        cache_dir: Some(component_cache_dir()),
        ..Default::default()
    };
    let runtime = Runtime::with_builtin_guests(config).expect("creating the runtime");
    computer_builtins::register(&runtime).expect("registering the built-in commands");
    assert!(
        computer_builtins::built_in().contains(&"python3"),
        "python3 is not built in: run scripts/build-python.sh (see host/builtins/build.rs)"
    );
    runtime
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

/// Runs `python3 NAME.py` in the `command` backend on a fresh workspace
/// holding the fixture and the script at `/work`.
fn run_subject(runtime: &Runtime, script: &Script) -> Outcome {
    let failed = |error: String| Outcome {
        exit: -1,
        error: Some(error),
        ..Outcome::default()
    };
    let root = format!("/{ROOT_NAME}");
    let ws = match Workspace::in_memory() {
        Ok(ws) => Arc::new(ws),
        Err(e) => return failed(format!("workspace: {e}")),
    };
    if let Err(e) = ws.import(&fixture_dir(), &root, &mut |_| {}) {
        return failed(format!("importing the fixture: {e}"));
    }
    let script_path = format!("{root}/{}", script.name);
    if let Err(e) = ws.write(&script_path, &script.source, &WriteOptions::default()) {
        return failed(format!("writing {script_path}: {e}"));
    }
    let mut env = script_env();
    env.insert("PWD".into(), root.clone());
    let options = ExecOptions {
        backend: "command".into(),
        cwd: Some(root.clone()),
        env,
        limits: Some(Limits {
            timeout: TIMEOUT,
            ..Limits::default()
        }),
        ..Default::default()
    };
    let source = format!("python3 {}", script.name);
    let result = match runtime.exec(ws.clone(), &source, options) {
        Ok(handle) => handle.wait(),
        Err(e) => return failed(format!("exec refused the run: {e}")),
    };
    let mut error = result.error.clone();
    if result.status != RunStatus::Completed && result.status != RunStatus::Failed {
        error.get_or_insert_with(|| format!("run status {}", result.status.as_str()));
    }
    let tree = ws_tree(&ws, &root).unwrap_or_else(|e| {
        error.get_or_insert(format!("snapshotting {root}: {e}"));
        Tree::new()
    });
    Outcome {
        stdout: result.stdout,
        exit: result.exit_code,
        tree: without_pycache(tree),
        stderr: result.stderr,
        error,
    }
}

/// [`failure_report`], plus the last line of stderr: for a Python
/// traceback that is the exception, where the first line is only
/// `Traceback (most recent call last):`.
fn failure_lines(name: &str, diffs: &[String], actual: &Outcome) -> String {
    let mut s = failure_report(name, diffs, actual);
    let stderr = String::from_utf8_lossy(&actual.stderr);
    let mut lines = stderr.lines().filter(|l| !l.trim().is_empty());
    // The first line is in the report already.
    lines.next();
    if let Some(last) = lines.next_back() {
        let last: String = last.chars().take(160).collect();
        s.push_str(&format!("\n    stderr, last line: {last:?}"));
    }
    s
}

/// The comparison's lines name the shell corpus's oracle (`exit: bash 0,
/// got 1`, `(bash has them)`); here it is CPython.
fn renamed(diffs: Vec<String>) -> Vec<String> {
    diffs
        .into_iter()
        .map(|d| {
            d.replace(": bash ", ": cpython ")
                .replace("(bash has", "(cpython has")
        })
        .collect()
}

/// What is wrong with an oracle run as a corpus case, if anything.
fn oracle_problems(o: &Outcome) -> Vec<String> {
    let mut issues = Vec::new();
    if let Some(e) = &o.error {
        issues.push(format!("error: {e}"));
    }
    if o.stdout.is_empty() {
        issues.push("prints nothing on stdout".into());
    }
    let stdout = String::from_utf8_lossy(&o.stdout);
    if stdout.contains("/tmp/") || stdout.contains("/.tmp") {
        issues.push("stdout shows a temporary path".into());
    }
    let stderr = String::from_utf8_lossy(&o.stderr);
    if let Some(line) = stderr
        .lines()
        .find(|l| l.starts_with("ModuleNotFoundError") || l.starts_with("SyntaxError"))
    {
        issues.push(format!("stderr: {line}"));
    }
    issues
}

// ------------------------------------------------------------ modes

/// Oracle-only mode: each script twice under CPython.
fn check_oracle(scripts: &[Script]) {
    let problems: Vec<String> = parallel_map(scripts, |s| {
        let first = run_oracle(s);
        let second = run_oracle(s);
        let mut issues = renamed(compare(&first, &second));
        issues.extend(oracle_problems(&first));
        if let Some(e) = &second.error {
            issues.push(format!("second run: {e}"));
        }
        if issues.is_empty() {
            None
        } else {
            Some(failure_lines(&s.name, &issues, &first))
        }
    })
    .into_iter()
    .flatten()
    .collect();
    println!(
        "python corpus, oracle only: {} of {} scripts deterministic under {PYTHON}",
        scripts.len() - problems.len(),
        scripts.len(),
    );
    assert!(
        problems.is_empty(),
        "{} scripts are not fit for the corpus:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

/// Full mode: CPython against our python3.
fn check_against_ours(scripts: &[Script]) {
    let runtime = python_runtime();
    let started = Instant::now();
    let results: Vec<(String, Vec<String>, Outcome)> = parallel_map(scripts, |s| {
        let expected = run_oracle(s);
        let problems = oracle_problems(&expected);
        if !problems.is_empty() {
            let mut issues = vec!["the oracle run is not a valid case".to_owned()];
            issues.extend(problems);
            return (s.name.clone(), issues, expected);
        }
        let actual = run_subject(&runtime, s);
        let mut diffs = renamed(compare(&expected, &actual));
        if diffs.is_empty()
            && let Some(e) = &actual.error
        {
            diffs.push(format!("host error: {e}"));
        }
        (s.name.clone(), diffs, actual)
    });
    let total = results.len();
    let mut report = String::new();
    let mut unexpected = Vec::new();
    let mut fixed = Vec::new();
    let mut passing = 0;
    for (name, diffs, actual) in &results {
        let why = expected_failure(name);
        if diffs.is_empty() {
            match why {
                None => passing += 1,
                Some(_) => fixed.push(name.as_str()),
            }
            continue;
        }
        report.push_str(&failure_lines(name, diffs, actual));
        match why {
            None => unexpected.push(name.as_str()),
            Some(why) => report.push_str(&format!("\n    (expected failure: {why})")),
        }
        report.push('\n');
    }
    report.push_str(&format!(
        "\npython corpus: {passing}/{total} scripts identical to {PYTHON}, {} expected \
         failures ({:.1?})\n",
        total - passing - unexpected.len() - fixed.len(),
        started.elapsed()
    ));
    if !unexpected.is_empty() {
        report.push_str(&format!("unexpected failures: {}\n", unexpected.join(", ")));
    }
    if !fixed.is_empty() {
        report.push_str(&format!(
            "in EXPECTED_FAILURES but now passing (remove them): {}\n",
            fixed.join(", ")
        ));
    }
    println!("{report}");
    assert!(
        unexpected.is_empty() && fixed.is_empty(),
        "the python corpus does not match its expectations\n\n{report}"
    );
}

// ------------------------------------------------------------ tests

#[test]
fn python_corpus() {
    let scripts = selected_scripts();
    if env_flag("PYTHON_CORPUS_ORACLE_ONLY") {
        check_oracle(&scripts);
    } else {
        check_against_ours(&scripts);
    }
}

/// The comparison can fail: a script whose output depends on the
/// interpreter's version (3.11 against 3.14) differs on stdout, the exit
/// code and the tree, and agrees with itself under CPython.
#[test]
fn a_version_dependent_script_differs() {
    if env_flag("PYTHON_CORPUS_ORACLE_ONLY") {
        return;
    }
    let probe = Script {
        name: "999-version-probe.py".into(),
        source: b"import sys\n\
                  v = '%d.%d' % sys.version_info[:2]\n\
                  print(v)\n\
                  open('version.txt', 'w').write(v)\n\
                  sys.exit(sys.version_info[1])\n"
            .to_vec(),
    };
    let expected = run_oracle(&probe);
    let actual = run_subject(&python_runtime(), &probe);
    assert_eq!(
        (expected.error.as_deref(), actual.error.as_deref()),
        (None, None)
    );
    assert_ne!(
        expected.stdout, actual.stdout,
        "both sides print the same version"
    );
    let diffs = compare(&expected, &actual);
    for kind in ["stdout:", "exit:", "tree:"] {
        assert!(
            diffs.iter().any(|d| d.starts_with(kind)),
            "no {kind} difference in {diffs:?}"
        );
    }
    assert!(compare(&expected, &run_oracle(&probe)).is_empty());
}

#[test]
fn script_names() {
    assert!(valid_script_name("001-csv-reader.py"));
    assert!(valid_script_name("120-sqlite-join-2.py"));
    assert!(!valid_script_name("01-x.py"));
    assert!(!valid_script_name("001-Csv.py"));
    assert!(!valid_script_name("001-a--b.py"));
    assert!(!valid_script_name("001-a.sh"));
    assert!(!valid_script_name("001-a_b.py"));
}
