//! Fencing (issue 41): a process whose lease ran out while it was stopped
//! writes nothing more for a run that another process has taken over.
//!
//! Process A (`durable-child … exec`) runs a durable run that calls
//! `ws:remote.post`; the server here holds A's request unanswered, so A sits
//! in the call holding no lock. The test SIGSTOPs A, waits until the
//! workspace shows A's lease expired, and lets process B (`durable-child …
//! recover`) take the run over: B repeats the call (answered at once) and
//! completes the run. Then it SIGCONTs A and answers A's request: A comes
//! back believing it owns the run, and every write it tries (the call's
//! journal row, the file, the output, the run's end) must be refused. No
//! step waits for a fixed time: each waits for a state it can see.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use computer_store::{RunStatus, Workspace};
use computer_tests::component_cache_dir;

const RUN: &str = "fence-1";
/// Short, so the test does not wait long for A's lease to run out; A renews
/// it every third of that while it is not stopped.
const LEASE_MS: &str = "1000";

const SCRIPT: &str = r#"
import { writeFileSync } from "node:fs";
import { post } from "ws:remote";
const r = post("safe", 1);
writeFileSync("/result", r);
console.log("posted", r);
"#;

/// Reads one request (headers and body) from `stream`.
fn read_request(stream: &TcpStream) {
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut len = 0usize;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 {
            return;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some((name, value)) = line.split_once(':')
            && name.eq_ignore_ascii_case("content-length")
        {
            len = value.trim().parse().unwrap_or(0);
        }
    }
    let mut body = vec![0; len];
    let _ = reader.read_exact(&mut body);
}

fn reply(mut stream: TcpStream, body: &str) {
    let _ = write!(
        stream,
        "HTTP/1.1 200 OK\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
}

/// A server whose first request (A's) is held until `release` is sent,
/// answered "from-A"; every later one is answered "from-B" at once.
/// `first` receives () when the first request has arrived.
fn holding_server() -> (String, mpsc::Receiver<()>, mpsc::Sender<()>) {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1");
    let addr = listener.local_addr().unwrap().to_string();
    let (first_tx, first) = mpsc::channel();
    let (release, release_rx) = mpsc::channel::<()>();
    std::thread::spawn(move || {
        let mut held = Some((first_tx, release_rx));
        for stream in listener.incoming() {
            let Ok(stream) = stream else { continue };
            read_request(&stream);
            match held.take() {
                Some((arrived, release)) => {
                    std::thread::spawn(move || {
                        let _ = arrived.send(());
                        if release.recv().is_ok() {
                            reply(stream, "from-A");
                        }
                    });
                }
                None => reply(stream, "from-B"),
            }
        }
    });
    (addr, first, release)
}

fn child(db: &Path, addr: &str, args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_durable-child"))
        .arg(db)
        .args(args)
        .env("COUNTER_ADDR", addr)
        .env("DURABLE_CHILD_LEASE_MS", LEASE_MS)
        .env("COMPUTER_CACHE_DIR", component_cache_dir())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn durable-child")
}

fn signal(child: &Child, sig: &str) {
    let ok = Command::new("kill")
        .args([sig, &child.id().to_string()])
        .status()
        .expect("kill")
        .success();
    assert!(ok, "kill {sig}");
}

/// Waits (polling the workspace) until `cond` holds for the run's state;
/// the bound only keeps a broken build from hanging the suite.
fn wait_for(ws: &Workspace, what: &str, cond: impl Fn(&Workspace) -> bool) {
    let start = Instant::now();
    while !cond(ws) {
        assert!(
            start.elapsed() < Duration::from_secs(300),
            "never happened: {what}"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn lease_expired(ws: &Workspace) -> bool {
    ws.runs().unfinished().unwrap().iter().any(|u| {
        u.id == RUN
            && u.status == RunStatus::Running
            && u.lease_until_ns
                .is_some_and(|t| t < computer_store::now_ns())
    })
}

fn journal_rows(db: &Path) -> i64 {
    let c = rusqlite::Connection::open(db).unwrap();
    c.query_row(
        "SELECT (SELECT count(*) FROM journal WHERE run_id = ?1)
              + (SELECT count(*) FROM run_output WHERE run_id = ?1)",
        [RUN],
        |r| r.get(0),
    )
    .unwrap()
}

#[test]
fn a_stopped_owner_whose_lease_ran_out_writes_nothing_after_a_takeover() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("ws.db");
    drop(Workspace::open(&db).unwrap());
    let script = dir.path().join("script.js");
    std::fs::write(&script, SCRIPT).unwrap();
    let (addr, first, release) = holding_server();

    let mut a = child(&db, &addr, &["exec", RUN, script.to_str().unwrap()]);
    first
        .recv_timeout(Duration::from_secs(300))
        .expect("A's request reached the server");
    // A waits in the module call, with the call's row committed before it.
    signal(&a, "-STOP");
    let ws = Workspace::open(&db).unwrap();

    // B takes the run over once A's lease has run out. A may have been
    // stopped in the middle of renewing its lease (holding the write lock
    // for a moment): then B cannot claim; let A finish that and try again.
    let mut taken = false;
    for _ in 0..5 {
        wait_for(&ws, "A's lease expired", lease_expired);
        let b = child(&db, &addr, &["recover"]);
        let out = b.wait_with_output().unwrap();
        let record = ws.runs().get(RUN).unwrap().unwrap();
        if record.status == RunStatus::Completed {
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            taken = true;
            break;
        }
        signal(&a, "-CONT");
        signal(&a, "-STOP");
    }
    assert!(taken, "B never took the run over");
    let before = ws.runs().get(RUN).unwrap().unwrap();
    assert_eq!(String::from_utf8_lossy(&before.stdout), "posted from-B\n");
    assert_eq!(ws.read("/result").unwrap(), b"from-B");
    assert_eq!(journal_rows(&db), 0, "B's end dropped the run's journal");

    // A wakes up and gets its answer: every write it tries is fenced.
    signal(&a, "-CONT");
    release.send(()).unwrap();
    let mut stderr = String::new();
    a.stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    let status = a.wait().unwrap();
    assert!(!status.success(), "A ended as if the run were its own");

    let after = ws.runs().get(RUN).unwrap().unwrap();
    assert_eq!(after.status, RunStatus::Completed, "{stderr}");
    assert_eq!(after.stdout, before.stdout, "{stderr}");
    assert_eq!(after.ended_ns, before.ended_ns, "{stderr}");
    assert_eq!(ws.read("/result").unwrap(), b"from-B", "{stderr}");
    assert_eq!(
        journal_rows(&db),
        0,
        "A wrote journal rows or output for a run it no longer owns: {stderr}"
    );
}
