//! Network policy changed while a run runs (issue 38): `computer net
//! allow`/`deny` from another process applies to the run's next request.
//! The test waits for what the server saw (no timing is asserted), changes
//! the list, and the looping script sees the change.

use std::process::Stdio;
use std::time::{Duration, Instant};

use computer_tests::{Ws, component_cache_dir, text};

use crate::curl::server::Server;

/// Waits (up to a generous bound, a hang guard) until `done` holds.
fn wait_for(what: &str, mut done: impl FnMut() -> bool) {
    let start = Instant::now();
    while !done() {
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "waited too long for {what}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn allow_and_deny_apply_to_a_running_loop() {
    let s = Server::start();
    let ws = Ws::new();
    let entry = format!("127.0.0.1:{}", s.port);
    let url = s.url("/hello");
    // Denied until allowed, then allowed until denied.
    let script = format!(
        "until curl -sf {url} >/dev/null; do :; done; echo allowed; \
         while curl -sf {url} >/dev/null; do :; done; echo denied"
    );
    let mut cmd = ws.command(&["exec", "--timeout", "300", &script]);
    cmd.env("COMPUTER_CACHE_DIR", component_cache_dir())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let child = cmd.spawn().expect("starting computer exec");
    let denied_rows = || {
        let doc = ws.json(&["audit"]);
        doc["audit"]
            .as_array()
            .map(|a| a.iter().filter(|r| r["outcome"] == "denied").count())
            .unwrap_or(0)
    };
    wait_for("a denied request", || denied_rows() >= 2);
    assert!(s.requests().is_empty());
    ws.ok(&["net", "allow", &entry]);
    wait_for("allowed requests", || s.requests().len() >= 3);
    ws.ok(&["net", "deny", &entry]);
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "allowed\ndenied\n");
}

/// `exec --allow-host` adds a host for that run only; the workspace's list
/// is unchanged and the next run has no network.
#[test]
fn allow_host_opens_a_host_for_one_run() {
    let s = Server::start();
    let ws = Ws::new();
    let entry = format!("127.0.0.1:{}", s.port);
    let url = s.url("/hello");
    let script = format!("curl -sf {url} || echo refused");
    let run = |extra: &[&str]| {
        let mut args = vec!["exec"];
        args.extend_from_slice(extra);
        args.push(&script);
        let mut cmd = ws.command(&args);
        cmd.env("COMPUTER_CACHE_DIR", component_cache_dir());
        text(&computer_tests::run_command(&mut cmd, b"").stdout)
    };
    assert_eq!(run(&["--allow-host", &entry]), "hello\n");
    assert_eq!(run(&[]), "refused\n");
    assert_eq!(run(&["--allow-host", "127.0.0.1:1"]), "refused\n");
    assert!(ws.ok(&["net", "ls"]).starts_with("no hosts allowed"));
    assert_eq!(s.requests().len(), 1);
    let (code, _) = ws.err(&["exec", "--allow-host", "http://x", "true"]);
    assert_eq!(code, "EINVAL");
}
