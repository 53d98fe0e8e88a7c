//! curl in a durable run that dies mid-way (the process is killed while
//! the script sleeps) and is recovered: the replay sends a GET again
//! (idempotent, no response recorded) and the run completes, but it never
//! sends a POST again (its row was marked unsafe to repeat before it was
//! sent): that run fails saying the request may have taken effect.

use std::time::{Duration, Instant};

use super::*;

/// Starts `script` as durable run `id`, kills the process once the server
/// has seen `requests` requests, and recovers it; the run's record.
fn kill_and_recover(
    ws: &Ws,
    s: &Server,
    id: &str,
    script: &str,
    requests: usize,
) -> serde_json::Value {
    let mut cmd = ws.command(&["exec", "--id", id, "--timeout", "120", script]);
    cmd.env("COMPUTER_CACHE_DIR", component_cache_dir());
    cmd.stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    let mut child = cmd.spawn().expect("starting computer exec");
    let until = Instant::now() + Duration::from_secs(60);
    while s.requests().len() < requests && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(50));
    }
    // Kill it the hard way at once: a GET is sent again whether or not its
    // response was recorded, and a POST's row was marked before it was
    // sent, so no wait for the run to reach its sleep is needed (that wait
    // was a guess at the machine's speed).
    child.kill().expect("killing computer exec");
    let _ = child.wait();
    assert_eq!(s.requests().len(), requests, "{:?}", s.requests());
    let out = run(ws, &["recover"]);
    assert!(out.status.success(), "{}", describe(&["recover"], &out));
    ws.json(&["runs", "show", id])
}

fn methods(s: &Server) -> Vec<String> {
    s.requests().iter().map(|r| r.method.clone()).collect()
}

#[test]
fn a_recovered_run_sends_a_get_again() {
    have_curl();
    let s = Server::start();
    let ws = allowed(&s);
    let script = format!("curl -s {}; sleep 3; echo done", s.url("/hello"));
    let rec = kill_and_recover(&ws, &s, "get-1", &script, 1);
    assert_eq!(methods(&s), ["GET", "GET"]);
    assert_eq!(rec["status"], "completed", "{rec}");
    assert_eq!(rec["stdout"], "hello\ndone\n", "{rec}");
}

#[test]
fn a_recovered_run_does_not_post_twice() {
    have_curl();
    let s = Server::start();
    let ws = allowed(&s);
    let script = format!(
        "curl -s -X POST -d x=1 {} >/dev/null; sleep 30; echo done",
        s.url("/echo")
    );
    let rec = kill_and_recover(&ws, &s, "post-1", &script, 1);
    assert_eq!(methods(&s), ["POST"], "the POST is never sent again");
    assert_eq!(rec["status"], "failed", "{rec}");
    let error = rec["error"].as_str().unwrap_or_default();
    assert!(
        error.contains("POST http://127.0.0.1:")
            && error.contains("may have taken effect, so it was not sent again"),
        "{rec}"
    );
}
