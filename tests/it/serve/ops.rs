//! Operations: body and rate limits, `/healthz`, `/metrics`, SIGTERM.

use serde_json::json;

use super::{Served, Sse};

#[test]
fn oversized_bodies_and_request_floods_are_refused() {
    let s = Served::start(&["--max-body", "1024", "--rate-limit", "3"]);
    s.workspace("w");
    let big = vec![b'x'; 4096];
    let r = s.req("PUT", "/workspaces/w/files/write?path=%2Fbig", Some(&big));
    assert_eq!((r.status, r.code()), (413, "EFBIG".into()), "{}", r.text());
    let json_body = format!("{{\"source\": \"{}\"}}", "y".repeat(4096));
    let r = s.req("POST", "/workspaces/w/exec", Some(json_body.as_bytes()));
    assert_eq!(r.status, 413, "{}", r.text());
    assert_eq!(
        s.req("GET", "/workspaces/w/files/stat?path=%2Fbig", None)
            .status,
        404
    );
    // A burst past twice the rate: some are refused with Retry-After.
    let statuses: Vec<u16> = (0..20)
        .map(|_| s.req("GET", "/workspaces", None).status)
        .collect();
    let refused = statuses.iter().filter(|c| **c == 429).count();
    assert!(refused > 0, "{statuses:?}");
    let r = s.req("GET", "/workspaces", None);
    if r.status == 429 {
        assert!(r.header("retry-after").is_some());
        assert_eq!(r.code(), "EAGAIN");
    }
}

#[test]
fn health_metrics_and_a_graceful_sigterm() {
    let mut s = Served::start(&[]);
    assert_eq!(
        s.req_as(None, "GET", "/healthz", None).json(),
        json!({"status": "ok"})
    );
    s.workspace("w");
    let ran = s.ok(
        "POST",
        "/workspaces/w/exec",
        Some(json!({"source": "echo hi"})),
    );
    assert_eq!(ran["exit_code"], 0);
    let m = s.req("GET", "/metrics", None);
    assert_eq!(m.status, 200);
    let text = m.text();
    assert!(
        text.contains("computer_runs_total{backend=\"shell\",status=\"completed\"} 1"),
        "{text}"
    );
    assert!(
        text.contains("computer_run_duration_seconds_count{backend=\"shell\"} 1"),
        "{text}"
    );
    assert!(
        text.contains("computer_http_requests_total{method=\"POST\",status=\"200\"}"),
        "{text}"
    );
    assert!(text.contains("computer_approvals_pending 0"));
    assert!(text.contains("computer_store_bytes "));

    // A run going on when SIGTERM comes is cancelled and recorded; the
    // process exits 0.
    let body = json!({"source": "echo going; sleep 60; echo late > /late.txt", "stream": true})
        .to_string();
    let mut run = Sse::open(
        &s.addr,
        "POST",
        "/workspaces/w/exec",
        &s.token,
        Some(body.as_bytes()),
    );
    let id = run.next_event().unwrap().1["run_id"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(run.next_event().unwrap().0, "stdout");
    assert!(s.terminate(), "{}", s.log());
    let ended = run.rest();
    assert_eq!(
        ended.last().map(|(n, _)| n.as_str()),
        Some("result"),
        "{ended:?}"
    );
    assert_eq!(ended.last().unwrap().1["status"], "cancelled");
    let data = s.data.clone();
    let token = s.token.clone();
    let s = Served::start_on(&data, token, &[]);
    let record = s.ok("GET", &format!("/workspaces/w/runs/{id}"), None);
    assert_eq!(record["status"], "cancelled", "{record}");
    assert_eq!(
        s.req("GET", "/workspaces/w/files/stat?path=%2Flate.txt", None)
            .status,
        404
    );
}
