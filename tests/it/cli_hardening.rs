//! Hardening of the CLI's inputs and outputs (issue 18): bounded host inputs,
//! names that cannot forge lines, listings in flat memory, reads bounded by the
//! guest's memory, and output floods that stop the run.

use std::io::Write;
use std::process::{Child, Output, Stdio};
use std::time::{Duration, Instant};

use computer_tests::{Ws, describe, text};
use serde_json::Value;

/// Waits for `child`, killing it (and failing) if it is still running after
/// `bound`: the point of these tests is that the CLI does not hang.
fn wait_bounded(mut child: Child, bound: Duration, what: &str) -> Output {
    let start = Instant::now();
    while child.try_wait().expect("try_wait").is_none() {
        if start.elapsed() > bound {
            let _ = child.kill();
            panic!("{what}: still running after {bound:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().expect("wait")
}

#[test]
fn an_endless_stdin_is_refused_at_the_input_limit() {
    let ws = Ws::new();
    let mut child = ws
        .exec_command(&["--backend", "shell", "--stdin", "-", "head -1"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn computer");
    let mut stdin = child.stdin.take().unwrap();
    // `yes`: writes until the reader goes away.
    let writer = std::thread::spawn(move || {
        let line = b"y\n".repeat(4096);
        while stdin.write_all(&line).is_ok() {}
    });
    let out = wait_bounded(
        child,
        Duration::from_secs(120),
        "yes | computer exec --stdin -",
    );
    writer.join().unwrap();
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("stdin (standard input) is over the 1048576-byte limit"),
        "{stderr}"
    );
}

#[test]
fn a_stdin_that_never_ends_stops_at_the_timeout() {
    let ws = Ws::new();
    let mut child = ws
        .exec_command(&[
            "--backend",
            "shell",
            "--timeout",
            "1",
            "--stdin",
            "-",
            "cat",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn computer");
    let stdin = child.stdin.take().unwrap();
    let out = wait_bounded(child, Duration::from_secs(60), "exec --stdin - --timeout 1");
    drop(stdin);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(124), "{stderr}");
    assert!(
        stderr.contains("waiting for the end of stdin") && stderr.contains("--timeout"),
        "{stderr}"
    );
}

#[test]
fn sources_and_components_from_endless_files_are_refused() {
    let ws = Ws::new();
    let (code, message) = ws.err(&["exec", "--file", "/dev/zero"]);
    assert_eq!(code, "EFBIG");
    assert!(
        message.contains("the source (/dev/zero) is over the 1048576-byte limit (1 MiB)"),
        "{message}"
    );
    let (code, message) = ws.err(&["modules", "add", "ws:zero", "/dev/zero"]);
    assert_eq!(code, "EFBIG");
    assert!(message.contains("the component (/dev/zero)"), "{message}");
}

#[test]
fn an_absurd_timeout_is_named_as_too_long() {
    let ws = Ws::new();
    let (code, message) = ws.err(&["exec", "--timeout", "99999999999", "true"]);
    assert_eq!(code, "EINVAL");
    assert!(message.contains("at most 31536000"), "{message}");
}

/// A name made to look like the end of one line and a whole other one.
const FORGED: &str = "/x\n2026-12-01T00:00:00Z  cli                rm           ok       /etc";

#[test]
fn names_with_control_characters_cannot_forge_lines() {
    let ws = Ws::new();
    ws.ok_with(&["fs", "write", "-p", FORGED], "data");
    ws.ok_with(&["fs", "write", "/esc\u{1b}[2Kname"], "data");
    let audit = ws.ok(&["audit"]);
    let rows = ws.json(&["audit"])["audit"].as_array().unwrap().len();
    assert_eq!(
        audit.lines().count(),
        rows,
        "one line per audit row:\n{audit}"
    );
    assert!(
        !audit.lines().any(|l| l.starts_with("2026-12-01T00:00:00Z")),
        "{audit}"
    );
    assert!(audit.contains("/x\\n2026-12-01T00:00:00Z"), "{audit}");
    assert!(!audit.contains('\u{1b}'), "{audit}");
    let ls = ws.ok(&["fs", "ls", "/"]);
    assert_eq!(ls.lines().count(), 2, "{ls}");
    assert!(ls.contains("esc\\e[2Kname"), "{ls}");
    let found = ws.ok(&["fs", "find", "/", "*"]);
    assert!(found.lines().all(|l| l.starts_with('/')), "{found}");
    // JSON keeps the real name.
    let doc = ws.json(&["fs", "ls", "/"]);
    let names: Vec<&str> = doc["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["name"].as_str().unwrap())
        .collect();
    let dir_name = &FORGED[1..FORGED.rfind('/').unwrap()];
    assert!(names.contains(&dir_name), "{names:?}");
    // An error that names the path stays on one line too.
    let out = ws.run(&["fs", "read", &format!("{FORGED}-missing")], "");
    assert_eq!(
        text(&out.stderr).lines().count(),
        1,
        "{}",
        describe(&[], &out)
    );
}

#[test]
fn listings_longer_than_a_page_are_whole_and_in_order() {
    let ws = Ws::new();
    let out = ws.exec(
        &[
            "--backend",
            "shell",
            "mkdir /d && for i in $(seq 1 4500); do : > /d/f$i; done",
        ],
        "",
    );
    assert!(out.status.success(), "{}", describe(&[], &out));
    let mut want: Vec<String> = (1..=4500).map(|i| format!("f{i}")).collect();
    want.sort();
    let plain: Vec<String> = ws
        .ok(&["fs", "ls", "/d"])
        .lines()
        .map(str::to_owned)
        .collect();
    assert_eq!(plain, want);
    let doc = ws.json(&["fs", "ls", "/d", "--offset", "2000", "--limit", "2100"]);
    let names: Vec<&str> = doc["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        want[2000..4100]
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>()
    );
    assert_eq!(doc["path"], "/d");
}

#[test]
fn a_read_larger_than_the_guests_memory_is_a_catchable_efbig() {
    let ws = Ws::new();
    ws.ok_with(&["fs", "write", "/big"], vec![b'a'; 48 << 20]);
    let (code, doc) = ws.exec_json(
        &[
            "--memory",
            "32",
            "import fs from 'node:fs'; try { fs.readFileSync('/big'); console.log('read') } \
             catch (e) { console.log(e.code) }",
        ],
        "",
    );
    assert_eq!(code, 0, "{doc}");
    assert_eq!(doc["stdout"], "EFBIG\n", "{doc}");
}

#[test]
fn a_path_with_a_lone_surrogate_is_a_missing_file() {
    let ws = Ws::new();
    let (code, doc) = ws.exec_json(
        &["import fs from 'node:fs'; try { fs.readFileSync('/a\\ud800') } catch (e) { console.log(e.code) }"],
        "",
    );
    assert_eq!(code, 0, "{doc}");
    assert_eq!(doc["stdout"], "ENOENT\n", "{doc}");
}

#[test]
fn an_output_flood_stops_the_run() {
    let ws = Ws::new();
    for backend in ["js", "python"] {
        let source = match backend {
            "js" => "for (;;) console.log('x'.repeat(100))",
            _ => "while True: print('x' * 100)",
        };
        let (code, doc) = ws.exec_json(&["--backend", backend, "--timeout", "60", source], "");
        let error = doc["error"].as_str().unwrap_or_default();
        assert_eq!(code, 1, "{backend}: {doc}");
        assert_eq!(doc["status"], "failed", "{backend}: {doc}");
        assert!(
            error.contains("output limit exceeded"),
            "{backend}: {error}"
        );
        let stdout = doc["stdout"].as_str().unwrap();
        assert!(stdout.contains("[output truncated:"), "{backend}");
    }
}

#[test]
fn output_a_little_over_the_cap_is_truncated_not_stopped() {
    let ws = Ws::new();
    let (code, doc): (i32, Value) = ws.exec_json(
        &["process.stdout.write('y'.repeat(1200000)); console.log('done')"],
        "",
    );
    assert_eq!(code, 0, "{doc}");
    assert_eq!(doc["status"], "completed");
}

/// Makes recording a run's end fail the way a full disk does, for ends that
/// carry output (`with_output`) or for every end.
fn fail_recording_ends(ws: &Ws, only_with_output: bool) {
    let conn = rusqlite::Connection::open(ws.db()).expect("open the workspace file");
    let when = if only_with_output {
        "NEW.status <> 'running' AND length(NEW.stdout) > 0"
    } else {
        "NEW.status <> 'running'"
    };
    conn.execute_batch(&format!(
        "CREATE TRIGGER full_disk BEFORE UPDATE ON runs WHEN {when} \
         BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END;"
    ))
    .expect("create the trigger");
}

#[test]
fn a_run_whose_output_cannot_be_recorded_ends_recorded_without_it() {
    let ws = Ws::new();
    fail_recording_ends(&ws, true);
    let (code, doc) = ws.exec_json(&["--backend", "shell", "--id", "r1", "echo hi"], "");
    assert_eq!(
        (code, &doc["status"]),
        (0, &Value::from("completed")),
        "{doc}"
    );
    let error = doc["error"].as_str().unwrap_or_default();
    assert!(error.contains("output could not be recorded"), "{doc}");
    let runs = ws.json(&["runs"]);
    assert_eq!(runs["runs"][0]["status"], "completed", "{runs}");
}

#[test]
fn a_run_whose_end_cannot_be_recorded_is_not_reported_completed() {
    let ws = Ws::new();
    fail_recording_ends(&ws, false);
    let (code, doc) = ws.exec_json(&["--backend", "shell", "--id", "r2", "echo hi"], "");
    assert_eq!((code, &doc["status"]), (1, &Value::from("failed")), "{doc}");
    let error = doc["error"].as_str().unwrap_or_default();
    assert!(error.contains("its end could not be recorded"), "{doc}");
}
