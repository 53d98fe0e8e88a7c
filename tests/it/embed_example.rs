//! `examples/embed-agent`, run as its README says, step by step in separate
//! processes: the approval that survives a crash, the rejection, the audit
//! rows they leave, and the whole story with no arguments.

use std::path::Path;
use std::process::{Command, Output};
use std::sync::OnceLock;

use computer_store::{AuditQuery, AuditRecord, RunRecord, RunStatus, Workspace};
use computer_tests::{Value, component_cache_dir, package_bin, text};

fn example(args: &[&str], dir: &Path) -> Output {
    static BIN: OnceLock<std::path::PathBuf> = OnceLock::new();
    let bin = BIN.get_or_init(|| package_bin("example-embed-agent", "example-embed-agent"));
    let mut cmd = Command::new(bin);
    cmd.env("COMPUTER_CACHE_DIR", component_cache_dir());
    if let Some((word, rest)) = args.split_first() {
        cmd.arg(word).arg(dir).args(rest);
    }
    cmd.output().expect("the example starts")
}

fn shown(args: &[&str], out: &Output) -> String {
    format!(
        "example-embed-agent {args:?}: {}\nstdout: {}\nstderr: {}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// Runs a step that must exit with `code`.
fn step(dir: &Path, args: &[&str], code: i32) -> Output {
    let out = example(args, dir);
    assert_eq!(out.status.code(), Some(code), "{}", shown(args, &out));
    out
}

fn only_run(ws: &Workspace) -> RunRecord {
    let runs = ws.runs().list(Default::default()).unwrap();
    assert_eq!(runs.len(), 1, "{runs:?}");
    ws.runs().get(&runs[0].id).unwrap().unwrap()
}

fn comments(dir: &Path) -> Vec<Value> {
    match std::fs::read(dir.join("github.json")) {
        Ok(bytes) => serde_json::from_slice(&bytes).unwrap(),
        Err(_) => Vec::new(),
    }
}

/// `(operation, outcome, actor)` of the audit rows of the run's module
/// calls, of the answers given to it (and whether they approved) and of
/// its resumes.
fn approvals_audit(ws: &Workspace, run_id: &str) -> Vec<(String, String, String)> {
    let rows: Vec<AuditRecord> = ws.audit().query(&AuditQuery::default()).unwrap();
    rows.into_iter()
        .filter(|r| ["module_call", "respond", "resume"].contains(&r.operation.as_str()))
        .filter(|r| r.args.as_deref().is_some_and(|a| a.contains(run_id)))
        .map(|r| {
            let actor = if r.actor.starts_with("run:") {
                "run".to_owned()
            } else {
                r.actor
            };
            let operation = match r.operation.as_str() {
                "respond" => {
                    let args: Value = serde_json::from_str(r.args.as_deref().unwrap()).unwrap();
                    format!("respond approved={}", args["approved"])
                }
                _ => r.operation,
            };
            (operation, r.outcome, actor)
        })
        .collect()
}

fn row(op: &str, outcome: &str, actor: &str) -> (String, String, String) {
    (op.into(), outcome.into(), actor.into())
}

#[test]
fn an_approved_comment_is_posted_once_across_a_crash_and_recover() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    step(dir, &["run"], 0);
    let ws = Workspace::open(dir.join("workspace.db")).unwrap();
    let parked = only_run(&ws);
    assert_eq!(parked.status, RunStatus::Waiting);
    let pending = ws.interrupts().pending().unwrap();
    assert_eq!(pending.len(), 1, "{pending:?}");
    let payload: Value = serde_json::from_str(&pending[0].payload).unwrap();
    assert_eq!(payload["issue"], 7);
    let review = text(&ws.read("/review.md").unwrap());
    assert_eq!(payload["body"], review.as_str());
    assert!(comments(dir).is_empty(), "posted before the approval");

    // The process dies after the post, before the run records it.
    let crashed = step(dir, &["approve", "--crash-after-post"], 99);
    assert!(text(&crashed.stderr).contains("simulated crash"));
    assert_eq!(only_run(&ws).status, RunStatus::Running);
    assert_eq!(comments(dir).len(), 1);

    let out = step(dir, &["recover"], 0);
    let run = only_run(&ws);
    assert_eq!(
        run.status,
        RunStatus::Completed,
        "{}",
        shown(&["recover"], &out)
    );
    let posted = comments(dir);
    assert_eq!(posted.len(), 1, "the replay posted again: {posted:?}");
    assert_eq!(posted[0]["key"], pending[0].call_id.as_str());
    let value: Value = serde_json::from_str(run.value.as_deref().unwrap()).unwrap();
    assert_eq!(value["posted"], posted[0]["url"]);
    assert!(text(&out.stdout).contains(&format!("recovered run {}", run.id)));

    // The first call parked; the reviewer's answer and the attempt it
    // started are on record although that process died; the call it cut
    // short left no row; the attempt `recover` made completed it.
    assert_eq!(
        approvals_audit(&ws, &run.id),
        [
            row("module_call", "waiting", "run"),
            row("respond approved=true", "ok", "reviewer:alice"),
            row("resume", "ok", "reviewer:alice"),
            row("resume", "ok", "embedder"),
            row("module_call", "ok", "run"),
        ]
    );
}

#[test]
fn a_rejected_comment_is_a_thrown_error_and_nothing_is_posted() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    step(dir, &["run"], 0);
    let out = step(dir, &["reject", "not before the release"], 0);
    let ws = Workspace::open(dir.join("workspace.db")).unwrap();
    let run = only_run(&ws);
    assert_eq!(
        run.status,
        RunStatus::Completed,
        "{}",
        shown(&["reject"], &out)
    );
    let value: Value = serde_json::from_str(run.value.as_deref().unwrap()).unwrap();
    let thrown = value["rejected"].as_str().unwrap_or_default();
    assert!(thrown.contains("not before the release"), "{value}");
    assert!(comments(dir).is_empty());
    assert!(ws.interrupts().pending().unwrap().is_empty());
    assert_eq!(
        approvals_audit(&ws, &run.id),
        [
            row("module_call", "waiting", "run"),
            row("respond approved=false", "ok", "reviewer:alice"),
            row("resume", "ok", "reviewer:alice"),
            row("module_call", "denied", "run"),
        ]
    );
    // Nothing is left for a later start to do.
    assert_eq!(
        text(&step(dir, &["recover"], 0).stdout),
        "nothing to recover\n"
    );
}

#[test]
fn with_no_arguments_it_tells_the_whole_story_and_bad_arguments_are_named() {
    let out = example(&[], Path::new(""));
    assert!(out.status.success(), "{}", shown(&[], &out));
    let stdout = text(&out.stdout);
    assert_eq!(
        stdout.matches("comments on GitHub: 1").count(),
        1,
        "{stdout}"
    );
    assert!(stdout.contains("comments on GitHub: 0"), "{stdout}");

    let dir = tempfile::tempdir().unwrap();
    let out = step(dir.path(), &["aprove"], 1);
    assert!(text(&out.stderr).contains("unknown arguments [\"aprove\""));
    let out = step(dir.path(), &["approve"], 1);
    assert!(
        text(&out.stderr).contains("no run is waiting"),
        "{}",
        shown(&[], &out)
    );
}
