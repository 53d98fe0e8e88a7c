//! The store side of durable runs: journal rows commit with the mutation
//! they record (and only with it), one owner at a time, interrupts and
//! their answers, and clean-up when a run ends.

use std::time::Duration;

use computer_store::{
    DurableRun, EntryKind, EntryStatus, Errno, Interrupt, JournalEntry, NewRun, OnInterrupt,
    RunEnd, RunStatus, Workspace, WriteOptions,
};

fn ws() -> (tempfile::TempDir, Workspace) {
    let dir = tempfile::tempdir().unwrap();
    let ws = Workspace::open(dir.path().join("ws.db")).unwrap();
    (dir, ws)
}

fn row(seq: u64, name: &str) -> JournalEntry {
    JournalEntry {
        seq,
        kind: EntryKind::Fs,
        name: name.into(),
        args_hash: seq as i64,
        status: EntryStatus::Done,
        result: Some(vec![seq as u8]),
        pins: Vec::new(),
        fallback: None,
    }
}

fn start(ws: &Workspace, id: &str, owner: &str) {
    ws.runs()
        .create_durable(
            &NewRun {
                id,
                backend: "js",
                source: "1",
                options: "{}",
            },
            &DurableRun {
                on_interrupt: OnInterrupt::Replay,
                spec: Some("{}"),
                owner,
                lease: Duration::from_secs(60),
            },
        )
        .unwrap();
}

#[test]
fn journal_rows_commit_with_the_mutation_and_only_with_it() {
    let (_d, ws) = ws();
    start(&ws, "r", "me");
    let last = (
        row(1, "write"),
        Box::new(|_: &dyn std::any::Any| vec![42u8]) as _,
    );
    let (out, left) = ws
        .journal()
        .commit_with("r", vec![row(0, "read")], Some(last), || {
            ws.write("/f", b"x", &WriteOptions::default())
        });
    out.unwrap();
    assert!(left.is_none(), "committed with the write");
    let j = ws.journal().entries("r").unwrap();
    assert_eq!(j.len(), 2);
    assert_eq!(
        j[1].result.as_deref(),
        Some(&[42u8][..]),
        "built from the write's result"
    );

    // A failed mutation commits nothing and hands the rows back.
    let last = (
        row(3, "write"),
        Box::new(|_: &dyn std::any::Any| vec![1u8]) as _,
    );
    let (out, left) = ws
        .journal()
        .commit_with("r", vec![row(2, "stat")], Some(last), || {
            ws.write("/missing/f", b"x", &WriteOptions::default())
        });
    assert_eq!(out.unwrap_err().code, Errno::ENOENT);
    assert_eq!(left.unwrap(), vec![row(2, "stat")]);
    assert_eq!(ws.journal().entries("r").unwrap().len(), 2);
}

#[test]
fn one_owner_at_a_time() {
    let (_d, ws) = ws();
    start(&ws, "r", "alive");
    let never_dead = |_: &str| false;
    let dead = |_: &str| true;
    let lease = Duration::from_secs(60);
    assert!(
        ws.runs()
            .claim("r", "other", lease, &never_dead)
            .unwrap()
            .is_none()
    );
    let claimed = ws
        .runs()
        .claim("r", "other", lease, &dead)
        .unwrap()
        .unwrap();
    assert_eq!(claimed.attempts, 2);
    assert_eq!(claimed.spec.as_deref(), Some("{}"));
    // The first owner has lost it: it can no longer renew.
    assert!(!ws.runs().renew_lease("r", "alive", lease).unwrap());
    assert!(ws.runs().renew_lease("r", "other", lease).unwrap());
    // An expired lease is free even if its owner looks alive.
    assert!(ws.runs().renew_lease("r", "other", Duration::ZERO).unwrap());
    std::thread::sleep(Duration::from_millis(5));
    assert!(
        ws.runs()
            .claim("r", "third", lease, &never_dead)
            .unwrap()
            .is_some()
    );
    // An ended run is never claimed.
    ws.runs()
        .finish("r", &RunEnd::new(RunStatus::Completed))
        .unwrap();
    assert!(
        ws.runs()
            .claim("r", "fourth", lease, &dead)
            .unwrap()
            .is_none()
    );
}

#[test]
fn interrupts_wait_once_and_are_answered_once() {
    let (_d, ws) = ws();
    start(&ws, "r", "me");
    let i = Interrupt {
        run_id: "r".into(),
        call_id: "r/3".into(),
        index: 0,
        module: "github".into(),
        function: "post-comment".into(),
        payload: r#"{"issue":7}"#.into(),
        created_ns: 0,
        answer: None,
    };
    ws.interrupts().raise(&i, &[row(0, "read")]).unwrap();
    ws.interrupts().raise(&i, &[]).unwrap();
    ws.runs().park("r", &[]).unwrap();
    assert_eq!(ws.interrupts().pending().unwrap().len(), 1, "raised once");
    assert_eq!(
        ws.journal().entries("r").unwrap().len(),
        1,
        "rows commit with the interrupt"
    );
    assert_eq!(
        ws.runs().get("r").unwrap().unwrap().status,
        RunStatus::Waiting
    );
    let unfinished = ws.runs().unfinished().unwrap();
    assert_eq!(unfinished.len(), 1);
    assert!(!unfinished[0].answered);

    let e = ws.interrupts().answer("r", "r/9", "{}").unwrap_err();
    assert_eq!(e.code, Errno::ENOENT);
    let answered = ws
        .interrupts()
        .answer("r", "r/3", r#"{"approved":true}"#)
        .unwrap();
    assert_eq!(answered.answer.as_deref(), Some(r#"{"approved":true}"#));
    let e = ws.interrupts().answer("r", "r/3", "{}").unwrap_err();
    assert!(e.message.contains("already answered"), "{}", e.message);
    assert!(ws.interrupts().pending().unwrap().is_empty());
    assert!(ws.runs().unfinished().unwrap()[0].answered);
    assert_eq!(
        ws.interrupts()
            .get("r", "r/3", 0)
            .unwrap()
            .unwrap()
            .answer
            .as_deref(),
        Some(r#"{"approved":true}"#)
    );

    // The end of the run drops what only an unfinished run needs.
    ws.journal()
        .commit_output("r", &[row(1, "stat")], &[(1, b"out".to_vec())])
        .unwrap();
    assert_eq!(
        ws.journal().emitted_output("r").unwrap(),
        (b"out".to_vec(), Vec::new())
    );
    ws.runs()
        .finish("r", &RunEnd::new(RunStatus::Completed))
        .unwrap();
    assert!(ws.journal().entries("r").unwrap().is_empty());
    assert_eq!(
        ws.journal().emitted_output("r").unwrap(),
        (Vec::new(), Vec::new())
    );
    assert!(ws.interrupts().get("r", "r/3", 0).unwrap().is_none());
    assert!(ws.runs().unfinished().unwrap().is_empty());
}

#[test]
fn journal_pins_keep_read_chunks_until_the_run_ends() {
    let (_d, ws) = ws();
    start(&ws, "r", "me");
    let data: Vec<u8> = (0..600_000u32).map(|i| (i % 251) as u8).collect();
    ws.write("/f", &data, &WriteOptions::default()).unwrap();
    let (bytes, pieces) = ws.read_range_pieces("/f", 1000, Some(300_000)).unwrap();
    assert_eq!(bytes, &data[1000..301_000]);
    assert_eq!(pieces.len(), 2, "{pieces:?}");
    let pinned = JournalEntry {
        pins: pieces.iter().map(|p| p.chunk).collect(),
        fallback: Some(b"fallback".to_vec()),
        ..row(0, "read")
    };
    ws.journal()
        .commit("r", std::slice::from_ref(&pinned))
        .unwrap();
    // The row kept its own result: every pinned chunk was there.
    assert_eq!(ws.journal().entries("r").unwrap()[0].result, pinned.result);
    // The file changes: the pieces still read back, from the pinned chunks.
    ws.write("/f", b"other", &WriteOptions::default()).unwrap();
    assert_eq!(ws.read_pieces(&pieces).unwrap(), bytes);
    ws.runs()
        .finish(
            "r",
            &RunEnd {
                status: RunStatus::Completed,
                exit_code: Some(0),
                value: None,
                error: None,
                stdout: b"",
                stderr: b"",
            },
        )
        .unwrap();
    let gone = ws.read_pieces(&pieces).unwrap_err();
    assert_eq!(gone.code, Errno::EIO, "{gone}");
    assert_eq!(ws.usage().unwrap().stored_bytes, 5);
}

#[test]
fn a_row_whose_chunk_is_gone_keeps_its_fallback() {
    let (_d, ws) = ws();
    start(&ws, "r", "me");
    ws.write("/f", &[7u8; 300_000], &WriteOptions::default())
        .unwrap();
    let (_, pieces) = ws.read_range_pieces("/f", 0, None).unwrap();
    // The file changes before the row is written.
    ws.write("/f", b"new", &WriteOptions::default()).unwrap();
    let r = JournalEntry {
        pins: pieces.iter().map(|p| p.chunk).collect(),
        fallback: Some(b"inline copy".to_vec()),
        ..row(0, "read")
    };
    ws.journal().commit("r", &[r]).unwrap();
    assert_eq!(
        ws.journal().entries("r").unwrap()[0].result.as_deref(),
        Some(&b"inline copy"[..])
    );
}
