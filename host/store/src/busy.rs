//! How a connection waits for another connection's write lock.
//!
//! SQLite's own busy handler sleeps 1, 2, 5, 10, ... 100 ms between tries.
//! A run under group commit holds the write lock for whole groups and lets
//! go only briefly between them ([`crate::group`] leaves a hand-off gap after
//! a long streak of groups), so a waiter that naps for 100 ms at a time
//! would almost never see the lock free and another process's change would
//! wait for the end of the run, or time out. Ours tries every 100 µs, then
//! every 200 µs: a try is a failed lock on the `-shm` file, a few µs of CPU.

use std::cell::Cell;
use std::time::{Duration, Instant};

use rusqlite::Connection;

/// Tries at these intervals; the first few finer, since most waits are for
/// a single change to commit.
const FIRST: Duration = Duration::from_micros(100);
const THEN: Duration = Duration::from_micros(200);
const FIRST_TRIES: i32 = 10;

thread_local! {
    /// When the current wait began: SQLite calls the handler with the
    /// number of earlier calls for the same wait, on the waiting thread.
    static SINCE: Cell<Option<Instant>> = const { Cell::new(None) };
    /// How long the connection this thread uses may wait: SQLite's handler
    /// takes no context we could reach without `unsafe`, so whoever takes a
    /// connection sets it ([`use_timeout`]).
    static TIMEOUT: Cell<Duration> = const { Cell::new(Duration::from_secs(30)) };
}

/// Makes `conn` wait for locks as above, for at most `timeout` (also set for
/// this thread).
pub(crate) fn wait_finely(conn: &mut Connection, timeout: Duration) -> rusqlite::Result<()> {
    use_timeout(timeout);
    conn.busy_handler(Some(on_busy))
}

/// The timeout of the connection this thread is about to use.
pub(crate) fn use_timeout(timeout: Duration) {
    TIMEOUT.with(|t| t.set(timeout));
}

fn on_busy(count: i32) -> bool {
    let now = Instant::now();
    let since = SINCE.with(|s| {
        if count == 0 {
            s.set(Some(now));
        }
        s.get().unwrap_or(now)
    });
    if now.duration_since(since) >= TIMEOUT.with(Cell::get) {
        return false;
    }
    std::thread::sleep(if count < FIRST_TRIES { FIRST } else { THEN });
    true
}
