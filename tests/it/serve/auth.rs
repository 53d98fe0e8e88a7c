//! Tokens: none, wrong, revoked, scoped to another workspace, lacking a
//! right; admin-only endpoints; every request audited under its token.

use serde_json::json;

use super::{Served, admin_token, serve_cmd};

#[test]
fn tokens_are_checked_scoped_and_audited() {
    let s = Served::start(&[]);
    s.workspace("w1");
    s.workspace("w2");
    s.req(
        "PUT",
        "/workspaces/w1/files/write?path=%2Fa.txt",
        Some(b"a"),
    );
    s.req(
        "PUT",
        "/workspaces/w2/files/write?path=%2Fb.txt",
        Some(b"b"),
    );

    // No token, a made-up one, a malformed header: 401, JSON error.
    for token in [None, Some("ctk_not-a-token"), Some("")] {
        let r = s.req_as(token, "GET", "/workspaces", None);
        assert_eq!((r.status, r.code()), (401, "EAUTH".into()), "{token:?}");
        assert_eq!(r.header("www-authenticate"), Some("Bearer"));
    }
    // Health and the API's description need none.
    assert_eq!(s.req_as(None, "GET", "/healthz", None).status, 200);
    assert_eq!(s.req_as(None, "GET", "/openapi.json", None).status, 200);

    let reader = s.token("reader", "w1", "read");
    let execer = s.token("execer", "w1", "exec");
    let approver = s.token("approver", "w1", "approve");

    // Read, in its own workspace only.
    let r = s.req_as(
        Some(&reader),
        "GET",
        "/workspaces/w1/files/read?path=%2Fa.txt&format=raw",
        None,
    );
    assert_eq!(r.body, b"a");
    for path in [
        "/workspaces/w2/files/read?path=%2Fb.txt",
        "/workspaces/w2/runs",
        "/workspaces/w2/audit",
        "/workspaces/w2",
    ] {
        let r = s.req_as(Some(&reader), "GET", path, None);
        assert_eq!(
            (r.status, r.code()),
            (403, "EACCES".into()),
            "{path}: {}",
            r.text()
        );
    }
    let listed = s.req_as(Some(&reader), "GET", "/workspaces", None).json();
    assert_eq!(
        listed["workspaces"].as_array().unwrap().len(),
        1,
        "{listed}"
    );
    assert_eq!(listed["workspaces"][0]["id"], "w1");
    // No writes, no exec, no answers with read alone.
    let w = s.req_as(
        Some(&reader),
        "PUT",
        "/workspaces/w1/files/write?path=%2Fx",
        Some(b"x"),
    );
    assert_eq!(w.status, 403);
    let e = s.req_as(
        Some(&reader),
        "POST",
        "/workspaces/w1/exec",
        Some(br#"{"source":"echo hi > /x"}"#),
    );
    assert_eq!(e.status, 403);
    let a = s.req_as(
        Some(&reader),
        "POST",
        "/workspaces/w1/approvals/respond",
        Some(br#"{"run_id":"r","call_id":"r/1","answer":true}"#),
    );
    assert_eq!(a.status, 403);
    // exec may run code and write, but not widen its own reach.
    let ok = s.req_as(
        Some(&execer),
        "POST",
        "/workspaces/w1/exec",
        Some(br#"{"source":"echo hi"}"#),
    );
    assert_eq!(ok.status, 200, "{}", ok.text());
    assert_eq!(ok.json()["stdout"], "hi\n");
    for (method, path, body) in [
        (
            "POST",
            "/workspaces/w1/net/allow",
            &br#"{"host":"example.com"}"#[..],
        ),
        ("PUT", "/workspaces/w1/secrets/K", b"v"),
        ("PUT", "/workspaces/w1/policy", b""),
        ("POST", "/workspaces", br#"{"id":"w3"}"#),
        ("DELETE", "/workspaces/w1", b""),
        ("POST", "/workspaces/w1/forks", br#"{"name":"w4"}"#),
        ("GET", "/tokens", b""),
        ("POST", "/tokens", br#"{"name":"mine"}"#),
        ("GET", "/metrics", b""),
    ] {
        let r = s.req_as(Some(&execer), method, path, Some(body));
        assert_eq!(r.status, 403, "{method} {path}: {}", r.text());
    }
    assert!(!s.data.join("workspaces/w3.db").exists());
    // approve may read but not run code.
    assert_eq!(
        s.req_as(Some(&approver), "GET", "/workspaces/w1/approvals", None)
            .status,
        200
    );
    let e = s.req_as(
        Some(&approver),
        "POST",
        "/workspaces/w1/exec",
        Some(br#"{"source":"echo"}"#),
    );
    assert_eq!(e.status, 403);

    // A fork is another workspace: a token of its parent cannot read it
    // through a diff.
    s.ok(
        "POST",
        "/workspaces/w1/forks",
        Some(json!({"name": "w1-fork"})),
    );
    let r = s.req_as(
        Some(&reader),
        "GET",
        "/workspaces/w1/diff?from=live&to=fork%3Aw1-fork",
        None,
    );
    assert_eq!(r.status, 403, "{}", r.text());
    assert_eq!(
        s.req(
            "GET",
            "/workspaces/w1/diff?from=live&to=fork%3Aw1-fork",
            None
        )
        .status,
        200
    );

    // Ids that are not one file name are refused before any file is touched.
    for path in [
        "/workspaces/..%2Fserver/files/ls?path=%2F",
        "/workspaces/W1/files/ls?path=%2F",
        "/workspaces/.hidden",
    ] {
        let r = s.req("GET", path, None);
        assert!(
            r.status == 400 || r.status == 404,
            "{path}: {} {}",
            r.status,
            r.text()
        );
    }

    // Every request is audited with its token's name.
    let rows = s.ok(
        "GET",
        "/workspaces/w1/audit?actor=http%3Areader&limit=1000",
        None,
    );
    let targets: Vec<&str> = rows["audit"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["target"].as_str().unwrap())
        .collect();
    assert!(
        targets.contains(&"GET /workspaces/w1/files/read"),
        "{targets:?}"
    );
    assert!(
        targets.contains(&"PUT /workspaces/w1/files/write"),
        "refused ones too: {targets:?}"
    );
    let requests = s.ok("GET", "/requests?limit=1000", None);
    assert!(
        requests["requests"]
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r["token"] == "execer" && r["path"] == "/tokens" && r["status"] == 403),
        "{requests}"
    );

    // Tokens are listed without secrets; a revoked one stops at once, also
    // when revoked by the CLI while the server runs.
    let list = s.ok("GET", "/tokens", None);
    assert!(!list.to_string().contains(&reader));
    assert_eq!(list["tokens"].as_array().unwrap().len(), 4);
    s.ok("DELETE", "/tokens/reader", None);
    assert_eq!(
        s.req_as(Some(&reader), "GET", "/workspaces/w1", None)
            .status,
        401
    );
    let out = serve_cmd(&s.data, &["token", "revoke", "execer"])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(
        s.req_as(Some(&execer), "GET", "/workspaces/w1", None)
            .status,
        401
    );
    // The database keeps hashes only.
    let db = std::fs::read(s.data.join("server.db")).unwrap();
    let secret = approver.strip_prefix("ctk_").unwrap();
    assert!(!String::from_utf8_lossy(&db).contains(secret));
}

#[test]
fn no_auth_is_for_loopback_only() {
    let dir = tempfile::tempdir().unwrap();
    let out = serve_cmd(dir.path(), &["--listen", "0.0.0.0:0", "--insecure-no-auth"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("loopback"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let token = admin_token(dir.path(), "unused");
    let s = Served::start_on(dir.path(), token, &["--insecure-no-auth"]);
    let r = s.req_as(None, "POST", "/workspaces", Some(br#"{"id":"open"}"#));
    assert_eq!(r.status, 201, "{}", r.text());
    assert_eq!(s.req_as(None, "GET", "/workspaces/open", None).status, 200);
    let rows = s.ok("GET", "/workspaces/open/audit?operation=http", None);
    assert!(rows.to_string().contains("http:anonymous"), "{rows}");
}
