//! The `Workspace` handle: one SQLite connection, transactions, and the
//! workspace-wide state (revision counter, read-only subtrees).

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use rusqlite::Connection;

use crate::audit_log::Audit;
use crate::commands::Commands;
use crate::db::{self, Durability};
use crate::error::{Errno, FsError, Result};
use crate::group::{self, Conn, Joined, SharedConn};
use crate::interrupts::Interrupts;
use crate::journal::Journal;
use crate::location::{self, OpenMode};
use crate::modules::Modules;
use crate::path::{MAX_PATH, WsPath};
use crate::runs::Runs;
use crate::tree::{self, Lookup};

/// Default cap on a single file's size.
pub const DEFAULT_MAX_FILE_SIZE: u64 = 4 << 30;

/// Settings for opening a workspace.
#[derive(Debug, Clone)]
pub struct Config {
    /// How far a commit is made durable (fsync policy).
    pub durability: Durability,
    /// How long a writer waits for another process's transaction.
    pub busy_timeout: Duration,
    /// Writes that would make a file larger than this fail with `EFBIG`.
    pub max_file_size: u64,
    /// Record every operation in the audit log.
    pub audit: bool,
    /// Whether opening may create the file, and read-only opening.
    pub mode: OpenMode,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            durability: Durability::Process,
            busy_timeout: Duration::from_secs(30),
            max_file_size: DEFAULT_MAX_FILE_SIZE,
            audit: true,
            mode: OpenMode::Create,
        }
    }
}

/// A workspace: a POSIX-like filesystem stored in one SQLite file.
///
/// Every operation is one transaction (or, under a [`GroupCommit`](crate::GroupCommit),
/// one savepoint of the group's transaction). A `Workspace` is `Send + Sync`;
/// operations on one handle are serialized, and separate handles (in this
/// or other processes) are serialized by SQLite.
pub struct Workspace {
    conn: SharedConn,
    /// Audit rows waiting for a transaction (see `audit`).
    audit_buffer: Mutex<Vec<crate::audit::Row>>,
    location: Option<PathBuf>,
    /// The canonical path noted in the process's list of open workspaces.
    registered: Option<PathBuf>,
    pub(crate) config: Config,
    /// The durable runs this handle claimed, and at which epoch.
    pub(crate) fences: crate::fence::Fences,
    /// Disk space kept for removals and run records (`reserve.rs`).
    reserve: crate::reserve::Reserve,
    /// The secrets' key once loaded (`secrets/key.rs`).
    pub(crate) secrets_key: Mutex<Option<crate::secrets::SecretKey>>,
    /// Gates added by the embedder (`policy/gate.rs`).
    pub(crate) gates: std::sync::RwLock<Vec<Arc<dyn crate::policy::Gate>>>,
    /// The workspace's policy file, as this handle read it.
    pub(crate) policy: std::sync::RwLock<Option<Arc<crate::policy::Policy>>>,
    /// Whether any gate or policy is installed (the fast path's test).
    pub(crate) gated: std::sync::atomic::AtomicBool,
}

impl Workspace {
    /// Opens the workspace at `path`, creating the file if needed.
    pub fn open(path: impl AsRef<Path>) -> Result<Self> {
        Self::open_with(path, Config::default())
    }

    /// Opens the workspace at `path` with `config`; `config.mode` says
    /// whether a missing file is created. An empty file is always refused.
    pub fn open_with(path: impl AsRef<Path>, config: Config) -> Result<Self> {
        let path = path.as_ref();
        let mut config = config;
        let access = location::prepare(path, config.mode)?;
        if access.is_read_only() {
            // Nothing can be written, audit rows included.
            config.audit = false;
        }
        let access = if access == location::Access::ReadWriteCreate {
            db::create(path, config.durability, config.busy_timeout)?;
            location::Access::ReadWrite
        } else {
            access
        };
        let conn = db::open(path, access, config.durability, config.busy_timeout)?;
        let reserve = if access.is_read_only() {
            crate::reserve::Reserve::default()
        } else {
            crate::reserve::Reserve::keep(path)
        };
        let ws = Workspace {
            conn: shared(conn, config.busy_timeout),
            audit_buffer: Mutex::new(Vec::new()),
            location: Some(path.to_path_buf()),
            registered: location::remember(path),
            config,
            fences: Default::default(),
            reserve,
            secrets_key: Mutex::new(None),
            gates: Default::default(),
            policy: Default::default(),
            gated: Default::default(),
        };
        ws.load_policy();
        Ok(ws)
    }

    /// Whether the file was opened read-only (see [`OpenMode::Read`]).
    pub fn is_read_only(&self) -> bool {
        self.lock()
            .db
            .is_readonly(rusqlite::MAIN_DB)
            .unwrap_or(false)
    }

    /// A throwaway workspace that lives in memory.
    pub fn in_memory() -> Result<Self> {
        Ok(Workspace {
            conn: shared(db::open_in_memory()?, db::IN_MEMORY_BUSY_TIMEOUT),
            audit_buffer: Mutex::new(Vec::new()),
            location: None,
            registered: None,
            config: Config::default(),
            fences: Default::default(),
            reserve: Default::default(),
            secrets_key: Mutex::new(None),
            gates: Default::default(),
            policy: Default::default(),
            gated: Default::default(),
        })
    }

    /// Which handle this is (its connection's address), for `RunScope`.
    pub(crate) fn conn_id(&self) -> usize {
        Arc::as_ptr(&self.conn) as usize
    }

    /// The SQLite file, or `None` for an in-memory workspace.
    pub fn location(&self) -> Option<&Path> {
        self.location.as_deref()
    }

    /// The settings it was opened with.
    pub fn config(&self) -> &Config {
        &self.config
    }

    fn lock(&self) -> MutexGuard<'_, Conn> {
        group::lock(&self.conn)
    }

    /// Runs `f` in a read transaction (a consistent snapshot). Inside the
    /// current thread's open group it reads the group's own changes.
    pub(crate) fn read_tx<T>(&self, f: impl FnOnce(&Connection) -> Result<T>) -> Result<T> {
        let mine = group::current();
        let mut conn = self.lock();
        let nested = match (conn.settle(mine.as_ref()), mine) {
            (Joined::Nested { .. }, _) => true,
            (Joined::Alone, Some(g)) => {
                conn.open_group(g, &self.conn, false)?;
                true
            }
            (Joined::Alone, None) => false,
        };
        if nested {
            let out = f(&conn.db);
            conn.counted(false)?;
            return out;
        }
        let tx = Tx::begin(&conn.db, "BEGIN DEFERRED")?;
        let out = f(&conn.db)?;
        tx.commit()?;
        Ok(out)
    }

    /// Runs a mutation in one write transaction and bumps `rev` once.
    /// Nothing is written if `f` fails. The operation's audit row (and any
    /// buffered ones) commit in the same transaction. Under a group commit
    /// the transaction is a savepoint of the group's.
    pub(crate) fn write_tx<T: 'static>(
        &self,
        f: impl FnOnce(&Connection) -> Result<T>,
    ) -> Result<T> {
        self.check_scope()?;
        let mine = group::current();
        if let Some(why) = mine.as_ref().and_then(|g| g.failure()) {
            return Err(FsError::custom(
                Errno::EIO,
                "",
                format!("earlier changes of this run were lost: {why}"),
            ));
        }
        let mut conn = self.lock();
        let joined = match (conn.settle(mine.as_ref()), mine) {
            (Joined::Nested { writing: true }, _) => true,
            (Joined::Nested { writing: false }, Some(g)) | (Joined::Alone, Some(g)) => {
                conn.open_group(g, &self.conn, true)?;
                true
            }
            (_, None) => false,
        };
        if !joined {
            let out = Tx::begin(&conn.db, "BEGIN IMMEDIATE").and_then(|tx| {
                let out = self.change(&conn.db, f)?;
                tx.commit()?;
                Ok(out)
            });
            if let Err(e) = &out {
                self.reserve.on_error(e);
            }
            return out;
        }
        let done = Tx::savepoint(&conn.db).and_then(|tx| {
            let out = self.change(&conn.db, f)?;
            tx.commit()?;
            Ok(out)
        });
        if conn.db.is_autocommit() {
            // SQLite rolled the whole transaction back (a full disk, say):
            // the group's earlier changes went with it.
            conn.group_vanished();
        }
        if let Err(e) = &done {
            self.reserve.on_error(e);
        }
        let out = done?;
        conn.counted(true)?;
        Ok(out)
    }

    /// The body of a change, inside its transaction.
    fn change<T: 'static>(
        &self,
        conn: &Connection,
        f: impl FnOnce(&Connection) -> Result<T>,
    ) -> Result<T> {
        crate::changes::begin();
        crate::quota::begin();
        crate::path_bound::begin();
        let out = f(conn)?;
        self.check_change_gates()?;
        let grown = crate::quota::check(conn)?;
        self.reserve.check_growth(grown)?;
        // A durable run's journal rows commit with the mutation they record.
        crate::journal::write_attached(conn, &out)?;
        let (rev, log_on): (i64, bool) = conn
            .prepare_cached(
                "UPDATE workspace SET rev = rev + 1, path_bound = max(path_bound, ?1) \
                 WHERE id = 1 RETURNING rev, changes_on",
            )?
            .query_row([crate::path_bound::take()], |r| Ok((r.get(0)?, r.get(1)?)))?;
        crate::changes::commit(conn, rev as u64, log_on)?;
        if self.config.audit {
            let mut rows = std::mem::take(&mut *self.pending_audit());
            rows.extend(crate::audit::take_current_ok());
            if let Err(e) = crate::audit::write_rows(conn, &rows) {
                // Put them back: the transaction will roll back.
                self.pending_audit().extend(rows);
                return Err(e.into());
            }
        }
        Ok(out)
    }

    /// Commits the changes an open group holds (see [`GroupCommit`](crate::GroupCommit)):
    /// the runtime calls it before output is shown, before a module call and
    /// at the end of a run. A failure is also recorded in the group.
    pub fn commit_group(&self) -> Result<()> {
        self.lock().commit_group()
    }

    pub(crate) fn pending_audit(&self) -> MutexGuard<'_, Vec<crate::audit::Row>> {
        self.audit_buffer.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A write transaction for bookkeeping that is not a filesystem change
    /// (run records, the journal, interrupts, modules): it does not bump `rev`.
    ///
    /// It commits an open group first, the current thread's included: what it
    /// records (a run's end, its output, an interrupt) is durable when it
    /// returns, and never ahead of the changes it follows.
    pub(crate) fn meta_tx<T>(&self, f: impl FnOnce(&Connection) -> Result<T>) -> Result<T> {
        let mut conn = self.lock();
        let out = conn.commit_group().and_then(|()| {
            let tx = Tx::begin(&conn.db, "BEGIN IMMEDIATE")?;
            let out = f(&conn.db)?;
            tx.commit()?;
            Ok(out)
        });
        if let Err(e) = &out {
            self.reserve.on_error(e);
        }
        out
    }

    /// Runs `f` on the connection outside any transaction (for statements
    /// that cannot run in one, like `VACUUM INTO`), after committing an open
    /// group so what it reads includes every change made so far.
    pub(crate) fn outside_tx<T>(&self, f: impl FnOnce(&Connection) -> Result<T>) -> Result<T> {
        let mut conn = self.lock();
        conn.commit_group()?;
        f(&conn.db)
    }

    /// The run records: create, finish, list, and the owners of durable runs.
    pub fn runs(&self) -> Runs<'_> {
        Runs { ws: self }
    }

    /// The journals of durable runs and the output they emitted.
    pub fn journal(&self) -> Journal<'_> {
        Journal { ws: self }
    }

    /// The interrupts (approval gates) of durable runs.
    pub fn interrupts(&self) -> Interrupts<'_> {
        Interrupts { ws: self }
    }

    /// The audit log: queries, outside events, tool calls.
    pub fn audit(&self) -> Audit<'_> {
        Audit { ws: self }
    }

    /// The module components stored in the workspace (`ws:NAME`).
    pub fn modules(&self) -> Modules<'_> {
        Modules { ws: self }
    }

    /// The command components stored in the workspace (`rg`, ...).
    pub fn commands(&self) -> Commands<'_> {
        Commands { ws: self }
    }

    /// The network allow-list: the hosts commands and modules may reach.
    pub fn net(&self) -> crate::net::Net<'_> {
        crate::net::Net { ws: self }
    }

    /// The revision counter: bumped once by every mutation.
    pub fn rev(&self) -> Result<u64> {
        self.read_tx(|c| {
            let rev: i64 = c
                .prepare_cached("SELECT rev FROM workspace WHERE id = 1")?
                .query_row([], |r| r.get(0))?;
            Ok(rev as u64)
        })
    }

    /// Storage accounting: how many nodes and chunks exist and how many
    /// bytes the chunks hold (deduplicated) against the bytes files hold.
    pub fn usage(&self) -> Result<Usage> {
        self.read_tx(|c| {
            let (nodes, logical): (i64, i64) = c
                .prepare_cached("SELECT count(*), coalesce(sum(CASE WHEN kind = 1 THEN size ELSE 0 END), 0) FROM nodes")?
                .query_row([], |r| Ok((r.get(0)?, r.get(1)?)))?;
            let (chunks, stored): (i64, i64) = c
                .prepare_cached("SELECT count(*), coalesce(sum(size), 0) FROM chunks")?
                .query_row([], |r| Ok((r.get(0)?, r.get(1)?)))?;
            Ok(Usage {
                nodes: nodes as u64,
                chunks: chunks as u64,
                stored_bytes: stored as u64,
                node_bytes: logical as u64,
            })
        })
    }

    /// Declares (or undeclares) `path` a read-only subtree: nothing inside
    /// it may change, and no ancestor holding it may be removed or moved.
    pub fn set_readonly(&self, path: &str, readonly: bool) -> Result<()> {
        self.audited(
            "set_readonly",
            path,
            || Some(serde_json::json!({"readonly": readonly})),
            || {
                let p = WsPath::parse(path)?;
                self.write_tx(|c| {
                    // Store the canonical path, so a symlinked spelling protects the target.
                    let canonical = match tree::resolve(c, &p, true)? {
                        Lookup::Found(chain) => chain.path(),
                        Lookup::Missing { parent, name } => parent.path().join(&name),
                    };
                    if readonly {
                        c.prepare_cached(
                            "INSERT OR IGNORE INTO readonly_paths (path) VALUES (?1)",
                        )?
                        .execute([canonical.to_string()])?;
                    } else {
                        c.prepare_cached("DELETE FROM readonly_paths WHERE path = ?1")?
                            .execute([canonical.to_string()])?;
                    }
                    Ok(())
                })
            },
        )
    }

    /// The read-only subtrees, sorted.
    pub fn readonly_paths(&self) -> Result<Vec<String>> {
        self.read_tx(|c| {
            let mut stmt = c.prepare_cached("SELECT path FROM readonly_paths ORDER BY path")?;
            let rows = stmt
                .query_map([], |r| r.get::<_, String>(0))?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            Ok(rows)
        })
    }
}

fn shared(db: Connection, busy_timeout: std::time::Duration) -> SharedConn {
    Arc::new(Mutex::new(Conn::new(db, busy_timeout)))
}

impl Drop for Workspace {
    fn drop(&mut self) {
        if let Err(e) = self.commit_group() {
            tracing::warn!("a group of changes was lost when closing the workspace: {e}");
        }
        if let Err(e) = self.flush_audit() {
            tracing::warn!("audit rows lost when closing the workspace: {e}");
        }
        if let Some(canonical) = &self.registered {
            location::forget(canonical);
        }
    }
}

/// An open transaction that rolls back unless committed, also on panic.
/// BEGIN and COMMIT go through the statement cache: parsing them on every
/// operation was a measurable share of a `stat`.
struct Tx<'c> {
    conn: &'c Connection,
    open: bool,
    /// A savepoint inside a group's transaction, not a transaction.
    nested: bool,
}

impl<'c> Tx<'c> {
    fn begin(conn: &'c Connection, sql: &str) -> Result<Self> {
        conn.prepare_cached(sql)?.execute([])?;
        Ok(Tx {
            conn,
            open: true,
            nested: false,
        })
    }

    fn savepoint(conn: &'c Connection) -> Result<Self> {
        conn.prepare_cached("SAVEPOINT change")?.execute([])?;
        Ok(Tx {
            conn,
            open: true,
            nested: true,
        })
    }

    fn commit(mut self) -> Result<()> {
        let sql = if self.nested {
            "RELEASE change"
        } else {
            "COMMIT"
        };
        self.conn.prepare_cached(sql)?.execute([])?;
        self.open = false;
        Ok(())
    }
}

impl Drop for Tx<'_> {
    fn drop(&mut self) {
        if !self.open || self.conn.is_autocommit() {
            return;
        }
        // Nothing to report to: the error that got us here is already on its way.
        let _ = match self.nested {
            true => self
                .conn
                .execute_batch("ROLLBACK TO change; RELEASE change"),
            false => self.conn.execute_batch("ROLLBACK"),
        };
    }
}

/// Storage accounting of a workspace.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Usage {
    /// Files, directories and symlinks stored (a shared copy counts once).
    pub nodes: u64,
    /// Content chunks stored.
    pub chunks: u64,
    /// Bytes held by chunks, after deduplication.
    pub stored_bytes: u64,
    /// Sum of the sizes of stored file nodes.
    pub node_bytes: u64,
}

/// What a mutation does to its target, for the read-only check.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Touch {
    /// Changes the target only (write, chmod, create).
    Node,
    /// Removes, replaces or moves the target with everything below it.
    Subtree,
}

/// Called by every mutation before it changes `target` (canonical): `EROFS`
/// if that would change a read-only subtree; otherwise notes `target` for
/// the change log.
pub(crate) fn will_change(
    c: &Connection,
    target: &WsPath,
    touch: Touch,
    shown: &str,
) -> Result<()> {
    // Checked on the canonical path, so a symlink cannot lengthen a path past the limit.
    if target.byte_len() > MAX_PATH {
        return Err(too_long(target, shown));
    }
    crate::path_bound::raise(target.byte_len());
    let mut stmt = c.prepare_cached("SELECT path FROM readonly_paths")?;
    let mut rows = stmt.query([])?;
    while let Some(row) = rows.next()? {
        let ro: String = row.get(0)?;
        let Ok(ro) = WsPath::parse(&ro) else { continue };
        let inside = target.starts_with(&ro);
        let holds = touch == Touch::Subtree && ro.starts_with(target);
        if inside || holds {
            return Err(FsError::custom(
                Errno::EROFS,
                shown,
                format!("read-only file system: {shown} (the subtree {ro} is read-only)"),
            ));
        }
    }
    crate::changes::note(target, touch);
    Ok(())
}

fn too_long(target: &WsPath, shown: &str) -> FsError {
    FsError::custom(
        Errno::ENAMETOOLONG,
        shown,
        format!(
            "file name too long: {shown} resolves to a path of {} bytes, the limit is {MAX_PATH}",
            target.byte_len()
        ),
    )
}
