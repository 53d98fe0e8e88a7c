//! Consecutive clock readings share a journal row, and replay as they were.

use std::sync::Arc;

use computer_store::{EntryKind, JournalEntry, Workspace};

use super::Journal;

#[test]
fn consecutive_clock_readings_share_a_row_and_replay_one_by_one() {
    let ws = Arc::new(Workspace::in_memory().unwrap());
    let mut first = Journal::load(ws.clone(), "run-1").unwrap();
    let readings: Vec<u64> = (0..1000).map(|_| first.monotonic_now().unwrap()).collect();
    let wall = first.wall_now().unwrap();
    let after = first.monotonic_now().unwrap();
    first.flush().unwrap();

    let rows = ws.journal().entries("run-1").unwrap();
    // 1000 readings in rows of at most 8192 (64 KiB), then the wall clock,
    // then a new run of one.
    assert_eq!(
        rows.len(),
        3,
        "{:?}",
        rows.iter()
            .map(|r| (r.seq, r.kind, r.name.clone()))
            .collect::<Vec<_>>()
    );
    assert_eq!(rows[0].result.as_ref().map(Vec::len), Some(8000));
    assert_eq!((rows[1].seq, rows[1].kind), (1000, EntryKind::Clock));
    assert_eq!(rows[2].seq, 1001);

    let mut replay = Journal::load(ws.clone(), "run-1").unwrap();
    let again: Vec<u64> = (0..1000).map(|_| replay.monotonic_now().unwrap()).collect();
    assert_eq!(again, readings);
    assert_eq!(replay.wall_now().unwrap(), wall);
    assert_eq!(replay.monotonic_now().unwrap(), after);
    // Past the journal, time goes on from the last reading.
    assert!(replay.monotonic_now().unwrap() >= after);
}

/// A replayed call matches its row only by the whole digest: one that
/// shares the first 8 bytes (what older builds compared) is another call,
/// and so is a row of an older build (no digest) for a call with arguments.
#[test]
fn a_call_matches_its_row_by_the_whole_digest() {
    use computer_store::EntryStatus;

    use super::{Step, args_hash};

    let ws = Arc::new(Workspace::in_memory().unwrap());
    let mine = args_hash(&[b"ws:gate.ask", b"[\"deploy\"]"]);
    let mut colliding = mine;
    colliding[31] ^= 1;
    let row = |seq, digest| JournalEntry {
        args_digest: digest,
        ..Journal::entry(
            seq,
            EntryKind::Module,
            "ws:gate.ask",
            mine,
            EntryStatus::Done,
            Some(vec![]),
        )
    };
    ws.journal()
        .commit(
            "r",
            &[
                row(0, Some(mine)),
                row(1, Some(colliding)),
                row(2, Some(mine)),
            ],
        )
        .unwrap();

    let mut replay = Journal::load(ws.clone(), "r").unwrap();
    assert!(matches!(
        replay.step(EntryKind::Module, "ws:gate.ask", mine),
        Ok(Step::Replay(_))
    ));
    let Err(e) = replay.step(EntryKind::Module, "ws:gate.ask", mine) else {
        panic!("a row with the same 8-byte prefix matched");
    };
    assert!(e.to_string().contains("with other arguments"), "{e}");

    let mut replay = Journal::load(ws, "r").unwrap();
    // As the store loads a row of an older build with a nonzero hash.
    replay.recorded[2].args_digest = None;
    replay.next = 2;
    let Err(e) = replay.step(EntryKind::Module, "ws:gate.ask", mine) else {
        panic!("an older build's row matched");
    };
    assert!(e.to_string().contains("older version"), "{e}");
}
