//! `/openapi.json` against real responses: a session that reaches every
//! area of the API records each response (status, content type, body) with
//! the document's path template, and `tests/openapi/validate.py` (the
//! `jsonschema` package, JSON Schema 2020-12 as OpenAPI 3.1 uses) checks
//! that the operation and status are listed and the body fits the schema.

use std::process::Command;

use computer_tests::workspace_root;
use serde_json::{Value, json};

use super::{Reply, Served};

struct Recorder<'a> {
    s: &'a Served,
    samples: Vec<Value>,
}

impl Recorder<'_> {
    fn call(
        &mut self,
        method: &str,
        template: &str,
        path: &str,
        token: Option<&str>,
        body: Option<&[u8]>,
    ) -> Reply {
        let token = token.unwrap_or(&self.s.token);
        let r = self.s.req_as(Some(token), method, path, body);
        let ct = r.header("content-type").unwrap_or_default().to_owned();
        let parsed = if ct.starts_with("application/json") {
            r.json()
        } else {
            Value::Null
        };
        self.samples.push(json!({"method": method, "path": template, "status": r.status, "content_type": ct, "body": parsed}));
        r
    }

    fn json(&mut self, method: &str, template: &str, path: &str, body: Value) -> Reply {
        let b = body.to_string();
        self.call(method, template, path, None, Some(b.as_bytes()))
    }
}

#[test]
fn the_openapi_document_matches_real_responses() {
    let s = Served::start(&[]);
    let doc = s.req_as(None, "GET", "/openapi.json", None).json();
    assert_eq!(doc["openapi"], "3.1.0");
    let mut r = Recorder {
        s: &s,
        samples: Vec::new(),
    };
    let w = "/workspaces/{id}";
    r.json("POST", "/workspaces", "/workspaces", json!({"id": "w"}));
    r.json("POST", "/workspaces", "/workspaces", json!({"id": "w"}));
    r.json(
        "POST",
        "/workspaces",
        "/workspaces",
        json!({"id": "Bad Id"}),
    );
    r.call("GET", "/workspaces", "/workspaces", None, None);
    r.call("GET", w, "/workspaces/w", None, None);
    r.call("GET", w, "/workspaces/none", None, None);
    r.call(
        "PUT",
        &format!("{w}/files/write"),
        "/workspaces/w/files/write?path=%2Fa.txt",
        None,
        Some(b"hello\n"),
    );
    r.call(
        "PUT",
        &format!("{w}/files/write"),
        "/workspaces/w/files/write?path=%2Fbin",
        None,
        Some(&[0xff, 0xfe]),
    );
    r.call(
        "GET",
        &format!("{w}/files/read"),
        "/workspaces/w/files/read?path=%2Fa.txt",
        None,
        None,
    );
    r.call(
        "GET",
        &format!("{w}/files/read"),
        "/workspaces/w/files/read?path=%2Fbin",
        None,
        None,
    );
    r.call(
        "GET",
        &format!("{w}/files/read"),
        "/workspaces/w/files/read?path=%2Fmissing",
        None,
        None,
    );
    r.call(
        "GET",
        &format!("{w}/files/ls"),
        "/workspaces/w/files/ls?path=%2F",
        None,
        None,
    );
    r.call(
        "GET",
        &format!("{w}/files/stat"),
        "/workspaces/w/files/stat?path=%2F",
        None,
        None,
    );
    r.call(
        "GET",
        &format!("{w}/files/find"),
        "/workspaces/w/files/find?pattern=**",
        None,
        None,
    );
    r.call(
        "GET",
        &format!("{w}/files/grep"),
        "/workspaces/w/files/grep?query=hello",
        None,
        None,
    );
    r.json(
        "POST",
        &format!("{w}/files/edit"),
        "/workspaces/w/files/edit",
        json!({"path": "/a.txt", "edits": [{"old": "hello", "new": "hi"}]}),
    );
    r.json(
        "POST",
        &format!("{w}/files/edit"),
        "/workspaces/w/files/edit",
        json!({"path": "/a.txt", "bogus": 1}),
    );
    r.json(
        "POST",
        &format!("{w}/files/cp"),
        "/workspaces/w/files/cp",
        json!({"from": "/a.txt", "to": "/b.txt"}),
    );
    r.json(
        "POST",
        &format!("{w}/files/mv"),
        "/workspaces/w/files/mv",
        json!({"from": "/b.txt", "to": "/c.txt"}),
    );
    r.json(
        "POST",
        &format!("{w}/files/mkdir"),
        "/workspaces/w/files/mkdir",
        json!({"path": "/d"}),
    );
    r.json(
        "POST",
        &format!("{w}/files/rm"),
        "/workspaces/w/files/rm",
        json!({"path": "/d"}),
    );
    r.json(
        "POST",
        &format!("{w}/files/rm"),
        "/workspaces/w/files/rm",
        json!({"path": "/nothing"}),
    );
    let ran = r.json(
        "POST",
        &format!("{w}/exec"),
        "/workspaces/w/exec",
        json!({"source": "echo hi > /r.txt; echo out"}),
    );
    let run = ran.json()["run_id"].as_str().unwrap().to_owned();
    r.json(
        "POST",
        &format!("{w}/exec"),
        "/workspaces/w/exec",
        json!({"source": "x", "backend": "nope"}),
    );
    r.call(
        "GET",
        &format!("{w}/runs"),
        "/workspaces/w/runs",
        None,
        None,
    );
    r.call(
        "GET",
        &format!("{w}/runs/{{run}}"),
        &format!("/workspaces/w/runs/{run}"),
        None,
        None,
    );
    r.call(
        "POST",
        &format!("{w}/runs/{{run}}/cancel"),
        &format!("/workspaces/w/runs/{run}/cancel"),
        None,
        None,
    );
    r.call(
        "GET",
        &format!("{w}/runs/{{run}}/diff"),
        &format!("/workspaces/w/runs/{run}/diff?patch=true"),
        None,
        None,
    );
    r.call(
        "GET",
        &format!("{w}/runs/{{run}}/events"),
        &format!("/workspaces/w/runs/{run}/events"),
        None,
        None,
    );
    r.call(
        "POST",
        &format!("{w}/runs/{{run}}/undo"),
        &format!("/workspaces/w/runs/{run}/undo"),
        None,
        None,
    );
    r.call(
        "GET",
        &format!("{w}/approvals"),
        "/workspaces/w/approvals",
        None,
        None,
    );
    r.json(
        "POST",
        &format!("{w}/approvals/respond"),
        "/workspaces/w/approvals/respond",
        json!({"run_id": "x", "call_id": "x/1", "answer": true}),
    );
    r.call("GET", "/approvals", "/approvals", None, None);
    r.call(
        "GET",
        &format!("{w}/audit"),
        "/workspaces/w/audit?limit=5",
        None,
        None,
    );
    r.call(
        "GET",
        &format!("{w}/audit"),
        "/workspaces/w/audit?path=%5B",
        None,
        None,
    );
    r.json(
        "POST",
        &format!("{w}/snapshots"),
        "/workspaces/w/snapshots",
        json!({"name": "s1"}),
    );
    r.call(
        "GET",
        &format!("{w}/snapshots"),
        "/workspaces/w/snapshots",
        None,
        None,
    );
    r.call(
        "GET",
        &format!("{w}/diff"),
        "/workspaces/w/diff?from=s1&patch=true",
        None,
        None,
    );
    r.call(
        "POST",
        &format!("{w}/snapshots/{{name}}/restore"),
        "/workspaces/w/snapshots/s1/restore",
        None,
        None,
    );
    r.json(
        "POST",
        &format!("{w}/forks"),
        "/workspaces/w/forks",
        json!({"name": "f1", "from_snapshot": "s1"}),
    );
    r.call(
        "GET",
        &format!("{w}/forks"),
        "/workspaces/w/forks",
        None,
        None,
    );
    r.call(
        "DELETE",
        &format!("{w}/snapshots/{{name}}"),
        "/workspaces/w/snapshots/s1",
        None,
        None,
    );
    r.json(
        "POST",
        &format!("{w}/net/allow"),
        "/workspaces/w/net/allow",
        json!({"host": "example.com"}),
    );
    r.call("GET", &format!("{w}/net"), "/workspaces/w/net", None, None);
    r.json(
        "POST",
        &format!("{w}/net/deny"),
        "/workspaces/w/net/deny",
        json!({"host": "example.com"}),
    );
    r.call(
        "PUT",
        &format!("{w}/secrets/{{name}}"),
        "/workspaces/w/secrets/K",
        None,
        Some(b"v"),
    );
    r.call(
        "GET",
        &format!("{w}/secrets"),
        "/workspaces/w/secrets",
        None,
        None,
    );
    r.call(
        "DELETE",
        &format!("{w}/secrets/{{name}}"),
        "/workspaces/w/secrets/K",
        None,
        None,
    );
    r.call(
        "PUT",
        &format!("{w}/policy"),
        "/workspaces/w/policy",
        None,
        Some(b"[[paths]]\nglob = \"/x/**\"\naccess = \"deny\"\n"),
    );
    r.call(
        "GET",
        &format!("{w}/policy"),
        "/workspaces/w/policy",
        None,
        None,
    );
    r.call(
        "DELETE",
        &format!("{w}/policy"),
        "/workspaces/w/policy",
        None,
        None,
    );
    let t = r.json(
        "POST",
        "/tokens",
        "/tokens",
        json!({"name": "reader", "workspace": "w", "rights": "read"}),
    );
    let reader = t.json()["token"].as_str().unwrap().to_owned();
    r.call("GET", "/tokens", "/tokens", None, None);
    r.call(
        "PUT",
        &format!("{w}/files/write"),
        "/workspaces/w/files/write?path=%2Fz",
        Some(&reader),
        Some(b"z"),
    );
    r.call("GET", w, "/workspaces/f1", Some(&reader), None);
    r.call("GET", "/workspaces", "/workspaces", Some("ctk_wrong"), None);
    r.call("DELETE", "/tokens/{name}", "/tokens/reader", None, None);
    r.call("GET", "/requests", "/requests", None, None);
    r.call("GET", "/metrics", "/metrics", None, None);
    r.call("GET", "/healthz", "/healthz", None, None);
    r.call("DELETE", w, "/workspaces/f1", None, None);

    let dir = tempfile::tempdir().unwrap();
    let samples = dir.path().join("samples.json");
    std::fs::write(&samples, serde_json::to_vec_pretty(&r.samples).unwrap()).unwrap();
    let document = dir.path().join("openapi.json");
    std::fs::write(&document, serde_json::to_vec(&doc).unwrap()).unwrap();
    let out = Command::new(super::mcp::sdk_python())
        .arg(workspace_root().join("tests/openapi/validate.py"))
        .arg(&document)
        .arg(&samples)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "responses that do not match /openapi.json:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        String::from_utf8_lossy(&out.stderr).contains(&format!("\"checked\": {}", r.samples.len()))
    );
}
