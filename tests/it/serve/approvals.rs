//! The approval flow over HTTP: a module call parks its run, the approval
//! is listed and answered through the API, the run resumes in the server;
//! and after `kill -9` of the server, a restarted one still has the
//! approval, and answering it finishes the run.

use serde_json::{Value, json};

use super::{Served, Sse, serve_cmd};
use crate::cli_durable::{fake_github, github_module};
use computer_tests::{component_cache_dir, computer_bin};

const AGENT: &str = r#"import { postComment } from "ws:github";
try {
  console.log("posted", postComment(7, "LGTM"));
} catch (e) {
  console.log("refused:", e.message);
}"#;

/// Registers `ws:github` in workspace `id`'s file with the CLI.
pub fn add_module(s: &Served, id: &str, port: u16) {
    let db = s.data.join(format!("workspaces/{id}.db"));
    let base = format!("base_url=http://127.0.0.1:{port}");
    let allow = format!("127.0.0.1:{port}");
    let out = std::process::Command::new(computer_bin())
        .arg("--workspace")
        .arg(&db)
        .args(["modules", "add", "ws:github"])
        .arg(github_module())
        .args([
            "--config",
            &base,
            "--config",
            "repo=o/r",
            "--allow-host",
            &allow,
        ])
        .env("COMPUTER_CACHE_DIR", component_cache_dir())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

pub fn start_agent(s: &Served, ws: &str, id: &str) -> Value {
    let doc = s.ok(
        "POST",
        &format!("/workspaces/{ws}/exec"),
        Some(json!({"source": AGENT, "backend": "js", "id": id})),
    );
    assert_eq!(doc["status"], "waiting", "{doc}");
    assert_eq!(doc["pending"][0]["function"], "post-comment", "{doc}");
    doc
}

#[test]
fn approvals_are_answered_over_http_and_survive_a_killed_server() {
    let (port, seen) = fake_github();
    let mut s = Served::start(&[]);
    s.workspace("w");
    add_module(&s, "w", port);
    let approver = s.token("approver", "w", "approve");

    // Approve: the run resumes here and posts once.
    start_agent(&s, "w", "agent-1");
    let pending = s.ok("GET", "/workspaces/w/approvals", None);
    assert_eq!(pending["total"], 1, "{pending}");
    let call = pending["pending"][0]["call_id"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(
        seen.lock().unwrap().is_empty(),
        "nothing is sent before the approval"
    );
    let overview = s.ok("GET", "/approvals", None);
    assert_eq!(overview["workspaces"][0]["pending"], 1);
    let answer = s.req_as(
        Some(&approver),
        "POST",
        "/workspaces/w/approvals/respond",
        Some(
            json!({"run_id": "agent-1", "call_id": call, "answer": {"approved": true}})
                .to_string()
                .as_bytes(),
        ),
    );
    assert_eq!(answer.status, 200, "{}", answer.text());
    assert_eq!(answer.json()["resumed"], true);
    let mut ev = Sse::open(
        &s.addr,
        "GET",
        "/workspaces/w/runs/agent-1/events",
        &s.token,
        None,
    );
    let end = ev.rest();
    let (name, result) = end.last().unwrap();
    assert_eq!(name, "result", "{end:?}");
    assert_eq!(result["status"], "completed", "{result}");
    let record = s.wait_run("w", "agent-1");
    assert!(
        record["stdout"]
            .as_str()
            .unwrap()
            .starts_with("posted https://github.example/"),
        "{record}"
    );
    assert_eq!(seen.lock().unwrap().len(), 1);
    // The answer is audited under the approver's token.
    let rows = s.ok("GET", "/workspaces/w/audit?operation=respond", None);
    assert_eq!(rows["audit"][0]["actor"], "http:approver", "{rows}");
    // Answering again is refused.
    let again = s.req_as(
        Some(&approver),
        "POST",
        "/workspaces/w/approvals/respond",
        Some(
            json!({"run_id": "agent-1", "call_id": call, "answer": true})
                .to_string()
                .as_bytes(),
        ),
    );
    assert!(again.status >= 400, "{}", again.text());

    // Reject with a reason: the agent code sees it as an exception. A
    // client following the parked run stays connected through the answer
    // and sees the resumed run's output and end.
    start_agent(&s, "w", "agent-2");
    let call = s.ok("GET", "/workspaces/w/approvals", None)["pending"][0]["call_id"]
        .as_str()
        .unwrap()
        .to_owned();
    let mut follower = Sse::open(
        &s.addr,
        "GET",
        "/workspaces/w/runs/agent-2/events",
        &s.token,
        None,
    );
    assert_eq!(follower.next_event().unwrap().0, "run");
    let (name, waiting) = follower.next_event().unwrap();
    assert_eq!(name, "waiting");
    assert_eq!(waiting["pending"][0]["call_id"], call.as_str(), "{waiting}");
    s.ok(
        "POST",
        "/workspaces/w/approvals/respond",
        Some(json!({"run_id": "agent-2", "call_id": call, "reject": "not today"})),
    );
    let end = follower.rest();
    let (name, result) = end.last().unwrap();
    assert_eq!(name, "result", "{end:?}");
    assert_eq!(result["status"], "completed", "{result}");
    let record = s.wait_run("w", "agent-2");
    let out = record["stdout"].as_str().unwrap();
    assert!(
        out.starts_with("refused:") && out.contains("not today"),
        "{record}"
    );

    // Parked at an approval when the server is killed: the approval is
    // still there after a restart, and answering it finishes the run.
    start_agent(&s, "w", "agent-3");
    s.kill9();
    let data = s.data.clone();
    let token = s.token.clone();
    let mut s2 = Served::start_on(&data, token, &[]);
    let pending = s2.ok("GET", "/workspaces/w/approvals", None);
    assert_eq!(pending["total"], 1, "{pending}");
    assert_eq!(pending["pending"][0]["run_id"], "agent-3");
    let call = pending["pending"][0]["call_id"]
        .as_str()
        .unwrap()
        .to_owned();
    s2.ok(
        "POST",
        "/workspaces/w/approvals/respond",
        Some(json!({"run_id": "agent-3", "call_id": call, "answer": {"approved": true}})),
    );
    let record = s2.wait_run("w", "agent-3");
    assert_eq!(record["status"], "completed", "{record}");
    assert_eq!(seen.lock().unwrap().len(), 2);

    // SIGTERM while a client follows a parked run: the server still stops
    // (the stream ends), and the run stays parked for the next one.
    start_agent(&s2, "w", "agent-4");
    let mut follower = Sse::open(
        &s2.addr,
        "GET",
        "/workspaces/w/runs/agent-4/events",
        &s2.token,
        None,
    );
    assert_eq!(follower.next_event().unwrap().0, "run");
    assert_eq!(follower.next_event().unwrap().0, "waiting");
    assert!(s2.terminate(), "{}", s2.log());
    assert!(follower.rest().iter().all(|(n, _)| n != "result"));
    let s3 = Served::start_on(&data, s2.token.clone(), &[]);
    let pending = s3.ok("GET", "/workspaces/w/approvals", None);
    assert_eq!(pending["pending"][0]["run_id"], "agent-4", "{pending}");
    let _ = serve_cmd;
}
