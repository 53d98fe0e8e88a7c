//! The shell compatibility corpus (`tests/shell-corpus/`, see its README):
//! every script runs once under `/bin/bash` in a temporary copy of the
//! fixture tree and once in the `shell` backend on a workspace seeded from
//! the same tree; stdout, the exit code and the resulting tree must match.
//!
//! The pass count must not drop below `baseline.txt`.
//!
//! Environment:
//! - `UPDATE_SHELL_BASELINE=1` rewrites `baseline.txt` with this run's result;
//! - `SHELL_CORPUS_ORACLE_ONLY=1` runs only bash, twice per script, and checks
//!   the corpus itself: no `command not found`, no temp path in the output,
//!   and identical results both times (for working on scripts before the
//!   shell guest exists);
//! - `SHELL_CORPUS_FILTER=SUBSTRING` runs only the matching scripts (the
//!   baseline is then reported but not enforced);
//! - `SHELL_CORPUS_GUEST=PATH.wasm` registers that component as `shell` when
//!   the runtime has no built-in one.

use computer_tests::component_cache_dir;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use computer_runtime::{ExecOptions, Limits, RunStatus, Runtime, RuntimeConfig};
use computer_store::{NodeKind, Page, Workspace};
use computer_tests::corpus::{
    self, Baseline, MIN_SCRIPTS, Node, Outcome, ROOT_NAME, Script, Tree, compare, failure_report,
    parallel_map,
};
use computer_tests::workspace_root;

/// Per script and side; generous, so a hang shows up as a failure.
const TIMEOUT: Duration = Duration::from_secs(30);

const BACKEND: &str = "shell";

/// Longest list of script names printed in one line of the report.
const MAX_LISTED: usize = 40;

fn env_flag(name: &str) -> bool {
    std::env::var(name).is_ok_and(|v| !v.is_empty() && v != "0")
}

fn selected_scripts() -> (Vec<Script>, bool) {
    let scripts = corpus::load_scripts().unwrap_or_else(|e| panic!("bad corpus:\n{e}"));
    assert!(
        scripts.len() >= MIN_SCRIPTS,
        "only {} scripts in {}",
        scripts.len(),
        corpus::corpus_dir().display()
    );
    match std::env::var("SHELL_CORPUS_FILTER") {
        Ok(f) if !f.is_empty() => {
            let chosen: Vec<Script> = scripts
                .into_iter()
                .filter(|s| s.name.contains(&f))
                .collect();
            assert!(
                !chosen.is_empty(),
                "SHELL_CORPUS_FILTER={f} matches no script"
            );
            (chosen, true)
        }
        _ => (scripts, false),
    }
}

// ------------------------------------------------------------ the subject

/// The runtime with a `shell` backend, or a panic that says why there is none.
fn shell_runtime() -> Runtime {
    let config = RuntimeConfig {
        cache_dir: Some(component_cache_dir()),
        ..Default::default()
    };
    let runtime = Runtime::with_builtin_guests(config).expect("creating the runtime");
    if runtime.backends().iter().any(|b| b == BACKEND) {
        return runtime;
    }
    if let Some(path) = std::env::var_os("SHELL_CORPUS_GUEST") {
        let path = PathBuf::from(path);
        runtime
            .register_guest_file(BACKEND, &path)
            .unwrap_or_else(|e| panic!("registering {} as `shell`: {e}", path.display()));
        return runtime;
    }
    let wasm =
        workspace_root().join("guests/target/wasm32-wasip2/release/computer_guest_shell.wasm");
    panic!(
        "the `shell` backend is not registered in the runtime (backends: {:?}); \
         the shell corpus cannot run.\n\
         The built guest {} {}.\n\
         Build it with scripts/build-guests.sh and embed it in computer-runtime, or point \
         SHELL_CORPUS_GUEST at a component; SHELL_CORPUS_ORACLE_ONLY=1 checks the corpus \
         against bash alone.",
        runtime.backends(),
        wasm.display(),
        if wasm.is_file() {
            "exists but is not built in"
        } else {
            "does not exist"
        },
    );
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

/// Runs `script` in the shell backend on a fresh workspace holding the
/// fixture at `/work`.
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
    if let Err(e) = ws.import(&corpus::fixture_dir(), &root, &mut |_| {}) {
        return failed(format!("importing the fixture: {e}"));
    }
    let options = ExecOptions {
        backend: BACKEND.into(),
        cwd: Some(root.clone()),
        env: corpus::script_env(),
        program: Some(script.name.clone()),
        limits: Some(Limits {
            timeout: TIMEOUT,
            ..Limits::default()
        }),
        ..Default::default()
    };
    let result = match runtime.exec(ws.clone(), &script.source, options) {
        Ok(handle) => handle.wait(),
        Err(e) => return failed(format!("exec refused the run: {e}")),
    };
    let mut error = result.error.clone();
    if result.status != RunStatus::Completed && result.status != RunStatus::Failed {
        error.get_or_insert_with(|| format!("run status {}", result.status.as_str()));
    }
    let tree = ws_tree(&ws, &root).unwrap_or_else(|e| {
        error.get_or_insert(format!("snapshotting /{ROOT_NAME}: {e}"));
        Tree::new()
    });
    Outcome {
        stdout: result.stdout,
        exit: result.exit_code,
        tree,
        stderr: result.stderr,
        error,
    }
}

// ------------------------------------------------------------ modes

/// Oracle-only mode: each script twice under bash.
fn check_oracle(scripts: &[Script]) {
    let problems: Vec<String> = parallel_map(scripts, |s| {
        let first = corpus::run_oracle(s, TIMEOUT);
        let second = corpus::run_oracle(s, TIMEOUT);
        let mut issues = compare(&first, &second);
        let stderr = String::from_utf8_lossy(&first.stderr);
        if let Some(line) = stderr.lines().find(|l| l.contains("command not found")) {
            issues.push(format!("stderr: {line}"));
        }
        let stdout = String::from_utf8_lossy(&first.stdout);
        if stdout.contains("/tmp/") || stdout.contains("/.tmp") {
            issues.push("stdout shows a temporary path".into());
        }
        for e in [&first.error, &second.error].into_iter().flatten() {
            issues.push(format!("error: {e}"));
        }
        if issues.is_empty() {
            None
        } else {
            Some(failure_report(&s.name, &issues, &first))
        }
    })
    .into_iter()
    .flatten()
    .collect();
    println!(
        "shell corpus, oracle only: {} of {} scripts deterministic under {}",
        scripts.len() - problems.len(),
        scripts.len(),
        corpus::BASH
    );
    assert!(
        problems.is_empty(),
        "{} scripts are not fit for the corpus:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

/// Full mode: bash against the shell backend.
fn check_against_shell(scripts: &[Script], filtered: bool) {
    let runtime = shell_runtime();
    let results: Vec<(String, Vec<String>, Outcome)> = parallel_map(scripts, |s| {
        let expected = corpus::run_oracle(s, TIMEOUT);
        if let Some(e) = &expected.error {
            panic!("{}: bash itself failed: {e}", s.name);
        }
        let actual = run_subject(&runtime, s);
        let mut diffs = compare(&expected, &actual);
        if diffs.is_empty()
            && let Some(e) = &actual.error
        {
            diffs.push(format!("host error: {e}"));
        }
        (s.name.clone(), diffs, actual)
    });
    let total = results.len();
    let failures: Vec<&(String, Vec<String>, Outcome)> =
        results.iter().filter(|(_, d, _)| !d.is_empty()).collect();
    let passing = total - failures.len();
    let rate = 100.0 * passing as f64 / total.max(1) as f64;

    let mut report = String::new();
    for (name, diffs, actual) in &failures {
        report.push_str(&failure_report(name, diffs, actual));
        report.push('\n');
    }
    report.push_str(&format!(
        "\nshell corpus: {passing}/{total} scripts identical to bash ({rate:.1}%)\n"
    ));
    if !failures.is_empty() {
        report.push_str(&format!(
            "failures by topic: {}\n",
            failures_by_topic(&results)
        ));
    }
    let failing_names: Vec<String> = failures.iter().map(|(n, _, _)| n.clone()).collect();

    if filtered {
        println!("{report}(filtered run: the baseline is not checked)");
        return;
    }

    let path = corpus::baseline_path();
    if env_flag("UPDATE_SHELL_BASELINE") {
        let b = Baseline {
            passing,
            total,
            known_failures: failing_names,
        };
        std::fs::write(&path, b.render())
            .unwrap_or_else(|e| panic!("writing {}: {e}", path.display()));
        println!("{report}baseline rewritten: passing {passing} of {total}");
        return;
    }
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
    let baseline = Baseline::parse(&text).unwrap_or_else(|e| panic!("{e}"));
    let new_failures: Vec<&String> = failing_names
        .iter()
        .filter(|n| !baseline.known_failures.contains(n))
        .collect();
    let fixed: Vec<&String> = baseline
        .known_failures
        .iter()
        .filter(|n| !failing_names.contains(n))
        .collect();
    report.push_str(&format!(
        "baseline: at least {} passing\n",
        baseline.passing
    ));
    if !new_failures.is_empty() {
        report.push_str(&format!(
            "failing but not in baseline.txt: {}\n",
            list(&new_failures)
        ));
    }
    if !fixed.is_empty() {
        report.push_str(&format!("now passing: {}\n", list(&fixed)));
    }
    if passing > baseline.passing {
        report.push_str(&format!(
            "NOTE: {passing} pass, above the baseline of {}: raise it with \
             UPDATE_SHELL_BASELINE=1\n",
            baseline.passing
        ));
    }
    println!("{report}");
    assert!(
        passing >= baseline.passing,
        "the shell corpus regressed: {passing} of {total} scripts pass, \
         below the baseline of {}\n\n{report}",
        baseline.passing
    );
}

/// Names, comma separated, at most [`MAX_LISTED`] of them.
fn list(names: &[&String]) -> String {
    let mut s = names
        .iter()
        .take(MAX_LISTED)
        .map(|s| s.as_str())
        .collect::<Vec<_>>()
        .join(", ");
    if names.len() > MAX_LISTED {
        s.push_str(&format!(", ... ({} in all)", names.len()));
    }
    s
}

/// The topic of a script: the first word after the number
/// (`205-grep-extended-alternation.sh` -> `grep`).
fn topic(name: &str) -> &str {
    name.get(4..)
        .and_then(|rest| rest.split(['-', '.']).next())
        .unwrap_or(name)
}

/// `topic failed/total` for every topic with a failure, most failures first.
fn failures_by_topic(results: &[(String, Vec<String>, Outcome)]) -> String {
    let mut by_topic: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    for (name, diffs, _) in results {
        let e = by_topic.entry(topic(name)).or_default();
        e.1 += 1;
        if !diffs.is_empty() {
            e.0 += 1;
        }
    }
    let mut rows: Vec<(&str, usize, usize)> = by_topic
        .into_iter()
        .filter(|(_, (failed, _))| *failed > 0)
        .map(|(t, (f, n))| (t, f, n))
        .collect();
    rows.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    rows.iter()
        .map(|(t, f, n)| format!("{t} {f}/{n}"))
        .collect::<Vec<_>>()
        .join(", ")
}

// ------------------------------------------------------------ tests

#[test]
fn shell_corpus() {
    let (scripts, filtered) = selected_scripts();
    if env_flag("SHELL_CORPUS_ORACLE_ONLY") {
        check_oracle(&scripts);
    } else {
        check_against_shell(&scripts, filtered);
    }
}

/// The corpus is well formed and the baseline readable, whatever the mode.
#[test]
fn corpus_is_well_formed() {
    let scripts = corpus::load_scripts().unwrap_or_else(|e| panic!("bad corpus:\n{e}"));
    assert!(
        scripts.len() >= MIN_SCRIPTS,
        "only {} scripts",
        scripts.len()
    );
    let fixture = corpus::host_tree(&corpus::fixture_dir()).expect("reading the fixture");
    let files = fixture
        .values()
        .filter(|n| matches!(n, Node::File(_)))
        .count();
    assert!((60..=150).contains(&files), "{files} files in the fixture");
    let text = std::fs::read_to_string(corpus::baseline_path()).expect("reading baseline.txt");
    let baseline = Baseline::parse(&text).unwrap_or_else(|e| panic!("{e}"));
    assert!(
        baseline.passing <= scripts.len(),
        "baseline.txt wants {} passing, but the corpus has only {} scripts",
        baseline.passing,
        scripts.len()
    );
    for name in &baseline.known_failures {
        assert!(
            scripts.iter().any(|s| &s.name == name),
            "baseline.txt lists {name}, which is not a script"
        );
    }
}

/// The comparison must be able to fail: each kind of difference is caught.
#[test]
fn comparison_catches_differences() {
    let mut tree = Tree::new();
    tree.insert("a".into(), Node::Dir);
    tree.insert("a/f.txt".into(), Node::File(b"one\ntwo\n".to_vec()));
    tree.insert("l".into(), Node::Symlink("a".into()));
    let base = Outcome {
        stdout: b"x\ny\n".to_vec(),
        exit: 0,
        tree,
        ..Outcome::default()
    };
    assert!(compare(&base, &base.clone()).is_empty());

    let mut other = base.clone();
    other.stdout = b"x\nz\n".to_vec();
    let d = compare(&base, &other);
    assert_eq!(d.len(), 1, "{d:?}");
    assert!(d[0].contains("line 2"), "{d:?}");

    let mut other = base.clone();
    other.exit = 1;
    assert_eq!(compare(&base, &other).len(), 1);

    let mut other = base.clone();
    other
        .tree
        .insert("a/f.txt".into(), Node::File(b"one\nTWO\n".to_vec()));
    other.tree.remove("l");
    other.tree.insert("new".into(), Node::File(Vec::new()));
    let d = compare(&base, &other);
    assert_eq!(d.len(), 3, "{d:?}");

    let mut other = base.clone();
    other.tree.insert("l".into(), Node::Symlink("b".into()));
    assert_eq!(compare(&base, &other).len(), 1);
}

/// The oracle really runs bash in a copy of the fixture, and sees changes.
#[test]
fn oracle_runs_in_a_fixture_copy() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("probe.sh");
    std::fs::write(
        &path,
        "printf '%s\\n' \"${PWD##*/}\" \"$LC_ALL\"; ls README.md; rm README.md; \
         echo new > made.txt; exit 3\n",
    )
    .expect("writing the probe");
    let script = Script {
        name: "000-probe.sh".into(),
        path,
        source: String::new(),
    };
    let out = corpus::run_oracle(&script, TIMEOUT);
    assert_eq!(out.error, None);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        format!("{ROOT_NAME}\nC\nREADME.md\n")
    );
    assert_eq!(out.exit, 3);
    assert!(!out.tree.contains_key("README.md"));
    assert_eq!(
        out.tree.get("made.txt"),
        Some(&Node::File(b"new\n".to_vec()))
    );
    assert_eq!(
        out.tree.get("docs/latest.md"),
        Some(&Node::Symlink("changelog.md".into()))
    );
}
