//! Workspaces, files, exec (waited for and streamed), runs, the audit log,
//! snapshots, diffs, undo, forks, net, secrets and policy, over HTTP.

use serde_json::{Value, json};

use super::{Served, Sse};

fn q(s: &str) -> String {
    s.replace('/', "%2F").replace(' ', "%20")
}

#[test]
fn workspaces_files_exec_runs_and_the_audit_log_over_http() {
    let s = Served::start(&[]);
    assert_eq!(s.ok("GET", "/workspaces", None)["workspaces"], json!([]));
    s.workspace("w1");
    let again = s.req("POST", "/workspaces", Some(br#"{"id":"w1"}"#));
    assert_eq!((again.status, again.code()), (409, "EEXIST".into()));
    let ids: Vec<Value> = s.ok("GET", "/workspaces", None)["workspaces"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["id"].clone())
        .collect();
    assert_eq!(ids, vec![json!("w1")]);

    // Files.
    let w = s.req(
        "PUT",
        "/workspaces/w1/files/write?path=%2Fsrc%2Fa.txt&parents=true",
        Some(b"hello\nworld\n"),
    );
    assert_eq!(w.status, 200, "{}", w.text());
    assert_eq!(w.json(), json!({"path": "/src/a.txt", "bytes_written": 12}));
    let r = s.ok("GET", "/workspaces/w1/files/read?path=%2Fsrc%2Fa.txt", None);
    assert_eq!(r["content"], "hello\nworld\n");
    let range = s.req(
        "GET",
        "/workspaces/w1/files/read?path=%2Fsrc%2Fa.txt&offset=6&length=5&format=raw",
        None,
    );
    assert_eq!(range.body, b"world");
    let bin = s.req(
        "PUT",
        "/workspaces/w1/files/write?path=%2Fbin.dat",
        Some(&[0xff, 0, 1]),
    );
    assert_eq!(bin.status, 200);
    assert_eq!(
        s.ok("GET", "/workspaces/w1/files/read?path=%2Fbin.dat", None)["content_base64"],
        "/wAB"
    );
    let ls = s.ok("GET", "/workspaces/w1/files/ls?path=%2Fsrc", None);
    assert_eq!(ls["entries"][0]["name"], "a.txt");
    assert_eq!(ls["entries"][0]["size"], 12);
    let st = s.ok("GET", "/workspaces/w1/files/stat?path=%2Fsrc%2Fa.txt", None);
    assert_eq!(st["kind"], "file");
    let found = s.ok(
        "GET",
        "/workspaces/w1/files/find?path=%2F&pattern=**%2F*.txt",
        None,
    );
    assert_eq!(found["entries"][0]["path"], "/src/a.txt", "{found}");
    let grep = s.ok(
        "GET",
        "/workspaces/w1/files/grep?path=%2F&query=world",
        None,
    );
    assert_eq!(grep["matches"][0]["path"], "/src/a.txt", "{grep}");
    let edit = s.ok(
        "POST",
        "/workspaces/w1/files/edit",
        Some(json!({"path": "/src/a.txt", "edits": [{"old": "world", "new": "there"}]})),
    );
    assert_eq!(edit["applied"], 1);
    s.ok(
        "POST",
        "/workspaces/w1/files/cp",
        Some(json!({"from": "/src/a.txt", "to": "/b.txt"})),
    );
    s.ok(
        "POST",
        "/workspaces/w1/files/mv",
        Some(json!({"from": "/b.txt", "to": "/c.txt"})),
    );
    s.ok(
        "POST",
        "/workspaces/w1/files/mkdir",
        Some(json!({"path": "/d/e", "parents": true})),
    );
    s.ok(
        "POST",
        "/workspaces/w1/files/rm",
        Some(json!({"path": "/d", "recursive": true})),
    );
    let gone = s.req("GET", "/workspaces/w1/files/stat?path=%2Fd", None);
    assert_eq!((gone.status, gone.code()), (404, "ENOENT".into()));
    // A path cannot leave the workspace: `..` stops at its root.
    let up = s.req(
        "GET",
        &format!(
            "/workspaces/w1/files/read?path={}",
            q("/../../../etc/passwd")
        ),
        None,
    );
    assert_eq!(up.status, 404, "{}", up.text());

    // exec, waited for: the CLI's `exec --json` document.
    let ran = s.ok(
        "POST",
        "/workspaces/w1/exec",
        Some(json!({"source": "cat /src/a.txt; cat /c.txt > /copy.txt; echo err >&2; exit 3"})),
    );
    assert_eq!(ran["exit_code"], 3, "{ran}");
    assert_eq!(ran["stdout"], "hello\nthere\n");
    assert_eq!(ran["stderr"], "err\n");
    assert_eq!(ran["status"], "failed");
    let run_id = ran["run_id"].as_str().unwrap().to_owned();
    let runs = s.ok("GET", "/workspaces/w1/runs", None);
    assert_eq!(runs["runs"][0]["id"], run_id.as_str());
    let one = s.ok("GET", &format!("/workspaces/w1/runs/{run_id}"), None);
    assert_eq!(one["stdout"], "hello\nthere\n");
    assert_eq!(one["exit_code"], 3);
    let missing = s.req("GET", "/workspaces/w1/runs/nope", None);
    assert_eq!(missing.status, 404);

    // What the run changed, and undo.
    let diff = s.ok("GET", &format!("/workspaces/w1/runs/{run_id}/diff"), None);
    assert_eq!(diff["files"][0]["path"], "/copy.txt", "{diff}");
    assert_eq!(diff["files"][0]["status"], "added");
    let undone = s.ok("POST", &format!("/workspaces/w1/runs/{run_id}/undo"), None);
    assert_eq!(undone["reverted"], json!(["/copy.txt"]), "{undone}");
    assert_eq!(
        s.req("GET", "/workspaces/w1/files/stat?path=%2Fcopy.txt", None)
            .status,
        404
    );

    // The audit log names the token: the store's rows and the request rows.
    let audit = s.ok(
        "GET",
        "/workspaces/w1/audit?actor=http%3Aadmin&operation=write&limit=10",
        None,
    );
    let rows = audit["audit"].as_array().unwrap();
    assert!(rows.iter().any(|r| r["target"] == "/src/a.txt"), "{audit}");
    assert!(
        rows.iter()
            .all(|r| r["actor"] == "http:admin" && r["operation"] == "write")
    );
    let http_rows = s.ok(
        "GET",
        "/workspaces/w1/audit?operation=http&limit=1000",
        None,
    );
    assert!(
        http_rows["audit"]
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r["target"] == "PUT /workspaces/w1/files/write" && r["actor"] == "http:admin"),
        "{http_rows}"
    );
    // Paged: newest first, a next offset while more remain.
    let page = s.ok("GET", "/workspaces/w1/audit?limit=2", None);
    assert_eq!(page["audit"].as_array().unwrap().len(), 2);
    assert_eq!(page["next_offset"], 2);
    let (a, b) = (&page["audit"][0]["id"], &page["audit"][1]["id"]);
    assert!(a.as_i64() > b.as_i64());

    // Deleting removes its file; it is gone from the list.
    s.ok("DELETE", "/workspaces/w1", None);
    assert_eq!(s.req("GET", "/workspaces/w1", None).status, 404);
    assert!(!s.data.join("workspaces/w1.db").exists());
}

#[test]
fn exec_streams_events_and_a_client_that_leaves_does_not_end_its_run_unless_it_asks() {
    let s = Served::start(&[]);
    s.workspace("w");
    let body = json!({"source": "echo one; echo two >&2; echo three", "stream": true}).to_string();
    let mut events = Sse::open(
        &s.addr,
        "POST",
        "/workspaces/w/exec",
        &s.token,
        Some(body.as_bytes()),
    );
    assert_eq!(events.status, 200);
    let all = events.rest();
    let names: Vec<&str> = all.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names.first(), Some(&"run"), "{all:?}");
    assert_eq!(names.last(), Some(&"result"), "{all:?}");
    let stdout: String = all
        .iter()
        .filter(|(n, _)| n == "stdout")
        .map(|(_, v)| v["data"].as_str().unwrap())
        .collect();
    assert_eq!(stdout, "one\nthree\n");
    let result = &all.last().unwrap().1;
    assert_eq!(result["exit_code"], 0);
    let run_id = all[0].1["run_id"].as_str().unwrap().to_owned();
    // A finished run's events replay from its record.
    let mut again = Sse::open(
        &s.addr,
        "GET",
        &format!("/workspaces/w/runs/{run_id}/events"),
        &s.token,
        None,
    );
    let replay = again.rest();
    assert_eq!(replay.last().unwrap().0, "result");

    // Leaves after the first output: the run goes on to its end.
    let body = json!({"source": "echo started; sleep 1; echo done > /done.txt", "stream": true})
        .to_string();
    let mut left = Sse::open(
        &s.addr,
        "POST",
        "/workspaces/w/exec",
        &s.token,
        Some(body.as_bytes()),
    );
    let (_, first) = left.next_event().unwrap();
    let kept = first["run_id"].as_str().unwrap().to_owned();
    assert_eq!(left.next_event().unwrap().0, "stdout");
    drop(left);
    let record = s.wait_run("w", &kept);
    assert_eq!(record["status"], "completed", "{record}");
    assert_eq!(
        s.req(
            "GET",
            "/workspaces/w/files/read?path=%2Fdone.txt&format=raw",
            None
        )
        .body,
        b"done\n"
    );

    // Asks to be the run's lifeline: leaving cancels it.
    let body = json!({"source": "echo started; sleep 60; echo late > /late.txt", "stream": true, "cancel_on_disconnect": true}).to_string();
    let mut left = Sse::open(
        &s.addr,
        "POST",
        "/workspaces/w/exec",
        &s.token,
        Some(body.as_bytes()),
    );
    let (_, first) = left.next_event().unwrap();
    let cancelled = first["run_id"].as_str().unwrap().to_owned();
    assert_eq!(left.next_event().unwrap().0, "stdout");
    drop(left);
    let record = s.wait_run("w", &cancelled);
    assert_eq!(record["status"], "cancelled", "{record}");
    assert_eq!(
        s.req("GET", "/workspaces/w/files/stat?path=%2Flate.txt", None)
            .status,
        404
    );

    // Cancel through the API; a run followed by another client sees it end.
    let body = json!({"source": "echo go; sleep 60", "stream": true}).to_string();
    let mut watched = Sse::open(
        &s.addr,
        "POST",
        "/workspaces/w/exec",
        &s.token,
        Some(body.as_bytes()),
    );
    let (_, first) = watched.next_event().unwrap();
    let id = first["run_id"].as_str().unwrap().to_owned();
    let mut follower = Sse::open(
        &s.addr,
        "GET",
        &format!("/workspaces/w/runs/{id}/events"),
        &s.token,
        None,
    );
    assert_eq!(follower.next_event().unwrap().0, "run");
    assert_eq!(follower.next_event().unwrap().1["data"], "go\n");
    s.ok("POST", &format!("/workspaces/w/runs/{id}/cancel"), None);
    let end = follower.rest();
    assert_eq!(end.last().unwrap().1["status"], "cancelled", "{end:?}");
    let end = watched.rest();
    assert_eq!(end.last().unwrap().0, "result");
    let not_running = s.req("POST", &format!("/workspaces/w/runs/{id}/cancel"), None);
    assert_eq!(not_running.status, 409);
}

#[test]
fn snapshots_diffs_forks_net_secrets_and_policy_over_http() {
    let s = Served::start(&[]);
    s.workspace("w");
    s.req(
        "PUT",
        "/workspaces/w/files/write?path=%2Fa.txt",
        Some(b"one\n"),
    );
    let snap = s.ok(
        "POST",
        "/workspaces/w/snapshots",
        Some(json!({"name": "before", "message": "m"})),
    );
    assert_eq!(snap["name"], "before");
    s.req(
        "PUT",
        "/workspaces/w/files/write?path=%2Fa.txt",
        Some(b"two\n"),
    );
    let d = s.ok(
        "GET",
        "/workspaces/w/diff?from=before&to=live&patch=true",
        None,
    );
    assert_eq!(d["files"][0]["status"], "modified");
    assert!(
        d["files"][0]["patch"].as_str().unwrap().contains("+two"),
        "{d}"
    );
    assert_eq!(
        s.ok("GET", "/workspaces/w/snapshots", None)["snapshots"][0]["name"],
        "before"
    );

    // A fork is a workspace of its own.
    let f = s.ok(
        "POST",
        "/workspaces/w/forks",
        Some(json!({"name": "w-try", "from_snapshot": "before"})),
    );
    assert_eq!(f["workspace"], "w-try");
    assert_eq!(
        s.req(
            "GET",
            "/workspaces/w-try/files/read?path=%2Fa.txt&format=raw",
            None
        )
        .body,
        b"one\n"
    );
    let fd = s.ok("GET", "/workspaces/w/diff?from=live&to=fork%3Aw-try", None);
    assert_eq!(fd["files"][0]["path"], "/a.txt");
    assert_eq!(
        s.ok("GET", "/workspaces/w/forks", None)["forks"][0]["name"],
        "w-try"
    );

    s.ok("POST", "/workspaces/w/snapshots/before/restore", None);
    assert_eq!(
        s.req(
            "GET",
            "/workspaces/w/files/read?path=%2Fa.txt&format=raw",
            None
        )
        .body,
        b"one\n"
    );
    s.ok("DELETE", "/workspaces/w/snapshots/before", None);
    assert_eq!(
        s.ok("GET", "/workspaces/w/snapshots", None)["snapshots"],
        json!([])
    );

    // Net.
    s.ok(
        "POST",
        "/workspaces/w/net/allow",
        Some(json!({"host": "example.com"})),
    );
    assert_eq!(
        s.ok("GET", "/workspaces/w/net", None)["allow"][0]["entry"],
        "example.com"
    );
    s.ok(
        "POST",
        "/workspaces/w/net/deny",
        Some(json!({"host": "example.com"})),
    );
    assert_eq!(s.ok("GET", "/workspaces/w/net", None)["allow"], json!([]));

    // Secrets are write-only: listed by name, never shown.
    let set = s.req(
        "PUT",
        "/workspaces/w/secrets/API_KEY",
        Some(b"s3cr3t-value"),
    );
    assert_eq!(set.status, 200, "{}", set.text());
    let listed = s.req("GET", "/workspaces/w/secrets", None);
    assert!(listed.text().contains("API_KEY"));
    assert!(!listed.text().contains("s3cr3t-value"));
    s.ok("DELETE", "/workspaces/w/secrets/API_KEY", None);

    // Policy: a denied path is refused to an exec, then cleared.
    let policy = "[[paths]]\nglob = \"/locked/**\"\naccess = \"deny\"\nreason = \"not here\"\n";
    let put = s.req("PUT", "/workspaces/w/policy", Some(policy.as_bytes()));
    assert_eq!(put.status, 200, "{}", put.text());
    assert_eq!(s.ok("GET", "/workspaces/w/policy", None)["policy"], policy);
    let denied = s.req(
        "PUT",
        "/workspaces/w/files/write?path=%2Flocked%2Fx&parents=true",
        Some(b"x"),
    );
    assert_eq!(
        (denied.status, denied.code()),
        (403, "EPERM".into()),
        "{}",
        denied.text()
    );
    assert_eq!(
        s.ok("DELETE", "/workspaces/w/policy", None)["cleared"],
        true
    );
}
