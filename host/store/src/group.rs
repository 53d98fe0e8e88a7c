//! Group commit: a run's consecutive changes share one SQLite transaction.
//!
//! A change is a write transaction of its own, and on this machine an empty
//! write transaction already costs what a tmpfs `creat` costs; so a run that
//! makes many small changes pays mostly for commits. Under a [`GroupCommit`]
//! the first change opens a transaction on the workspace's connection and
//! later ones nest in it as savepoints (each still all-or-nothing), until the
//! group commits:
//! - after `max_ops` changes, or `max_age` after it opened (the committer
//!   thread below commits it even while the run sits in a blocking call);
//! - whenever anything else uses the connection: another thread, another
//!   group, or bookkeeping (`meta_tx`: run records, journal rows, output,
//!   interrupts), so nobody outside the group ever reads its uncommitted
//!   changes and bookkeeping is durable when it returns;
//! - when the runtime says so (output about to be shown, a module call, the
//!   end of the run) through [`Workspace::commit_group`](crate::Workspace::commit_group).
//!
//! Reads under a group share a read snapshot the same way (ended by the same
//! rules, and by the group's next change), so a run that reads thousands of
//! files takes SQLite's WAL read lock once per group, not once per read.
//! Another process's changes are seen from the group's next snapshot on, at
//! most `max_age` later.
//!
//! A crash loses only the changes since the last commit, with the journal rows
//! that record them (they are written in the same transaction), so a durable
//! run's replay executes them again. A commit that fails is recorded in the
//! group ([`GroupCommit::failure`]) and every later change under it fails:
//! the runtime stops the run, since its guest was told those changes were made.

use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, OnceLock, Weak};
use std::time::{Duration, Instant};

use rusqlite::Connection;

/// The connection of a workspace and the group transaction open on it.
pub(crate) struct Conn {
    pub db: Connection,
    pub group: Option<OpenGroup>,
    /// When the current streak of write groups began: groups opened each
    /// within [`HAND_OFF`] of the previous one's commit.
    streak_since: Option<Instant>,
    /// When the last write group committed.
    written_at: Option<Instant>,
    /// How long a statement waits for another connection's lock.
    busy_timeout: Duration,
}

/// A streak of write groups holds SQLite's write lock almost without a
/// break, so another connection's change (another process, another
/// handle) could wait for the whole run. After this long the next group
/// waits until [`HAND_OFF`] has passed since the last commit: a waiter
/// tries every 200 µs at most ([`crate::busy`]), so it gets in. This costs a
/// run that writes without pause 2% of its time.
const STREAK: Duration = Duration::from_millis(25);
const HAND_OFF: Duration = Duration::from_micros(500);

pub(crate) type SharedConn = Arc<Mutex<Conn>>;

pub(crate) fn lock(conn: &SharedConn) -> std::sync::MutexGuard<'_, Conn> {
    // A panic inside a transaction drops (rolls back) it, so the connection
    // is still consistent after poisoning.
    let conn = conn.lock().unwrap_or_else(|p| p.into_inner());
    crate::busy::use_timeout(conn.busy_timeout);
    conn
}

/// A group's transaction, open on a connection.
pub(crate) struct OpenGroup {
    pub owner: Arc<Shared>,
    since: Instant,
    ops: u32,
    /// Whether it holds changes (a write transaction); else it is a read
    /// snapshot its reads share.
    pub writing: bool,
    /// Tells this opening from a later one, for the committer thread.
    generation: u64,
}

/// Limits and state of one group, shared by the threads that work under it
/// (a run and the commands it starts).
pub(crate) struct Shared {
    max_ops: u32,
    max_age: Duration,
    /// Whether changes of this group wait for a commit somewhere.
    open: AtomicBool,
    failure: Mutex<Option<String>>,
}

/// A run's group commit: see the module documentation. Cheap to clone.
#[derive(Clone)]
pub struct GroupCommit(Arc<Shared>);

thread_local! {
    static CURRENT: RefCell<Option<Arc<Shared>>> = const { RefCell::new(None) };
}

/// While alive, the thread's changes join the group; dropping it restores
/// what the thread had before.
pub struct Entered {
    previous: Option<Arc<Shared>>,
}

impl Drop for Entered {
    fn drop(&mut self) {
        let previous = self.previous.take();
        CURRENT.with(|c| *c.borrow_mut() = previous);
    }
}

impl GroupCommit {
    /// Commit after `max_ops` changes or `max_age`, whichever comes first.
    pub fn new(max_ops: u32, max_age: Duration) -> Self {
        GroupCommit(Arc::new(Shared {
            max_ops: max_ops.max(1),
            max_age,
            open: AtomicBool::new(false),
            failure: Mutex::new(None),
        }))
    }

    /// Makes this thread's changes join the group until the guard drops.
    pub fn enter(&self) -> Entered {
        let previous = CURRENT.with(|c| c.borrow_mut().replace(self.0.clone()));
        Entered { previous }
    }

    /// Whether changes of the group wait for a commit.
    pub fn is_open(&self) -> bool {
        self.0.open.load(Ordering::SeqCst)
    }

    /// Why a commit of the group failed, if one did: the changes it held are
    /// lost, though the guest was told they were made.
    pub fn failure(&self) -> Option<String> {
        self.0.failure()
    }
}

impl Shared {
    pub(crate) fn failure(&self) -> Option<String> {
        self.failure
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    fn fail(&self, why: String) {
        let mut f = self.failure.lock().unwrap_or_else(|p| p.into_inner());
        f.get_or_insert(why);
    }
}

/// The group this thread works under, if any.
pub(crate) fn current() -> Option<Arc<Shared>> {
    CURRENT.with(|c| c.borrow().clone())
}

/// What a transaction on `conn` should do about an open group.
pub(crate) enum Joined {
    /// No group open on the connection.
    Alone,
    /// Inside the open group of the current thread.
    Nested { writing: bool },
}

impl Conn {
    pub fn new(db: Connection, busy_timeout: Duration) -> Self {
        Conn {
            db,
            group: None,
            streak_since: None,
            written_at: None,
            busy_timeout,
        }
    }

    /// Before a write group opens: lets a waiting writer in after a long
    /// streak (see [`STREAK`]).
    fn hand_off(&mut self) {
        let now = Instant::now();
        let gap = self.written_at.map(|t| now.duration_since(t));
        match (gap, self.streak_since) {
            (Some(gap), Some(since)) if gap < HAND_OFF => {
                if now.duration_since(since) >= STREAK {
                    std::thread::sleep(HAND_OFF - gap);
                    self.streak_since = Some(Instant::now());
                }
            }
            _ => self.streak_since = Some(now),
        }
    }

    /// Commits a group that is not the current thread's (or any, with
    /// `mine: None`); reports whether the caller is inside the open group.
    pub fn settle(&mut self, mine: Option<&Arc<Shared>>) -> Joined {
        match &self.group {
            None => Joined::Alone,
            Some(g) if mine.is_some_and(|m| Arc::ptr_eq(m, &g.owner)) => {
                Joined::Nested { writing: g.writing }
            }
            Some(_) => {
                // A failure is the group's to report; the caller goes on.
                let _ = self.commit_group();
                Joined::Alone
            }
        }
    }

    /// Opens a transaction for `owner`'s group: a write transaction later
    /// changes nest in, or (`writing: false`) a read snapshot later reads
    /// share, which skips taking and dropping SQLite's WAL read lock at every
    /// read. A change in a read group ends it and opens a write one.
    pub fn open_group(
        &mut self,
        owner: Arc<Shared>,
        conn: &SharedConn,
        writing: bool,
    ) -> rusqlite::Result<()> {
        if self.group.as_ref().is_some_and(|g| !g.writing) {
            self.end_group_quietly();
        }
        let begin = if writing {
            self.hand_off();
            "BEGIN IMMEDIATE"
        } else {
            "BEGIN DEFERRED"
        };
        self.db.prepare_cached(begin)?.execute([])?;
        static GENERATION: AtomicU64 = AtomicU64::new(0);
        let generation = GENERATION.fetch_add(1, Ordering::Relaxed);
        let since = Instant::now();
        if writing {
            owner.open.store(true, Ordering::SeqCst);
        }
        committer().due(Arc::downgrade(conn), since + owner.max_age, generation);
        self.group = Some(OpenGroup {
            owner,
            since,
            ops: 0,
            writing,
            generation,
        });
        Ok(())
    }

    /// Ends a read group (nothing to lose: a failure is only logged).
    fn end_group_quietly(&mut self) {
        if let Err(e) = self.commit_group() {
            tracing::debug!("ending a read snapshot: {e}");
        }
    }

    /// Counts a change (`change`) or a read made in the group, and commits
    /// the group once it is full or old enough.
    pub fn counted(&mut self, change: bool) -> crate::Result<()> {
        let Some(g) = self.group.as_mut() else {
            return Ok(());
        };
        g.ops += u32::from(change);
        if g.ops >= g.owner.max_ops || g.since.elapsed() >= g.owner.max_age {
            self.commit_group()?;
        }
        Ok(())
    }

    /// Forgets a group whose transaction SQLite rolled back on its own.
    pub fn group_vanished(&mut self) {
        if let Some(g) = self.group.take().filter(|g| g.writing) {
            g.owner.open.store(false, Ordering::SeqCst);
            g.owner.fail(format!(
                "{} change(s) made in the last {} ms were rolled back by SQLite",
                g.ops,
                g.since.elapsed().as_millis()
            ));
        }
    }

    /// Commits the open group, if there is one.
    pub fn commit_group(&mut self) -> crate::Result<()> {
        let Some(g) = self.group.take() else {
            return Ok(());
        };
        if g.writing {
            g.owner.open.store(false, Ordering::SeqCst);
        }
        let committed = self
            .db
            .prepare_cached("COMMIT")
            .and_then(|mut s| s.execute([]));
        if g.writing {
            self.written_at = Some(Instant::now());
        }
        if let Err(e) = committed {
            if !self.db.is_autocommit() {
                let _ = self.db.execute_batch("ROLLBACK");
            }
            if !g.writing {
                return Err(e.into());
            }
            let why = format!(
                "{} change(s) made since {} ms before could not be committed and are lost: {e}",
                g.ops,
                g.since.elapsed().as_millis()
            );
            g.owner.fail(why);
            return Err(e.into());
        }
        Ok(())
    }
}

/// Commits groups that reach their age while their run makes no change
/// (it computes, sleeps or waits for a command).
struct Committer {
    due: Mutex<Vec<Due>>,
    wake: Condvar,
}

struct Due {
    conn: Weak<Mutex<Conn>>,
    at: Instant,
    generation: u64,
}

fn committer() -> &'static Committer {
    static COMMITTER: OnceLock<&'static Committer> = OnceLock::new();
    COMMITTER.get_or_init(|| {
        let c: &'static Committer = Box::leak(Box::new(Committer {
            due: Mutex::new(Vec::new()),
            wake: Condvar::new(),
        }));
        let spawned = std::thread::Builder::new()
            .name("computer-group-commit".into())
            .spawn(move || c.serve());
        if let Err(e) = spawned {
            // Groups then commit at their size, at the next change past
            // their age, or when the runtime commits them.
            tracing::warn!("cannot start the group-commit thread: {e}");
        }
        c
    })
}

impl Committer {
    fn due(&self, conn: Weak<Mutex<Conn>>, at: Instant, generation: u64) {
        let mut due = self.due.lock().unwrap_or_else(|p| p.into_inner());
        due.push(Due {
            conn,
            at,
            generation,
        });
        self.wake.notify_one();
    }

    fn serve(&self) {
        let mut due = self.due.lock().unwrap_or_else(|p| p.into_inner());
        loop {
            let now = Instant::now();
            let Some(next) = due.iter().map(|d| d.at).min() else {
                due = self.wake.wait(due).unwrap_or_else(|p| p.into_inner());
                continue;
            };
            if next > now {
                due = self
                    .wake
                    .wait_timeout(due, next - now)
                    .unwrap_or_else(|p| p.into_inner())
                    .0;
                continue;
            }
            let (ready, later): (Vec<Due>, Vec<Due>) = std::mem::take(&mut *due)
                .into_iter()
                .partition(|d| d.at <= now);
            *due = later;
            // A change holding the connection may push a new entry: never
            // hold the list while waiting for a connection.
            drop(due);
            for d in ready {
                let Some(conn) = d.conn.upgrade() else {
                    continue;
                };
                let mut c = lock(&conn);
                if c.group
                    .as_ref()
                    .is_some_and(|g| g.generation == d.generation)
                {
                    // A failure is recorded in the group, for its run.
                    let _ = c.commit_group();
                }
            }
            due = self.due.lock().unwrap_or_else(|p| p.into_inner());
        }
    }
}
