//! How long an MCP exec's run lives: a client that cancels the request or
//! goes away cancels the run, and `recover` leaves it alone; and how many
//! run at once (issue 18, items 6 and 12).

use super::raw::Raw;
use super::*;

/// Appends a numbered line to /log until it is stopped.
const APPENDER: &str = "for i in $(seq 1 100000); do echo $i >> /log; sleep 0.05; done";

fn lines(ws: &Ws) -> usize {
    if ws.exists("/log") {
        ws.cat("/log").lines().count()
    } else {
        0
    }
}

/// Waits (at most a minute) until `done` holds.
async fn until(what: &str, mut done: impl FnMut() -> bool) {
    for _ in 0..600 {
        if done() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("{what}: not within a minute");
}

fn statuses(ws: &Ws) -> Vec<String> {
    ws.json(&["runs"])["runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["status"].as_str().unwrap().to_owned())
        .collect()
}

/// `recover` finds nothing to do, and the log does not grow.
fn recover_leaves_it_alone(ws: &Ws) {
    let appended = lines(ws);
    let out = ws
        .command(&["--json", "recover"])
        .env("COMPUTER_CACHE_DIR", component_cache_dir())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", describe(&["recover"], &out));
    assert_eq!(one_json(&out.stdout)["recovered"], json!([]));
    assert_eq!(lines(ws), appended, "the run went on after recover");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_goes_away_cancels_its_runs() {
    let ws = Ws::new();
    let mut raw = Raw::start(&ws, &["--backends", "shell"], &[]).await;
    raw.start_exec(2, APPENDER).await;
    until("the run appends", || lines(&ws) > 0).await;
    let status = raw.hang_up().await;
    assert!(status.success(), "{status}");
    // Recorded before the server exited.
    assert_eq!(statuses(&ws), ["cancelled"]);
    recover_leaves_it_alone(&ws);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancelled_request_cancels_its_run() {
    let ws = Ws::new();
    let mut raw = Raw::start(&ws, &["--backends", "shell"], &[]).await;
    raw.start_exec(2, APPENDER).await;
    until("the run appends", || lines(&ws) > 0).await;
    raw.send(r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2,"reason":"not needed"}}"#)
        .await;
    until("the run is cancelled", || statuses(&ws) == ["cancelled"]).await;
    // The server goes on serving.
    raw.send(r#"{"jsonrpc":"2.0","id":3,"method":"tools/list"}"#)
        .await;
    loop {
        let msg = raw.next().await;
        assert_ne!(msg["id"], 2, "a cancelled request is not answered: {msg}");
        if msg["id"] == 3 {
            assert!(msg["result"]["tools"].is_array(), "{msg}");
            break;
        }
    }
    assert!(raw.hang_up().await.success());
    recover_leaves_it_alone(&ws);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn execs_over_the_cap_are_refused_and_say_so() {
    let ws = Ws::new();
    let mut raw = Raw::start(&ws, &["--backends", "shell"], &[("COMPUTER_MAX_RUNS", "1")]).await;
    raw.start_exec(2, APPENDER).await;
    until("the run appends", || lines(&ws) > 0).await;
    raw.start_exec(3, "echo second").await;
    let reply = raw.next().await;
    assert_eq!(reply["id"], 3, "{reply}");
    assert_eq!(reply["result"]["isError"], true, "{reply}");
    let text = reply["result"]["content"][0]["text"].as_str().unwrap();
    assert!(
        text.contains("too many concurrent runs")
            && text.contains("limit is 1")
            && text.contains("not queued")
            && text.contains("--max-runs"),
        "{text}"
    );
    // Refused runs are not recorded.
    assert_eq!(statuses(&ws), ["running"]);
    assert!(raw.hang_up().await.success());
    assert_eq!(statuses(&ws), ["cancelled"]);
}

#[test]
fn max_runs_must_be_at_least_one() {
    let ws = Ws::new();
    for (args, env) in [
        (&["mcp", "--max-runs", "0"][..], None),
        (&["mcp"][..], Some("0")),
    ] {
        let mut cmd = ws.command(args);
        if let Some(v) = env {
            cmd.env("COMPUTER_MAX_RUNS", v);
        }
        let out = computer_tests::run_command(&mut cmd, b"");
        assert_eq!(out.status.code(), Some(1), "{}", describe(args, &out));
        let (code, msg) = parse_error_line(&out.stderr);
        assert_eq!(code, "EINVAL");
        assert!(msg.contains("--max-runs 0"), "{msg}");
    }
}
