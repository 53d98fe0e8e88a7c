//! python3's `urllib` and `http.client` over the host's HTTP client
//! (issue 32: outbound connections follow the workspace's allow-list for
//! every guest). Host CPython, run on the same script against the same
//! test server, is the oracle; the allow-list's refusal is ours alone.

use std::process::Command;

use computer_tests::{Ws, component_cache_dir, run_command, text, workspace_root};

use crate::curl::server::Server;

fn ours(ws: &Ws, args: &[&str]) -> (Option<i32>, String, String) {
    let mut cmd = ws.command(args);
    cmd.env("COMPUTER_CACHE_DIR", component_cache_dir());
    let out = run_command(&mut cmd, b"");
    (out.status.code(), text(&out.stdout), text(&out.stderr))
}

#[test]
fn urllib_and_http_client_reach_an_allowed_host_as_natively() {
    let server = Server::start();
    let base = server.url("");
    let script = workspace_root().join("tests/fixtures/python-http/client.py");
    let native = run_command(
        Command::new("/usr/bin/python3").arg(&script).arg(&base),
        b"",
    );
    assert!(native.status.success(), "{}", text(&native.stderr));
    let ws = Ws::new();
    ws.ok(&["net", "allow", &format!("127.0.0.1:{}", server.port)]);
    ws.ok_with(
        &["fs", "write", "/client.py"],
        std::fs::read(&script).unwrap(),
    );
    let (code, stdout, stderr) = ours(&ws, &["run", "python3", "/client.py", &base]);
    assert_eq!(stdout, text(&native.stdout), "stderr: {stderr}");
    assert_eq!(code, Some(0));
    // The header the script set reached the server through the host.
    let puts: Vec<_> = server
        .requests()
        .into_iter()
        .filter(|r| r.method == "PUT")
        .collect();
    assert_eq!(puts.len(), 2, "{puts:?}");
    assert!(
        puts.iter()
            .all(|r| r.header("content-type") == Some("application/json"))
    );
    // Each request of ours is in the audit log.
    let audit = ws.ok(&["audit", "--json"]);
    assert!(audit.contains("/big/300000"), "{audit}");
}

#[test]
fn a_host_off_the_allow_list_is_refused_with_the_way_to_allow_it() {
    let server = Server::start();
    let ws = Ws::new();
    let program = format!(
        "import urllib.request, urllib.error\n\
         try:\n    urllib.request.urlopen({:?})\n\
         except urllib.error.URLError as e:\n    print(type(e.reason).__name__, e.reason)",
        server.url("/hello")
    );
    let (code, stdout, stderr) = ours(&ws, &["run", "python3", "-c", &program]);
    assert_eq!(code, Some(0), "stderr: {stderr}");
    let allow = format!("computer net allow 127.0.0.1:{}", server.port);
    assert!(
        stdout.starts_with("ConnectionRefusedError") && stdout.contains(&allow),
        "{stdout}"
    );
    assert!(server.requests().is_empty(), "nothing reached the server");
}
