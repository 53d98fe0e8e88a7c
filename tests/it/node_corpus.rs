//! The node oracle corpus (`tests/node-corpus/`, see its README): every
//! script runs with real node 20 in a temporary copy of the corpus
//! directory, and with our `node` in the `shell` backend of one workspace
//! holding the same copy at `/work`. Stdout and the exit code must match,
//! and where node wrote to stderr ours must too. `NNN-nodetest-*` scripts
//! are compared by their exit code and `# tests|pass|fail N` lines only.
//!
//! Until our shell runs `node`, the corpus runs against real node alone
//! (each script twice, identical, no temporary path in its output), so the
//! corpus itself stays sound.
//!
//! Environment: `NODE_CORPUS_FILTER=SUBSTRING` runs the matching scripts;
//! `UPDATE_NODE_BASELINE=1` rewrites `baseline.txt`.

use std::collections::BTreeSet;
use std::path::PathBuf;

use computer_tests::corpus::{Outcome, copy_tree, parallel_map};
use computer_tests::workspace_root;

use crate::node_common::{
    HostRoot, differences, env_flag, line_diff, oracle_missing, our_node, parse_baseline, run_ours,
    runtime, summarize, verbatim, workspace_from,
};

/// Fewer scripts than this means the corpus was not found or got cut.
const MIN_SCRIPTS: usize = 110;

/// Entries of the corpus directory that are not scripts.
const OTHER_ENTRIES: &[&str] = &["README.md", "baseline.txt", "fixtures"];

fn corpus_dir() -> PathBuf {
    workspace_root().join("tests/node-corpus")
}

#[derive(Debug, Clone)]
struct Script {
    name: String,
    /// The shell source both sides run.
    source: String,
    stdin: Vec<u8>,
    /// The first lines, which say what the script checks.
    text: String,
}

impl Script {
    fn nodetest(&self) -> bool {
        self.name[3..].starts_with("-nodetest-")
    }

    fn view(&self) -> fn(&[u8]) -> Vec<u8> {
        if self.nodetest() {
            test_summary
        } else {
            verbatim
        }
    }
}

/// The `node --test` summary lines (`# tests N`, `# pass N`, `# fail N`)
/// and the lines a script echoes itself (`corpus: ...`); durations and
/// file paths in the rest of a TAP report differ from run to run.
fn test_summary(stdout: &[u8]) -> Vec<u8> {
    let text = String::from_utf8_lossy(stdout);
    let mut out = String::new();
    for line in text.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        let summary = matches!(words.as_slice(), ["#", "tests" | "pass" | "fail", n]
            if n.bytes().all(|b| b.is_ascii_digit()));
        if summary || line.starts_with("corpus: ") {
            out.push_str(&words.join(" "));
            out.push('\n');
        }
    }
    out.into_bytes()
}

/// `NNN-lowercase-words.EXT`, EXT one of the script kinds.
fn split_name(name: &str) -> Option<(&str, &str)> {
    let (stem, ext) = name.rsplit_once('.')?;
    let b = stem.as_bytes();
    let ok = b.len() > 4
        && b[..3].iter().all(u8::is_ascii_digit)
        && b[3] == b'-'
        && stem[4..].split('-').all(|w| {
            !w.is_empty()
                && w.bytes()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        });
    ok.then_some((stem, ext))
}

/// Every script, sorted; a stray or malformed entry is an error, so a typo
/// cannot silently drop a script.
fn load_scripts() -> Result<Vec<Script>, String> {
    let dir = corpus_dir();
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .map(|e| e.map(|e| e.file_name().to_string_lossy().into_owned()))
        .collect::<Result<_, _>>()
        .map_err(|e| e.to_string())?;
    names.sort();
    let mut problems = Vec::new();
    let mut scripts = Vec::new();
    let mut stems = BTreeSet::new();
    let mut numbers = BTreeSet::new();
    for name in names
        .iter()
        .filter(|n| !OTHER_ENTRIES.contains(&n.as_str()))
    {
        let Some((stem, ext)) = split_name(name) else {
            problems.push(format!("not NNN-words.EXT: {name:?}"));
            continue;
        };
        if matches!(ext, "args" | "stdin") {
            continue;
        }
        if !matches!(ext, "js" | "mjs" | "cjs" | "sh") {
            problems.push(format!("{name}: not .js, .mjs, .cjs, .sh, .args or .stdin"));
            continue;
        }
        if !numbers.insert(stem[..3].to_owned()) {
            problems.push(format!("two scripts numbered {}", &stem[..3]));
        }
        stems.insert(stem.to_owned());
        let read = |p: PathBuf| std::fs::read(&p).map_err(|e| format!("{}: {e}", p.display()));
        let text = String::from_utf8(read(dir.join(name))?).map_err(|e| format!("{name}: {e}"))?;
        let stdin = match dir.join(format!("{stem}.stdin")) {
            p if p.exists() => read(p)?,
            _ => Vec::new(),
        };
        let source = if ext == "sh" {
            text.clone()
        } else {
            match dir.join(format!("{stem}.args")) {
                p if p.exists() => {
                    let args = String::from_utf8(read(p)?).map_err(|e| e.to_string())?;
                    format!("node {name} {}", args.trim())
                }
                _ => format!("node {name}"),
            }
        };
        scripts.push(Script {
            name: name.clone(),
            source,
            stdin,
            text,
        });
    }
    for name in &names {
        if let Some((stem, "args" | "stdin")) = split_name(name)
            && !stems.contains(stem)
        {
            problems.push(format!("{name} belongs to no script"));
        }
    }
    if problems.is_empty() {
        Ok(scripts)
    } else {
        Err(problems.join("\n"))
    }
}

fn selected() -> (Vec<Script>, bool) {
    let all = load_scripts().unwrap_or_else(|e| panic!("bad node corpus:\n{e}"));
    assert!(all.len() >= MIN_SCRIPTS, "only {} scripts", all.len());
    match std::env::var("NODE_CORPUS_FILTER") {
        Ok(f) if !f.is_empty() => {
            let chosen: Vec<Script> = all.into_iter().filter(|s| s.name.contains(&f)).collect();
            assert!(
                !chosen.is_empty(),
                "NODE_CORPUS_FILTER={f} matches no script"
            );
            (chosen, true)
        }
        _ => (all, false),
    }
}

/// A host copy of the corpus at `<tmp>/work`.
fn host_copy() -> HostRoot {
    let root = HostRoot::new();
    copy_tree(&corpus_dir(), &root.work()).expect("copying the corpus");
    root
}

/// Oracle only: each script twice in two copies, the same both times, and
/// no temporary path left in the output.
fn check_oracle_only(scripts: &[Script], why: &str) {
    eprintln!(
        "node_corpus: our node is not available ({why}); the {} scripts run against real node \
         only (determinism checks)",
        scripts.len()
    );
    let (first, second) = (host_copy(), host_copy());
    let problems: Vec<String> = parallel_map(scripts, |s| {
        let a = first.run(&s.source, &s.stdin);
        let b = second.run(&s.source, &s.stdin);
        let mut issues = Vec::new();
        let view = s.view();
        if view(&a.stdout) != view(&b.stdout) || a.exit != b.exit {
            issues.push(format!(
                "two runs differ (exit {} vs {}):\n{}",
                a.exit,
                b.exit,
                line_diff(
                    &String::from_utf8_lossy(&view(&a.stdout)),
                    &String::from_utf8_lossy(&view(&b.stdout))
                )
            ));
        }
        if String::from_utf8_lossy(&view(&a.stdout)).contains("/tmp/") {
            issues.push("stdout shows a temporary path".into());
        }
        issues.extend(a.error.iter().map(|e| format!("error: {e}")));
        (!issues.is_empty()).then(|| format!("{}: {}", s.name, issues.join("\n  ")))
    })
    .into_iter()
    .flatten()
    .collect();
    println!(
        "node corpus, oracle only: {} of {} scripts deterministic under real node",
        scripts.len() - problems.len(),
        scripts.len()
    );
    assert!(
        problems.is_empty(),
        "{} scripts are not fit for the corpus:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

fn check_against_ours(scripts: &[Script], filtered: bool) {
    let rt = runtime();
    let oracle = host_copy();
    let ws = workspace_from(Some(&corpus_dir())).unwrap_or_else(|e| panic!("{e}"));
    let results: Vec<(String, Vec<String>)> = parallel_map(scripts, |s| {
        let want: Outcome = oracle.run(&s.source, &s.stdin);
        if let Some(e) = &want.error {
            panic!("{}: real node's run failed: {e}", s.name);
        }
        let got = run_ours(rt, &ws, &s.name, &s.source, &s.stdin);
        (s.name.clone(), differences(&want, &got, s.view()))
    });
    let (passing, report) = summarize(results, "node corpus", scripts.len());
    let names = scripts.iter().map(|s| s.name.clone()).collect();
    crate::node_common::check_baseline(
        &corpus_dir().join("baseline.txt"),
        "Node corpus baseline: the scripts whose stdout and exit code matched\n\
         real node 20 when this was recorded; each must keep matching. Rewrite:\n  \
         UPDATE_NODE_BASELINE=1 cargo test -p computer-tests --test it -- node_corpus",
        &passing,
        &names,
        filtered,
        report,
    );
}

#[test]
fn node_corpus() {
    if let Some(why) = oracle_missing() {
        println!("node_corpus: skipped: {why}");
        return;
    }
    let (scripts, filtered) = selected();
    match our_node(runtime()) {
        Ok(()) => check_against_ours(&scripts, filtered),
        Err(why) => check_oracle_only(&scripts, &why),
    }
}

/// The corpus is well formed and covers its areas, with or without node.
#[test]
fn node_corpus_is_well_formed() {
    let scripts = load_scripts().unwrap_or_else(|e| panic!("bad node corpus:\n{e}"));
    assert!(
        scripts.len() >= MIN_SCRIPTS,
        "only {} scripts",
        scripts.len()
    );
    for s in &scripts {
        let comment = if s.name.ends_with(".sh") { "# " } else { "// " };
        assert!(
            s.text.starts_with(comment),
            "{} does not start with a `{comment}` line saying what it checks",
            s.name
        );
        assert!(s.text.lines().count() <= 40, "{} is over 40 lines", s.name);
        assert!(
            !s.text.contains("/work/"),
            "{} names an absolute /work path",
            s.name
        );
    }
    for area in [
        "cjs", "esm", "fs", "path", "events", "util", "crypto", "zlib", "readline", "child",
        "loop", "stream", "url", "buffer", "json", "timers", "abort", "nodetest", "exit",
        "process",
    ] {
        let n = scripts
            .iter()
            .filter(|s| s.name[4..].starts_with(area))
            .count();
        assert!(n >= 1, "no script covers {area}");
    }
    let text = std::fs::read_to_string(corpus_dir().join("baseline.txt")).expect("baseline.txt");
    for name in parse_baseline(&text).unwrap_or_else(|e| panic!("{e}")) {
        assert!(
            scripts.iter().any(|s| s.name == name),
            "baseline.txt lists {name}, which is not a script"
        );
    }
}

#[test]
fn node_test_summary_keeps_only_the_counts() {
    let tap = b"TAP version 13\n# Subtest: a\nok 1 - a\n  ---\n  duration_ms: 1.2\n\
        # tests 3\n# suites 0\n# pass  2\n# fail 1\n# duration_ms 41.5\ncorpus: exit 1\n";
    assert_eq!(
        String::from_utf8(test_summary(tap)).unwrap(),
        "# tests 3\n# pass 2\n# fail 1\ncorpus: exit 1\n"
    );
    assert_eq!(split_name("001-cjs-a.js"), Some(("001-cjs-a", "js")));
    assert_eq!(
        split_name("074-readline-x.stdin"),
        Some(("074-readline-x", "stdin"))
    );
    assert!(split_name("1-a.js").is_none() && split_name("001-A.js").is_none());
    assert!(
        env_flag("NODE_CORPUS_SURELY_UNSET_VARIABLE")
            .then_some(())
            .is_none()
    );
}
