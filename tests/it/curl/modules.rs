//! Module components follow the workspace's allow-list too: `ws:github`
//! stored with no `--allow-host` is denied until `computer net allow`
//! names its server, then posts.

use super::*;

const AGENT: &str = r#"import { postComment } from "ws:github";
try {
  console.log("posted", postComment(7, "LGTM"));
} catch (e) {
  console.log("refused:", e.message);
}"#;

fn approve(ws: &Ws, run_id: &str) -> Output {
    let out = run(ws, &["--json", "pending"]);
    let pending = one_json(&out.stdout);
    let call = pending["pending"][0]["call_id"]
        .as_str()
        .expect("a pending call")
        .to_owned();
    run(ws, &["respond", run_id, &call, r#"{"approved": true}"#])
}

#[test]
fn module_http_follows_the_workspace_list() {
    let s = Server::start();
    let ws = Ws::new();
    let module = computer_tests::workspace_root()
        .join("guests/target/wasm32-wasip2/release/github_module.wasm");
    assert!(
        module.is_file(),
        "{} is missing: run scripts/build-guests.sh",
        module.display()
    );
    let base = format!("base_url={}", s.url(""));
    let args = [
        "modules",
        "add",
        "ws:github",
        module.to_str().unwrap(),
        "--config",
        &base,
        "--config",
        "repo=o/r",
    ];
    let out = run(&ws, &args);
    assert!(out.status.success(), "{}", describe(&args, &out));

    run(&ws, &["exec", "--backend", "js", "--id", "m-1", AGENT]);
    let out = approve(&ws, "m-1");
    assert!(
        text(&out.stdout).contains("refused:") && text(&out.stdout).contains("HTTP-request-denied"),
        "{}",
        describe(&["respond"], &out)
    );
    assert!(s.requests().is_empty());

    allow(&ws, &format!("127.0.0.1:{}", s.port));
    run(&ws, &["exec", "--backend", "js", "--id", "m-2", AGENT]);
    let out = approve(&ws, "m-2");
    assert_eq!(
        text(&out.stdout),
        "posted posted\n",
        "{}",
        describe(&["respond"], &out)
    );
    assert_eq!(s.requests().len(), 1);
    // Each request left its `http` row, the denied one and the one sent.
    let out = run(&ws, &["--json", "audit"]);
    let doc = one_json(&out.stdout);
    let outcomes: Vec<String> = doc["audit"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter(|r| r["operation"] == "http")
                .map(|r| r["outcome"].as_str().unwrap_or_default().to_owned())
                .collect()
        })
        .unwrap_or_default();
    assert_eq!(outcomes, ["denied", "ok"], "{doc}");
}
