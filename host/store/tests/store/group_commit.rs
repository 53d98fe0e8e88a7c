//! Group commit: changes under a `GroupCommit` share one transaction, which
//! nobody outside the group can see into, and which commits at its size, its
//! age, when anything else uses the workspace, and when asked.

use std::sync::Arc;
use std::time::{Duration, Instant};

use computer_store::{Errno, GroupCommit, MkdirOptions, NewRun, Workspace};

use crate::support::{get, put};

/// Two handles on one file: the run's, and another process's view.
fn two_handles() -> (tempfile::TempDir, Arc<Workspace>, Workspace) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ws.db");
    let mine = Arc::new(Workspace::open(&path).unwrap());
    let other = Workspace::open(&path).unwrap();
    (dir, mine, other)
}

const LONG: Duration = Duration::from_secs(3600);

/// Whether `path` exists for a reader outside any group (a thread of its
/// own: a group covers every workspace its thread touches).
fn seen(other: &Workspace, path: &str) -> bool {
    std::thread::scope(|s| s.spawn(|| other.exists(path).unwrap()).join().unwrap())
}

/// `path`'s content for a reader outside any group.
fn read_outside(other: &Workspace, path: &str) -> String {
    std::thread::scope(|s| s.spawn(|| get(other, path)).join().unwrap())
}

#[test]
fn changes_wait_for_the_commit_and_read_back_inside_the_group() {
    let (_dir, ws, other) = two_handles();
    let group = GroupCommit::new(1000, LONG);
    {
        let _in = group.enter();
        put(&ws, "/a", "one");
        put(&ws, "/b", "two");
        // The group's own reads see its changes ...
        assert_eq!(get(&ws, "/a"), "one");
        assert!(group.is_open());
    }
    // ... nobody else does until it commits.
    assert!(!seen(&other, "/a"));
    ws.commit_group().unwrap();
    assert!(!group.is_open());
    assert_eq!(read_outside(&other, "/a"), "one");
    assert_eq!(read_outside(&other, "/b"), "two");
}

#[test]
fn another_thread_on_the_same_handle_commits_the_group_first() {
    let (_dir, ws, other) = two_handles();
    let group = GroupCommit::new(1000, LONG);
    {
        let _in = group.enter();
        put(&ws, "/a", "one");
    }
    assert!(!seen(&other, "/a"));
    // This thread is outside the group now: its read commits the group.
    let ws2 = ws.clone();
    let seen = std::thread::spawn(move || get(&ws2, "/a")).join().unwrap();
    assert_eq!(seen, "one");
    assert!(!group.is_open());
    assert_eq!(read_outside(&other, "/a"), "one");
}

#[test]
fn a_full_group_commits_on_its_own() {
    let (_dir, ws, other) = two_handles();
    let group = GroupCommit::new(3, LONG);
    let _in = group.enter();
    put(&ws, "/a", "1");
    put(&ws, "/b", "2");
    assert!(!seen(&other, "/a"));
    put(&ws, "/c", "3");
    assert!(seen(&other, "/c"), "the third change commits the group");
    assert!(!group.is_open());
}

#[test]
fn an_old_group_commits_while_its_run_is_idle() {
    let (_dir, ws, other) = two_handles();
    let group = GroupCommit::new(1000, Duration::from_millis(20));
    let _in = group.enter();
    put(&ws, "/a", "1");
    // No further change is made: the committer thread commits it. The
    // bound only keeps a broken committer from hanging the suite: it is
    // thousands of times the group's age, not a claim about speed.
    let start = Instant::now();
    while !seen(&other, "/a") {
        assert!(
            start.elapsed() < Duration::from_secs(300),
            "the group was never committed"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    assert!(!group.is_open());
}

#[test]
fn a_failed_change_rolls_back_alone() {
    let (_dir, ws, other) = two_handles();
    let group = GroupCommit::new(1000, LONG);
    let _in = group.enter();
    put(&ws, "/kept", "yes");
    let err = ws.mkdir("/kept", &MkdirOptions::default()).unwrap_err();
    assert_eq!(err.code, Errno::EEXIST);
    put(&ws, "/after", "too");
    ws.commit_group().unwrap();
    assert_eq!(read_outside(&other, "/kept"), "yes");
    assert_eq!(read_outside(&other, "/after"), "too");
    assert_eq!(group.failure(), None);
}

#[test]
fn bookkeeping_commits_the_group_first() {
    let (_dir, ws, other) = two_handles();
    let group = GroupCommit::new(1000, LONG);
    let _in = group.enter();
    put(&ws, "/a", "1");
    // A run record is bookkeeping: durable when it returns, and never
    // ahead of the changes it follows.
    ws.runs()
        .create(&NewRun {
            id: "r1",
            backend: "js",
            source: "",
            options: "{}",
        })
        .unwrap();
    assert!(seen(&other, "/a"));
    assert!(std::thread::scope(|s| s
        .spawn(|| other.runs().get("r1").unwrap().is_some())
        .join()
        .unwrap()));
}

#[test]
fn closing_the_workspace_commits_the_group() {
    let (dir, ws, _other) = two_handles();
    let group = GroupCommit::new(1000, LONG);
    {
        let _in = group.enter();
        put(&ws, "/a", "1");
    }
    drop(ws);
    let again = Workspace::open(dir.path().join("ws.db")).unwrap();
    assert_eq!(get(&again, "/a"), "1");
}

#[test]
fn a_writer_in_another_process_waits_for_the_group_then_goes_on() {
    let (_dir, ws, other) = two_handles();
    let group = GroupCommit::new(1000, Duration::from_millis(20));
    {
        let _in = group.enter();
        put(&ws, "/mine", "1");
    }
    // `other` is another connection: it waits for the group's lock (its busy
    // timeout) until the committer thread commits the group.
    put(&other, "/theirs", "2");
    assert_eq!(read_outside(&other, "/mine"), "1");
    assert_eq!(get(&ws, "/theirs"), "2");
}

#[test]
fn reads_share_a_snapshot_until_the_group_ends() {
    let (_dir, ws, other) = two_handles();
    put(&ws, "/x", "old");
    let group = GroupCommit::new(1000, LONG);
    let _in = group.enter();
    assert_eq!(get(&ws, "/x"), "old");
    // Another process's change is not held up by the snapshot ...
    std::thread::scope(|s| s.spawn(|| put(&other, "/x", "new")).join().unwrap());
    // ... and the group's reads see it from its next snapshot on.
    assert_eq!(get(&ws, "/x"), "old");
    assert!(!group.is_open(), "a read snapshot holds no changes");
    ws.commit_group().unwrap();
    assert_eq!(get(&ws, "/x"), "new");
    // A change ends the snapshot: it is made on the newest state.
    std::thread::scope(|s| s.spawn(|| put(&other, "/y", "theirs")).join().unwrap());
    put(&ws, "/z", "mine");
    assert_eq!(get(&ws, "/y"), "theirs");
}

/// A run that writes without pause holds the write lock for group after
/// group; another connection's changes still get in, interleaved with the
/// run's, instead of waiting for the run to end. The run writes until the
/// other side has made all its changes, so each of them landed while the run
/// was writing; after each, the other side waits until it sees a newer value
/// of the run's, so the run was not held up by them either. Nothing here
/// depends on the machine's speed: only the order of observed states counts.
#[test]
fn another_writer_gets_in_while_a_run_writes_without_pause() {
    let (_dir, ws, other) = two_handles();
    let done = std::sync::atomic::AtomicBool::new(false);
    let theirs = 5;
    let (n, between) = std::thread::scope(|s| {
        let writer = s.spawn(|| {
            let group = GroupCommit::new(256, Duration::from_millis(10));
            let _in = group.enter();
            let mut n = 0u64;
            while !done.load(std::sync::atomic::Ordering::SeqCst) {
                put(&ws, "/mine", &n.to_string());
                n += 1;
            }
            ws.commit_group().unwrap();
            n
        });
        // The run's value once it has committed one newer than `after`.
        let newer_than = |after: Option<u64>| loop {
            assert!(!writer.is_finished(), "the run stopped writing");
            if seen(&other, "/mine") {
                let v: u64 = read_outside(&other, "/mine").parse().unwrap();
                if after.is_none_or(|a| v > a) {
                    return v;
                }
            }
            std::thread::yield_now();
        };
        // Let the run's streak begin.
        let mut last = newer_than(None);
        let mut between = Vec::new();
        for i in 0..theirs {
            // The run never stops before `done`: this change gets in while
            // it writes (else it fails with the busy timeout).
            put(&other, &format!("/theirs{i}"), "x");
            last = newer_than(Some(last));
            between.push(last);
        }
        done.store(true, std::sync::atomic::Ordering::SeqCst);
        (writer.join().unwrap(), between)
    });
    for i in 0..theirs {
        assert!(ws.exists(&format!("/theirs{i}")).unwrap());
    }
    // The run kept committing between the other side's changes.
    assert!(
        between.windows(2).all(|w| w[0] < w[1]),
        "the run's value seen after each of the other side's changes: {between:?}"
    );
    assert!(n > between[theirs - 1], "run made {n}, seen {between:?}");
}
