//! Several `computer` processes on one workspace file at the same time:
//! SQLite serializes the writers and nothing is lost or duplicated.

use std::collections::BTreeMap;
use std::sync::{Arc, Barrier};
use std::thread;

use computer_tests::{Ws, describe, one_json, parse_error_json, run_command};

const WRITERS: usize = 3;
const APPENDS_PER_WRITER: usize = 40;

/// Runs `per_thread(i)` on `n` threads started together; each returns the
/// outputs of the processes it ran.
fn in_parallel<T: Send + 'static>(
    n: usize,
    per_thread: impl Fn(usize) -> T + Send + Sync + 'static,
) -> Vec<T> {
    let barrier = Arc::new(Barrier::new(n));
    let per_thread = Arc::new(per_thread);
    let handles: Vec<_> = (0..n)
        .map(|i| {
            let barrier = Arc::clone(&barrier);
            let per_thread = Arc::clone(&per_thread);
            thread::spawn(move || {
                barrier.wait();
                per_thread(i)
            })
        })
        .collect();
    handles
        .into_iter()
        .map(|h| h.join().expect("worker thread panicked"))
        .collect()
}

#[test]
fn concurrent_appends_from_several_processes_are_all_kept_exactly_once() {
    let ws = Arc::new(Ws::new());
    ws.ok(&["init"]);
    let rev0 = ws.rev();
    let worker_ws = Arc::clone(&ws);
    in_parallel(WRITERS, move |w| {
        for i in 0..APPENDS_PER_WRITER {
            let line = format!("writer {w} line {i:02}\n");
            let args = ["fs", "append", "/log"];
            let out = run_command(&mut worker_ws.command(&args), line.as_bytes());
            assert!(
                out.status.success() && out.stderr.is_empty(),
                "{}",
                describe(&args, &out)
            );
        }
    });

    let log = ws.cat("/log");
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for line in log.lines() {
        *counts.entry(line).or_default() += 1;
    }
    for w in 0..WRITERS {
        for i in 0..APPENDS_PER_WRITER {
            let line = format!("writer {w} line {i:02}");
            assert_eq!(counts.remove(line.as_str()), Some(1), "{line:?} in:\n{log}");
        }
    }
    assert!(counts.is_empty(), "unexpected lines: {counts:?}");
    // Each writer's lines are in its own order.
    for w in 0..WRITERS {
        let prefix = format!("writer {w} ");
        let mine: Vec<&str> = log.lines().filter(|l| l.starts_with(&prefix)).collect();
        let mut sorted = mine.clone();
        sorted.sort_unstable();
        assert_eq!(mine, sorted);
    }
    assert_eq!(ws.rev(), rev0 + (WRITERS * APPENDS_PER_WRITER) as u64);
}

#[test]
fn concurrent_writes_of_distinct_files_are_all_kept() {
    let ws = Arc::new(Ws::new());
    ws.ok(&["fs", "mkdir", "/out"]);
    let worker_ws = Arc::clone(&ws);
    in_parallel(4, move |w| {
        for i in 0..10 {
            let path = format!("/out/w{w}/f{i}");
            let args = ["fs", "write", "--parents", path.as_str()];
            let out = run_command(&mut worker_ws.command(&args), path.as_bytes());
            assert!(out.status.success(), "{}", describe(&args, &out));
        }
    });
    let files = ws.json(&["fs", "find", "/out", "**/f*"]);
    let files = files["entries"].as_array().expect("entries");
    assert_eq!(files.len(), 40);
    for w in 0..4 {
        for i in 0..10 {
            let path = format!("/out/w{w}/f{i}");
            assert_eq!(ws.cat(&path), path);
        }
    }
}

#[test]
fn exactly_one_of_several_exclusive_creates_wins() {
    let ws = Arc::new(Ws::new());
    ws.ok(&["init"]);
    let worker_ws = Arc::clone(&ws);
    let results = in_parallel(6, move |w| {
        let args = ["fs", "write", "--exclusive", "/lock", "--json"];
        let out = run_command(
            &mut worker_ws.command(&args),
            format!("owner {w}").as_bytes(),
        );
        let doc = one_json(&out.stdout);
        (w, out.status.code(), doc)
    });
    let winners: Vec<usize> = results
        .iter()
        .filter(|(_, code, _)| *code == Some(0))
        .map(|(w, _, _)| *w)
        .collect();
    assert_eq!(winners.len(), 1, "{results:?}");
    for (_, code, doc) in results.iter().filter(|(_, code, _)| *code != Some(0)) {
        assert_eq!(*code, Some(1));
        assert_eq!(parse_error_json(doc).0, "EEXIST", "{doc}");
    }
    assert_eq!(ws.cat("/lock"), format!("owner {}", winners[0]));
}

#[test]
fn concurrent_mkdir_parents_of_one_tree_all_succeed() {
    let ws = Arc::new(Ws::new());
    ws.ok(&["init"]);
    let worker_ws = Arc::clone(&ws);
    in_parallel(5, move |_| {
        let args = ["fs", "mkdir", "-p", "/a/b/c/d"];
        let out = run_command(&mut worker_ws.command(&args), b"");
        assert!(out.status.success(), "{}", describe(&args, &out));
    });
    assert_eq!(ws.tree("/"), ["/a", "/a/b", "/a/b/c", "/a/b/c/d"]);
}

#[test]
fn concurrent_first_use_of_a_fresh_workspace_never_fails() {
    // The failure is intermittent (a few percent of processes), so race
    // many fresh files.
    for round in 0..60 {
        let ws = Arc::new(Ws::new());
        let worker_ws = Arc::clone(&ws);
        let outputs = in_parallel(8, move |w| {
            let path = format!("/w{w}");
            let args = ["fs", "write", path.as_str()];
            let out = run_command(&mut worker_ws.command(&args), b"x");
            describe(&args, &out)
        });
        for out in &outputs {
            assert!(
                out.contains("status: exit status: 0"),
                "round {round}:\n{out}"
            );
        }
        assert_eq!(ws.names("/").len(), 8);
    }
}
