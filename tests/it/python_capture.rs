//! `os.dup` and `os.dup2` in python3 (issue 32), and so pytest's default
//! output capture: host CPython and host pytest are the oracles, on the
//! same files. `tests/fixtures/python-capture/` holds the script and the
//! test project; pytest itself (pinned, pure Python) is put under
//! `target/python-packages/` by `scripts/setup.sh`.

use std::path::{Path, PathBuf};
use std::process::Command;

use computer_tests::corpus::copy_tree;
use computer_tests::{Ws, component_cache_dir, run_command, text, workspace_root};

const PYTEST_VERSION: &str = "9.2.0";

fn fixture() -> PathBuf {
    workspace_root().join("tests/fixtures/python-capture")
}

fn pytest_dir() -> PathBuf {
    let dir = workspace_root().join(format!("target/python-packages/pytest-{PYTEST_VERSION}"));
    assert!(
        dir.join("pytest").is_dir(),
        "{} is missing: run scripts/setup.sh",
        dir.display()
    );
    dir
}

/// `computer ARGS` with the shared component cache: exit code and stdout.
fn ours(ws: &Ws, args: &[&str]) -> (Option<i32>, String, String) {
    let mut cmd = ws.command(args);
    cmd.env("COMPUTER_CACHE_DIR", component_cache_dir());
    let out = run_command(&mut cmd, b"");
    (out.status.code(), text(&out.stdout), text(&out.stderr))
}

fn native(dir: &Path, args: &[&str], pythonpath: Option<&Path>) -> (Option<i32>, String) {
    let mut cmd = Command::new("/usr/bin/python3");
    cmd.args(args).current_dir(dir);
    // The sandbox does not see the host's environment, so neither may the
    // oracle: pytest stops truncating its short summary when `CI` is set, and
    // widths and colours follow the others.
    for var in [
        "CI",
        "BUILD_NUMBER",
        "COLUMNS",
        "PYTEST_ADDOPTS",
        "PY_COLORS",
        "NO_COLOR",
        "FORCE_COLOR",
    ] {
        cmd.env_remove(var);
    }
    if let Some(p) = pythonpath {
        cmd.env("PYTHONPATH", p);
    }
    let out = run_command(&mut cmd, b"");
    (out.status.code(), text(&out.stdout))
}

#[test]
fn dup_and_dup2_do_what_cpython_does_on_linux() {
    let ws = Ws::new();
    let script = fixture().join("dup.py");
    ws.ok_with(&["fs", "write", "/dup.py"], std::fs::read(&script).unwrap());
    let (code, stdout, stderr) = ours(&ws, &["exec", "python3 /dup.py"]);
    let (want_code, want) = native(&fixture(), &["dup.py"], None);
    assert_eq!(stdout, want, "stderr: {stderr}");
    assert_eq!(code, want_code);
    // The same in the python backend (a runner, not a command).
    let source = std::fs::read_to_string(&script).unwrap();
    let (code, stdout, stderr) = ours(&ws, &["exec", "--backend", "python", &source]);
    assert_eq!(stdout, want, "stderr: {stderr}");
    assert_eq!(code, want_code);
}

#[test]
fn dup2_past_the_standard_descriptors_says_so() {
    let ws = Ws::new();
    let (code, stdout, stderr) = ours(
        &ws,
        &[
            "run",
            "python3",
            "-c",
            "import os\ntry:\n    os.dup2(1, 5)\nexcept OSError as e:\n    print(e)",
        ],
    );
    assert_eq!(code, Some(0), "stderr: {stderr}");
    assert!(
        stdout.contains("only 0, 1 and 2 can be redirected"),
        "{stdout}"
    );
}

/// pytest's report with what differs by machine blanked: the platform
/// line, the rootdir, object addresses and the time taken.
fn normalized(report: &str) -> String {
    report
        .lines()
        .map(|line| {
            if line.starts_with("platform ") {
                "platform …".to_owned()
            } else if line.starts_with("rootdir: ") {
                "rootdir: …".to_owned()
            } else {
                let line = blank_after(line, " object at 0x", |c| c.is_ascii_hexdigit());
                blank_after(&line, " in ", |c| c.is_ascii_digit() || c == '.')
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// `line` with the run of `keep` characters after each `marker` removed.
fn blank_after(line: &str, marker: &str, keep: impl Fn(char) -> bool) -> String {
    let mut out = String::new();
    let mut rest = line;
    while let Some(at) = rest.find(marker) {
        let (head, tail) = rest.split_at(at + marker.len());
        out.push_str(head);
        let skipped = tail.find(|c: char| !keep(c)).unwrap_or(tail.len());
        rest = &tail[skipped..];
    }
    out.push_str(rest);
    out
}

#[test]
fn pytest_captures_output_as_it_does_natively() {
    let host = tempfile::tempdir().unwrap();
    let proj = host.path().join("proj");
    copy_tree(&fixture().join("proj"), &proj).unwrap();
    copy_tree(&pytest_dir(), &proj.join("site-packages")).unwrap();
    let ws = Ws::new();
    ws.ok(&["import", proj.to_str().unwrap(), "/proj"]);
    let args = ["-m", "pytest", "-p", "no:cacheprovider"];
    let (want_code, want) = native(&proj, &args, Some(Path::new("site-packages")));
    let script = format!(
        "cd /proj && PYTHONPATH=site-packages python3 {}",
        args.join(" ")
    );
    let (code, got, stderr) = ours(&ws, &["exec", &script]);
    assert_eq!(normalized(&got), normalized(&want), "stderr: {stderr}");
    assert_eq!(code, want_code);
    // Two of the six fail, on purpose: the report is what is compared.
    assert!(want.contains("2 failed, 4 passed"), "{want}");
}
