//! The store side of durable runs: journal rows commit with the mutation
//! they record (and only with it), one owner at a time, interrupts and
//! their answers, and clean-up when a run ends.

use std::time::Duration;

use computer_store::{
    DurableRun, EntryStatus, Errno, Interrupt, JournalEntry, NewRun, RunEnd, Workspace,
    WriteOptions,
};

fn ws() -> (tempfile::TempDir, Workspace) {
    let dir = tempfile::tempdir().unwrap();
    let ws = Workspace::open(dir.path().join("ws.db")).unwrap();
    (dir, ws)
}

fn row(seq: u64, name: &str) -> JournalEntry {
    JournalEntry {
        seq,
        kind: "fs".into(),
        name: name.into(),
        args_hash: seq as i64,
        status: EntryStatus::Done,
        result: Some(vec![seq as u8]),
    }
}

fn start(ws: &Workspace, id: &str, owner: &str) {
    ws.create_durable_run(
        &NewRun {
            id,
            backend: "js",
            source: "1",
            options: "{}",
        },
        &DurableRun {
            on_interrupt: "replay",
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
    let (out, left) = ws.with_journal("r", vec![row(0, "read")], Some(last), || {
        ws.write("/f", b"x", &WriteOptions::default())
    });
    out.unwrap();
    assert!(left.is_none(), "committed with the write");
    let j = ws.journal("r").unwrap();
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
    let (out, left) = ws.with_journal("r", vec![row(2, "stat")], Some(last), || {
        ws.write("/missing/f", b"x", &WriteOptions::default())
    });
    assert_eq!(out.unwrap_err().code, Errno::ENOENT);
    assert_eq!(left.unwrap(), vec![row(2, "stat")]);
    assert_eq!(ws.journal("r").unwrap().len(), 2);
}

#[test]
fn one_owner_at_a_time() {
    let (_d, ws) = ws();
    start(&ws, "r", "alive");
    let never_dead = |_: &str| false;
    let dead = |_: &str| true;
    let lease = Duration::from_secs(60);
    assert!(
        ws.claim_run("r", "other", lease, &never_dead)
            .unwrap()
            .is_none()
    );
    let claimed = ws.claim_run("r", "other", lease, &dead).unwrap().unwrap();
    assert_eq!(claimed.attempts, 2);
    assert_eq!(claimed.spec.as_deref(), Some("{}"));
    // The first owner has lost it: it can no longer renew.
    assert!(!ws.renew_lease("r", "alive", lease).unwrap());
    assert!(ws.renew_lease("r", "other", lease).unwrap());
    // An expired lease is free even if its owner looks alive.
    assert!(ws.renew_lease("r", "other", Duration::ZERO).unwrap());
    std::thread::sleep(Duration::from_millis(5));
    assert!(
        ws.claim_run("r", "third", lease, &never_dead)
            .unwrap()
            .is_some()
    );
    // An ended run is never claimed.
    ws.finish_run(
        "r",
        &RunEnd {
            status: "completed",
            ..RunEnd::default()
        },
    )
    .unwrap();
    assert!(ws.claim_run("r", "fourth", lease, &dead).unwrap().is_none());
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
    ws.raise_interrupt(&i, &[row(0, "read")]).unwrap();
    ws.raise_interrupt(&i, &[]).unwrap();
    ws.park_run("r", &[]).unwrap();
    assert_eq!(ws.pending_interrupts().unwrap().len(), 1, "raised once");
    assert_eq!(
        ws.journal("r").unwrap().len(),
        1,
        "rows commit with the interrupt"
    );
    assert_eq!(ws.run_record("r").unwrap().unwrap().status, "waiting");
    let unfinished = ws.unfinished_runs().unwrap();
    assert_eq!(unfinished.len(), 1);
    assert!(!unfinished[0].answered);

    let e = ws.answer_interrupt("r", "r/9", "{}").unwrap_err();
    assert_eq!(e.code, Errno::ENOENT);
    let answered = ws
        .answer_interrupt("r", "r/3", r#"{"approved":true}"#)
        .unwrap();
    assert_eq!(answered.answer.as_deref(), Some(r#"{"approved":true}"#));
    let e = ws.answer_interrupt("r", "r/3", "{}").unwrap_err();
    assert!(e.message.contains("already answered"), "{}", e.message);
    assert!(ws.pending_interrupts().unwrap().is_empty());
    assert!(ws.unfinished_runs().unwrap()[0].answered);
    assert_eq!(
        ws.interrupt("r", "r/3", 0)
            .unwrap()
            .unwrap()
            .answer
            .as_deref(),
        Some(r#"{"approved":true}"#)
    );

    // The end of the run drops what only an unfinished run needs.
    ws.journal_output("r", &[row(1, "stat")], &[(1, b"out".to_vec())])
        .unwrap();
    assert_eq!(
        ws.emitted_output("r").unwrap(),
        (b"out".to_vec(), Vec::new())
    );
    ws.finish_run(
        "r",
        &RunEnd {
            status: "completed",
            ..RunEnd::default()
        },
    )
    .unwrap();
    assert!(ws.journal("r").unwrap().is_empty());
    assert_eq!(ws.emitted_output("r").unwrap(), (Vec::new(), Vec::new()));
    assert!(ws.interrupt("r", "r/3", 0).unwrap().is_none());
    assert!(ws.unfinished_runs().unwrap().is_empty());
}
