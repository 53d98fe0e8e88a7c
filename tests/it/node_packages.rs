//! Real npm packages under real node and ours (`tests/node-packages/`, see
//! its README). At test time `npm ci` installs the pinned lock file into a
//! temporary copy of that directory; each `use-*.js|mjs` script then runs
//! with real node there and with our `node` in a workspace holding the
//! same tree (node_modules included): stdout and the exit code must match.
//! The packages' own test suites (`suites/suites.txt`) are compared by exit
//! code and their `# ...` TAP comment lines (test names and counts).
//!
//! Skips, saying why, when node or npm is missing or `npm ci` cannot reach
//! the registry. Until our shell runs `node`, only real node runs, and
//! every script and suite must pass under it.
//!
//! `NODE_PACKAGES_FILTER=SUBSTRING` runs the matching names;
//! `UPDATE_NODE_BASELINE=1` rewrites `baseline.txt`.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use computer_tests::corpus::{copy_tree, parallel_map, run_with_timeout};
use computer_tests::workspace_root;

use crate::node_common::{
    HostRoot, clip, differences, oracle_missing, our_node, parse_baseline, run_ours, runtime,
    summarize, verbatim, workspace_from,
};

/// The packages `package.json` must pin, each with a `use-NAME` script.
const PACKAGES: &[&str] = &[
    "lodash",
    "semver",
    "minimist",
    "yargs",
    "commander",
    "js-yaml",
    "marked",
    "csv-parse",
    "dayjs",
    "uuid",
    "mustache",
    "diff",
    "ajv",
    "chalk",
];

const NPM: &str = "/usr/bin/npm";
const NPM_TIMEOUT: Duration = Duration::from_secs(300);

fn packages_dir() -> PathBuf {
    workspace_root().join("tests/node-packages")
}

/// One thing to run: a `use-*` script or a package's suite.
struct Job {
    name: String,
    source: String,
    suite: bool,
}

/// The TAP comment lines of a suite's output (`# name`, `# tests N`, ...),
/// blanks squeezed: the counts and test names, not durations or stacks.
fn tap_comments(stdout: &[u8]) -> Vec<u8> {
    let mut out = String::new();
    for line in String::from_utf8_lossy(stdout).lines() {
        if line.starts_with("# ") {
            out.push_str(&line.split_whitespace().collect::<Vec<_>>().join(" "));
            out.push('\n');
        }
    }
    out.into_bytes()
}

fn use_scripts(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("tests/node-packages")
        .map(|e| {
            e.expect("an entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .filter(|n| n.starts_with("use-") && (n.ends_with(".js") || n.ends_with(".mjs")))
        .collect();
    names.sort();
    names
}

/// `NAME: COMMAND` lines of `suites/suites.txt`.
fn suites(dir: &Path) -> Vec<(String, String)> {
    let text = std::fs::read_to_string(dir.join("suites/suites.txt")).expect("suites.txt");
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let (name, cmd) = l.split_once(':').expect("suites.txt: NAME: COMMAND");
            (name.trim().to_owned(), cmd.trim().to_owned())
        })
        .collect()
}

fn jobs(dir: &Path) -> (Vec<Job>, bool) {
    let mut all: Vec<Job> = use_scripts(dir)
        .into_iter()
        .map(|n| Job {
            source: format!("node {n}"),
            name: n,
            suite: false,
        })
        .collect();
    all.extend(suites(dir).into_iter().map(|(n, cmd)| Job {
        name: format!("suite:{n}"),
        source: cmd,
        suite: true,
    }));
    match std::env::var("NODE_PACKAGES_FILTER") {
        Ok(f) if !f.is_empty() => {
            let chosen: Vec<Job> = all.into_iter().filter(|j| j.name.contains(&f)).collect();
            assert!(
                !chosen.is_empty(),
                "NODE_PACKAGES_FILTER={f} matches nothing"
            );
            (chosen, true)
        }
        _ => (all, false),
    }
}

/// `npm ci` into a copy of the directory at `<tmp>/work`; Err says why not.
/// npm keeps the host's environment: its registry settings live there.
fn install() -> Result<HostRoot, String> {
    if !Path::new(NPM).exists() {
        return Err(format!("{NPM} is missing (scripts/setup.sh installs npm)"));
    }
    let root = HostRoot::new();
    std::fs::create_dir_all(root.work()).map_err(|e| e.to_string())?;
    for entry in std::fs::read_dir(packages_dir()).map_err(|e| e.to_string())? {
        let entry = entry.map_err(|e| e.to_string())?;
        let name = entry.file_name();
        if name == "node_modules" {
            continue;
        }
        let to = root.work().join(&name);
        if entry.path().is_dir() {
            copy_tree(&entry.path(), &to).map_err(|e| e.to_string())?;
        } else {
            std::fs::copy(entry.path(), &to).map_err(|e| e.to_string())?;
        }
    }
    let mut cmd = Command::new(NPM);
    cmd.args(["ci", "--no-audit", "--no-fund", "--ignore-scripts"])
        .current_dir(root.work());
    let out = run_with_timeout(cmd, NPM_TIMEOUT);
    if out.exit != 0 || out.error.is_some() {
        return Err(format!(
            "`npm ci` failed (is the registry reachable?): exit {}, {:?}: {}",
            out.exit,
            out.error,
            clip(&String::from_utf8_lossy(&out.stderr), 600)
        ));
    }
    Ok(root)
}

#[test]
fn node_packages() {
    if let Some(why) = oracle_missing() {
        println!("node_packages: skipped: {why}");
        return;
    }
    let root = match install() {
        Ok(r) => r,
        Err(why) => {
            println!("node_packages: skipped: {why}");
            return;
        }
    };
    let (jobs, filtered) = jobs(&root.work());
    let view = |j: &Job| if j.suite { tap_comments } else { verbatim };
    let rt = runtime();
    let ours = our_node(rt);
    let ws = match &ours {
        Ok(()) => Some(workspace_from(Some(&root.work())).unwrap_or_else(|e| panic!("{e}"))),
        Err(why) => {
            eprintln!("node_packages: our node is not available ({why}); real node only");
            None
        }
    };
    let results: Vec<(String, Vec<String>)> = parallel_map(&jobs, |j| {
        let want = root.run(&j.source, b"");
        let mut diffs = Vec::new();
        if want.exit != 0 || want.error.is_some() {
            diffs.push(format!(
                "real node fails it: exit {}, {:?}, stderr {}",
                want.exit,
                want.error,
                clip(&String::from_utf8_lossy(&want.stderr), 300)
            ));
        }
        if let Some(ws) = &ws {
            let got = run_ours(rt, ws, &j.name, &j.source, b"");
            diffs.extend(differences(&want, &got, view(j)));
        }
        (j.name.clone(), diffs)
    });
    let broken: Vec<&(String, Vec<String>)> = results
        .iter()
        .filter(|(_, d)| d.iter().any(|l| l.starts_with("real node fails")))
        .collect();
    assert!(broken.is_empty(), "real node does not pass: {broken:#?}");
    if ws.is_none() {
        println!(
            "node packages, real node only: {} scripts and suites pass",
            jobs.len()
        );
        return;
    }
    let (passing, report) = summarize(results, "node packages", jobs.len());
    crate::node_common::check_baseline(
        &packages_dir().join("baseline.txt"),
        "Node packages baseline: the use-* scripts and suite:* runs that matched\n\
         real node 20 when this was recorded; each must keep matching. Rewrite:\n  \
         UPDATE_NODE_BASELINE=1 cargo test -p computer-tests --test it -- node_packages",
        &passing,
        &jobs.iter().map(|j| j.name.clone()).collect(),
        filtered,
        report,
    );
}

/// The package list is pinned and locked, each package has its script, and
/// the baseline names real things; no network needed.
#[test]
fn node_packages_are_pinned() {
    let dir = packages_dir();
    let manifest = std::fs::read_to_string(dir.join("package.json")).expect("package.json");
    let json: serde_json::Value = serde_json::from_str(&manifest).expect("package.json is JSON");
    let lock = std::fs::read_to_string(dir.join("package-lock.json")).expect("package-lock.json");
    let lock: serde_json::Value = serde_json::from_str(&lock).expect("the lock is JSON");
    let scripts = use_scripts(&dir);
    for section in ["dependencies", "devDependencies"] {
        for (name, version) in json[section].as_object().expect(section) {
            let v = version.as_str().unwrap_or("");
            assert!(
                !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit() || b == b'.'),
                "{name} is not pinned to an exact version: {v:?}"
            );
            let locked = &lock["packages"][format!("node_modules/{name}")]["version"];
            assert_eq!(
                locked.as_str(),
                Some(v),
                "{name}: package-lock.json disagrees"
            );
        }
    }
    for p in PACKAGES {
        assert!(
            json["dependencies"][p].is_string(),
            "{p} is not a dependency"
        );
        assert!(
            scripts
                .iter()
                .any(|s| s == &format!("use-{p}.js") || s == &format!("use-{p}.mjs")),
            "no use-{p}.js or use-{p}.mjs"
        );
    }
    let suites = suites(&dir);
    assert!(suites.len() >= 3, "only {} package suites", suites.len());
    let text = std::fs::read_to_string(dir.join("baseline.txt")).expect("baseline.txt");
    for name in parse_baseline(&text).unwrap_or_else(|e| panic!("{e}")) {
        let known =
            scripts.contains(&name) || suites.iter().any(|(n, _)| name == format!("suite:{n}"));
        assert!(
            known,
            "baseline.txt lists {name}, which is neither a script nor a suite"
        );
    }
    assert_eq!(
        String::from_utf8(tap_comments(b"TAP\n# a test\nok 1\n# pass  3\n#nope\n")).unwrap(),
        "# a test\n# pass 3\n"
    );
}
