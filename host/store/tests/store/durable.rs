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
        args_digest: Some([seq as u8; 32]),
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

/// The whole SHA-256 of a call's arguments is kept: two calls whose digests
/// share the first 8 bytes (a pair found in minutes) are told apart. A row
/// of an older build, which kept only those 8 bytes, matches no call with
/// arguments.
#[test]
fn journal_rows_keep_the_whole_args_digest() {
    let (d, ws) = ws();
    start(&ws, "r", "me");
    let mut digest = [0u8; 32];
    digest[..8].copy_from_slice(&[1, 2, 3, 4, 5, 6, 7, 8]);
    digest[31] = 9;
    let r = JournalEntry {
        args_digest: Some(digest),
        ..row(0, "write")
    };
    ws.journal().commit("r", &[r, row(1, "clock")]).unwrap();
    let rows = ws.journal().entries("r").unwrap();
    assert_eq!(rows[0].args_digest, Some(digest));
    // Rows as an older build wrote them: the 8-byte hash, no digest.
    rusqlite::Connection::open(d.path().join("ws.db"))
        .unwrap()
        .execute(
            "UPDATE journal SET args_digest = NULL, args_hash = CASE seq WHEN 0 THEN 42 ELSE 0 END",
            [],
        )
        .unwrap();
    let rows = ws.journal().entries("r").unwrap();
    assert_eq!(rows[0].args_digest, None, "unknown: it matches nothing");
    assert_eq!(
        rows[1].args_digest,
        Some([0; 32]),
        "a call without arguments"
    );
}

/// Fencing: once another handle (another process) has claimed a run, every
/// write the first owner makes for it fails as "fenced" in its own
/// transaction (journal rows and the file change they record, output,
/// interrupts, park, finish) and the handle says so; the new owner's
/// writes go through.
#[test]
fn a_stale_owner_is_fenced_off_every_write_for_the_run() {
    let (d, first) = ws();
    start(&first, "r", "first");
    first.journal().commit("r", &[row(0, "read")]).unwrap();
    let second = Workspace::open(d.path().join("ws.db")).unwrap();
    // The first owner looks dead to the second (its lease ran out).
    let claimed = second
        .runs()
        .claim("r", "second", Duration::from_secs(60), &|_| true)
        .unwrap()
        .unwrap();
    assert_eq!(claimed.epoch, 2, "the creation was epoch 1");
    assert!(!first.is_fenced("r"));

    let fenced = |e: computer_store::FsError| {
        assert!(e.message.contains("fenced"), "{e}");
    };
    fenced(first.journal().commit("r", &[row(1, "read")]).unwrap_err());
    assert!(first.is_fenced("r"));
    let (out, left) = first.journal().commit_with(
        "r",
        vec![row(1, "read")],
        Some((
            row(2, "write"),
            Box::new(|_: &dyn std::any::Any| vec![1u8]) as _,
        )),
        || first.write("/stale", b"x", &WriteOptions::default()),
    );
    fenced(out.unwrap_err());
    assert!(left.is_some(), "nothing was committed");
    assert!(
        !second.exists("/stale").unwrap(),
        "the change rolled back with its rows"
    );
    fenced(
        first
            .journal()
            .commit_output("r", &[], &[(1, b"stale output".to_vec())])
            .unwrap_err(),
    );
    let interrupt = Interrupt {
        run_id: "r".into(),
        call_id: "r/1".into(),
        index: 0,
        module: "m".into(),
        function: "f".into(),
        payload: "{}".into(),
        created_ns: 0,
        answer: None,
    };
    fenced(first.interrupts().raise(&interrupt, &[]).unwrap_err());
    fenced(first.runs().park("r", &[]).unwrap_err());
    fenced(
        first
            .runs()
            .finish("r", &RunEnd::new(RunStatus::Failed))
            .unwrap_err(),
    );
    assert!(
        !first
            .runs()
            .renew_lease("r", "first", Duration::from_secs(60))
            .unwrap()
    );

    // Nothing of the first owner's landed; the second owner's writes do.
    assert_eq!(second.journal().entries("r").unwrap(), vec![row(0, "read")]);
    assert_eq!(
        second.journal().emitted_output("r").unwrap(),
        (vec![], vec![])
    );
    assert!(second.interrupts().pending().unwrap().is_empty());
    let record = second.runs().get("r").unwrap().unwrap();
    assert_eq!(record.status, RunStatus::Running);
    second.journal().commit("r", &[row(1, "read")]).unwrap();
    second
        .runs()
        .finish("r", &RunEnd::new(RunStatus::Completed))
        .unwrap();
    assert!(!second.is_fenced("r"));
}

/// The same process claiming a run again (a resume after a park) bumps
/// the epoch too: a handle that claimed an older attempt is fenced.
#[test]
fn a_later_claim_by_the_same_owner_fences_the_earlier_attempt() {
    let (d, first) = ws();
    start(&first, "r", "me");
    first.runs().park("r", &[]).unwrap();
    let other = Workspace::open(d.path().join("ws.db")).unwrap();
    // Pretend `first` still runs attempt 1 (a stale handle of this process).
    first
        .runs()
        .claim("r", "me", Duration::from_secs(60), &|_| false)
        .unwrap()
        .unwrap();
    let again = other
        .runs()
        .claim("r", "me", Duration::from_secs(60), &|_| false)
        .unwrap()
        .unwrap();
    assert_eq!(again.epoch, 3);
    assert!(first.journal().commit("r", &[row(0, "read")]).is_err());
    other.journal().commit("r", &[row(0, "read")]).unwrap();
}
