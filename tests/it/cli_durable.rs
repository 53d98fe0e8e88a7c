//! The approval flow through the `computer` CLI, as the github example's
//! README walks it: register `ws:github`, run agent code that calls
//! `postComment`, see it pending, approve or reject, see it complete; the
//! comment reaches a stand-in GitHub on 127.0.0.1 once, with the call id as
//! its idempotency key. Also `computer recover` and bad answers.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::path::PathBuf;
use std::process::Output;
use std::sync::{Arc, Mutex};

use computer_tests::{
    Value, Ws, component_cache_dir, describe, one_json, run_command, text, workspace_root,
};

pub fn github_module() -> PathBuf {
    let path = workspace_root().join("guests/target/wasm32-wasip2/release/github_module.wasm");
    assert!(
        path.is_file(),
        "{} does not exist: run scripts/build-guests.sh",
        path.display()
    );
    path
}

/// Requests received: (request line, idempotency key, body).
pub type Seen = Arc<Mutex<Vec<(String, String, String)>>>;

/// A stand-in GitHub: answers every POST with 201 and an `html_url`.
pub fn fake_github() -> (u16, Seen) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let seen: Seen = Arc::default();
    let log = seen.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut request_line = String::new();
            let _ = reader.read_line(&mut request_line);
            let (mut key, mut len) = (String::new(), 0usize);
            loop {
                let mut line = String::new();
                if reader.read_line(&mut line).unwrap_or(0) == 0 {
                    break;
                }
                let line = line.trim_end();
                if line.is_empty() {
                    break;
                }
                if let Some((n, v)) = line.split_once(':') {
                    match n.to_ascii_lowercase().as_str() {
                        "idempotency-key" => key = v.trim().to_owned(),
                        "content-length" => len = v.trim().parse().unwrap_or(0),
                        _ => {}
                    }
                }
            }
            let mut body = vec![0; len];
            let _ = reader.read_exact(&mut body);
            let n = {
                let mut seen = log.lock().unwrap();
                seen.push((
                    request_line.trim_end().to_owned(),
                    key,
                    String::from_utf8_lossy(&body).into_owned(),
                ));
                seen.len()
            };
            let reply = format!(
                r#"{{"html_url": "https://github.example/o/r/issues/7#issuecomment-{n}"}}"#
            );
            let _ = write!(
                stream,
                "HTTP/1.1 201 Created\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{reply}",
                reply.len()
            );
        }
    });
    (port, seen)
}

fn run(ws: &Ws, args: &[&str]) -> Output {
    let mut cmd = ws.command(args);
    cmd.env("COMPUTER_CACHE_DIR", component_cache_dir());
    run_command(&mut cmd, b"")
}

fn setup() -> (Ws, Seen) {
    let ws = Ws::new();
    let (port, seen) = fake_github();
    let module = github_module();
    let base = format!("base_url=http://127.0.0.1:{port}");
    let allow = format!("127.0.0.1:{port}");
    let out = run(
        &ws,
        &[
            "modules",
            "add",
            "ws:github",
            module.to_str().unwrap(),
            "--config",
            &base,
            "--config",
            "repo=o/r",
            "--allow-host",
            &allow,
        ],
    );
    assert!(
        out.status.success(),
        "{}",
        describe(&["modules", "add"], &out)
    );
    (ws, seen)
}

const AGENT: &str = r#"import { postComment } from "ws:github";
try {
  console.log("posted", postComment(7, "LGTM"));
} catch (e) {
  console.log("refused:", e.message);
}"#;

fn pending(ws: &Ws) -> Vec<Value> {
    let out = run(ws, &["pending", "--json"]);
    assert!(out.status.success(), "{}", describe(&["pending"], &out));
    one_json(&out.stdout)["pending"]
        .as_array()
        .cloned()
        .unwrap_or_default()
}

#[test]
fn approve_through_the_cli_posts_the_comment_once() {
    let (ws, seen) = setup();
    let args = ["exec", "--backend", "js", "--id", "agent-1", AGENT];
    let out = run(&ws, &args);
    assert_eq!(out.status.code(), Some(75), "{}", describe(&args, &out));
    let err = text(&out.stderr);
    assert!(
        err.contains("run agent-1 is waiting") && err.contains("computer respond agent-1"),
        "{err}"
    );
    assert!(
        seen.lock().unwrap().is_empty(),
        "nothing is sent before the approval"
    );

    let p = pending(&ws);
    assert_eq!(p.len(), 1, "{p:?}");
    assert_eq!(p[0]["run_id"], "agent-1");
    assert_eq!(p[0]["function"], "post-comment");
    let payload: Value = serde_json::from_str(p[0]["payload"].as_str().unwrap()).unwrap();
    assert_eq!(payload, serde_json::json!({"issue": 7, "body": "LGTM"}));
    let call = p[0]["call_id"].as_str().unwrap().to_owned();
    let runs = ws.json(&["runs", "show", "agent-1"]);
    assert_eq!(runs["status"], "waiting");

    let args = ["respond", "agent-1", &call, r#"{"approved": true}"#];
    let out = run(&ws, &args);
    assert!(out.status.success(), "{}", describe(&args, &out));
    assert_eq!(
        text(&out.stdout),
        "posted https://github.example/o/r/issues/7#issuecomment-1\n"
    );
    let seen = seen.lock().unwrap().clone();
    assert_eq!(seen.len(), 1, "{seen:?}");
    assert_eq!(seen[0].0, "POST /repos/o/r/issues/7/comments HTTP/1.1");
    assert_eq!(seen[0].1, call, "the idempotency key is the call id");
    assert!(seen[0].2.contains("LGTM"), "{:?}", seen[0].2);
    assert!(pending(&ws).is_empty());
    let run_record = ws.json(&["runs", "show", "agent-1"]);
    assert_eq!(run_record["status"], "completed");

    // Answering again is refused, and clearly.
    let out = run(&ws, &args);
    assert_eq!(out.status.code(), Some(1), "{}", describe(&args, &out));
    assert!(
        text(&out.stderr).contains("has already ended (completed)"),
        "{}",
        describe(&args, &out)
    );
}

#[test]
fn a_rejection_reaches_the_agent_code_as_an_exception() {
    let (ws, seen) = setup();
    let out = run(&ws, &["exec", "--backend", "js", "--id", "agent-2", AGENT]);
    assert_eq!(out.status.code(), Some(75));
    let call = pending(&ws)[0]["call_id"].as_str().unwrap().to_owned();
    let args = ["respond", "agent-2", &call, "--reject", "not today"];
    let out = run(&ws, &args);
    assert!(out.status.success(), "{}", describe(&args, &out));
    assert!(
        text(&out.stdout).starts_with("refused:") && text(&out.stdout).contains("not today"),
        "{}",
        describe(&args, &out)
    );
    assert!(
        seen.lock().unwrap().is_empty(),
        "a refused comment is never sent"
    );
}

#[test]
fn bad_answers_and_unknown_calls_are_clear_errors() {
    let (ws, _seen) = setup();
    let out = run(&ws, &["exec", "--backend", "js", "--id", "agent-3", AGENT]);
    assert_eq!(out.status.code(), Some(75));
    let call = pending(&ws)[0]["call_id"].as_str().unwrap().to_owned();
    let (code, msg) = ws.err(&["respond", "agent-3", &call, "{not json"]);
    assert_eq!(code, "EINVAL");
    assert!(msg.contains("not JSON"), "{msg}");
    let (code, msg) = ws.err(&["respond", "agent-3", "agent-3/999", "true"]);
    assert_eq!(code, "ENOENT");
    assert!(msg.contains("no interrupt for call agent-3/999"), "{msg}");
    // Nothing was lost: the run still waits for its answer.
    assert_eq!(pending(&ws).len(), 1);
    let out = run(&ws, &["recover"]);
    assert!(out.status.success(), "{}", describe(&["recover"], &out));
    assert_eq!(text(&out.stdout), "nothing to recover\n");
}

/// What run `id`'s record keeps for a replay (`runs.spec`), read from the file.
fn stored_spec(ws: &Ws, id: &str) -> Option<String> {
    let db = rusqlite::Connection::open(ws.db()).unwrap();
    db.query_row("SELECT spec FROM runs WHERE id = ?1", [id], |r| r.get(0))
        .unwrap()
}

/// `--env` values and the random seed are kept while a parked run may be
/// replayed, and dropped when it ends (issue 18, item 13).
#[test]
fn secrets_are_kept_only_while_the_run_may_replay() {
    let (ws, _seen) = setup();
    let agent = r#"import { postComment } from "ws:github";
const r = crypto.getRandomValues(new Uint8Array(8)).join(",");
console.log("before", r);
postComment(7, "LGTM");
console.log("after", r, process.env.TOKEN);"#;
    let args = [
        "exec",
        "--backend",
        "js",
        "--id",
        "secret-1",
        "--env",
        "TOKEN=s3cret-42",
        agent,
    ];
    let out = run(&ws, &args);
    assert_eq!(out.status.code(), Some(75), "{}", describe(&args, &out));
    let parked = stored_spec(&ws, "secret-1").expect("a parked run keeps its spec");
    assert!(
        parked.contains("s3cret-42") && parked.contains("seed"),
        "{parked}"
    );

    let call = pending(&ws)[0]["call_id"].as_str().unwrap().to_owned();
    let args = ["respond", "secret-1", &call, r#"{"approved": true}"#];
    let out = run(&ws, &args);
    assert!(out.status.success(), "{}", describe(&args, &out));
    // The replay saw the same environment and the same random values.
    let record = ws.json(&["runs", "show", "secret-1"]);
    assert_eq!(record["status"], "completed", "{record}");
    let stdout = record["stdout"].as_str().unwrap();
    let before = stdout
        .lines()
        .next()
        .unwrap()
        .strip_prefix("before ")
        .unwrap();
    assert!(
        stdout.contains(&format!("after {before} s3cret-42")),
        "{stdout}"
    );
    assert_eq!(
        stored_spec(&ws, "secret-1"),
        None,
        "the spec outlived the run"
    );
    // What `runs` shows of the environment is the names only.
    assert!(
        !record["options"].to_string().contains("s3cret"),
        "{record}"
    );

    // A run that never parks drops it too, however it ends.
    for (id, script) in [("secret-2", "echo $TOKEN"), ("secret-3", "exit 3")] {
        let args = ["exec", "--id", id, "--env", "TOKEN=s3cret-42", script];
        run(&ws, &args);
        assert_eq!(stored_spec(&ws, id), None, "{id}");
    }
}

/// Whether `needle` is anywhere in the workspace file or its WAL, as bytes.
fn in_file_bytes(ws: &Ws, needle: &[u8]) -> bool {
    let mut wal = ws.db().as_os_str().to_owned();
    wal.push("-wal");
    [ws.db().to_path_buf(), PathBuf::from(wal)]
        .iter()
        .filter_map(|p| std::fs::read(p).ok())
        .any(|bytes| bytes.windows(needle.len()).any(|w| w == needle))
}

/// An `--env` value is gone from the file's bytes once the run has ended,
/// not only from its row: freed space is zeroed (`secure_delete`), so the
/// pages the run record had do not keep it (issue 41).
#[test]
fn an_env_value_is_not_left_in_freed_pages() {
    let ws = Ws::new();
    let secret = "zq-secret-value-81";
    for (id, backend, script) in [("env-1", "js", "1"), ("env-2", "shell", "exit 3")] {
        let args = [
            "exec",
            "--backend",
            backend,
            "--id",
            id,
            "--env",
            &format!("TOKEN={secret}"),
            script,
        ];
        run(&ws, &args);
        assert_eq!(stored_spec(&ws, id), None, "{id}");
    }
    // What the WAL still holds reaches the main file at a checkpoint, and
    // is then cut from the WAL: both are searched after it.
    let db = rusqlite::Connection::open(ws.db()).unwrap();
    let _: (i64, i64, i64) = db
        .query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?))
        })
        .unwrap();
    drop(db);
    assert!(
        !in_file_bytes(&ws, secret.as_bytes()),
        "the --env value is still in the workspace file"
    );
}
