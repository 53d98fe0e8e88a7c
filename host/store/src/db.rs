//! Opening the SQLite file: connection settings and versioned migrations.

use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use rusqlite::{Connection, OpenFlags};

use crate::error::{Errno, FsError, Result};
use crate::location::{self, Access};

/// Migrations in order; `PRAGMA user_version` records how many have run.
/// Adding a table is adding a file here.
const MIGRATIONS: &[(&str, &str)] = &[
    (
        "0001_filesystem",
        include_str!("../migrations/0001_filesystem.sql"),
    ),
    ("0002_runs", include_str!("../migrations/0002_runs.sql")),
    ("0003_audit", include_str!("../migrations/0003_audit.sql")),
    (
        "0004_durable",
        include_str!("../migrations/0004_durable.sql"),
    ),
    (
        "0005_modules",
        include_str!("../migrations/0005_modules.sql"),
    ),
    (
        "0006_changes",
        include_str!("../migrations/0006_changes.sql"),
    ),
    (
        "0007_commands",
        include_str!("../migrations/0007_commands.sql"),
    ),
    (
        "0008_journal_chunks",
        include_str!("../migrations/0008_journal_chunks.sql"),
    ),
    ("0009_net", include_str!("../migrations/0009_net.sql")),
    ("0010_quota", include_str!("../migrations/0010_quota.sql")),
    (
        "0011_chunk_crc",
        include_str!("../migrations/0011_chunk_crc.sql"),
    ),
    (
        "0012_path_bound",
        include_str!("../migrations/0012_path_bound.sql"),
    ),
    (
        "0013_journal_digest",
        include_str!("../migrations/0013_journal_digest.sql"),
    ),
    (
        "0014_run_epoch",
        include_str!("../migrations/0014_run_epoch.sql"),
    ),
    (
        "0015_hard_links",
        include_str!("../migrations/0015_hard_links.sql"),
    ),
    (
        "0016_snapshots",
        include_str!("../migrations/0016_snapshots.sql"),
    ),
    (
        "0017_stable_ino",
        include_str!("../migrations/0017_stable_ino.sql"),
    ),
    (
        "0018_secrets",
        include_str!("../migrations/0018_secrets.sql"),
    ),
];

pub const ROOT_ID: i64 = 1;

/// How hard commits push to disk.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Durability {
    /// WAL with `synchronous=NORMAL`: a committed transaction survives a
    /// process crash; a power loss may drop the last commits, never corrupt.
    #[default]
    Process,
    /// `synchronous=FULL`: every commit is fsynced.
    Power,
}

pub(crate) fn open(
    path: &Path,
    access: Access,
    durability: Durability,
    busy_timeout: Duration,
) -> Result<Connection> {
    // Processes racing to create the same file can get SQLITE_BUSY from
    // the switch to WAL or from the first migration without the busy
    // handler being consulted, so retry those until the timeout.
    let deadline = std::time::Instant::now() + busy_timeout;
    let mut pause = Duration::from_millis(1);
    loop {
        match open_once(path, access, durability, busy_timeout) {
            Err(e) if is_busy(&e) && std::time::Instant::now() < deadline => {
                std::thread::sleep(pause);
                pause = (pause * 2).min(Duration::from_millis(50));
            }
            Err(e) => {
                return Err(FsError::custom(
                    Errno::EIO,
                    path.display().to_string(),
                    format!("cannot open workspace {}: {e}", path.display()),
                ));
            }
            Ok(conn) => {
                check_version(&conn, path)?;
                return Ok(conn);
            }
        }
    }
}

/// Makes a new workspace file at `path` whole or not at all: it is built
/// under a temporary name in the same directory and linked into place, so
/// a process killed while creating it leaves no empty file at `path` (which
/// every later open would refuse as a truncated workspace). If another
/// process links its file first, that one is kept.
pub(crate) fn create(path: &Path, durability: Durability, busy_timeout: Duration) -> Result<()> {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let tmp = location::with_suffix(path, &format!(".creating-{}-{n}", std::process::id()));
    let shown = path.display().to_string();
    let clean = || {
        for suffix in location::SIDECARS {
            let _ = std::fs::remove_file(location::with_suffix(&tmp, suffix));
        }
    };
    clean();
    // Closing the only connection checkpoints the WAL into the file.
    let made = open(&tmp, Access::ReadWriteCreate, durability, busy_timeout).map(drop);
    let linked = made.and_then(|()| match std::fs::hard_link(&tmp, path) {
        Err(e) if e.kind() != std::io::ErrorKind::AlreadyExists => {
            // No hard links here (some FUSE filesystems): rename, unless it appeared meanwhile.
            if path.exists() {
                Ok(())
            } else {
                std::fs::rename(&tmp, path).map_err(|e| FsError::host_io(&shown, e))
            }
        }
        _ => Ok(()),
    });
    clean();
    linked
}

fn is_busy(e: &rusqlite::Error) -> bool {
    matches!(
        e.sqlite_error_code(),
        Some(rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked)
    )
}

fn open_once(
    path: &Path,
    access: Access,
    durability: Durability,
    busy_timeout: Duration,
) -> rusqlite::Result<Connection> {
    let base = OpenFlags::SQLITE_OPEN_NO_MUTEX | OpenFlags::SQLITE_OPEN_URI;
    let mut conn = match access {
        Access::ReadWriteCreate => Connection::open_with_flags(
            path,
            base | OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_CREATE,
        )?,
        Access::ReadWrite => {
            Connection::open_with_flags(path, base | OpenFlags::SQLITE_OPEN_READ_WRITE)?
        }
        Access::ReadOnly => {
            Connection::open_with_flags(path, base | OpenFlags::SQLITE_OPEN_READ_ONLY)?
        }
        Access::Immutable => Connection::open_with_flags(
            immutable_uri(path),
            base | OpenFlags::SQLITE_OPEN_READ_ONLY,
        )?,
    };
    if matches!(access, Access::ReadOnly | Access::Immutable) {
        // Neither the journal mode nor the schema can change without writing.
        crate::busy::wait_finely(&mut conn, busy_timeout)?;
        return Ok(conn);
    }
    configure(&mut conn, durability, busy_timeout)?;
    migrate(&conn)?;
    Ok(conn)
}

/// A `file:` URI telling SQLite the file cannot change while open.
fn immutable_uri(path: &Path) -> String {
    let mut uri = String::from("file:");
    for b in path.as_os_str().as_encoded_bytes() {
        match b {
            b'%' | b'?' | b'#' | 0x80.. => uri.push_str(&format!("%{b:02X}")),
            _ => uri.push(*b as char),
        }
    }
    uri.push_str("?immutable=1");
    uri
}

/// Nobody else can hold an in-memory database's lock: a short wait.
pub(crate) const IN_MEMORY_BUSY_TIMEOUT: Duration = Duration::from_secs(1);

pub fn open_in_memory() -> Result<Connection> {
    let mut conn = Connection::open_in_memory()?;
    configure(&mut conn, Durability::Process, IN_MEMORY_BUSY_TIMEOUT)?;
    migrate(&conn)?;
    Ok(conn)
}

fn configure(
    conn: &mut Connection,
    durability: Durability,
    busy_timeout: Duration,
) -> rusqlite::Result<()> {
    crate::busy::wait_finely(conn, busy_timeout)?;
    // journal_mode returns a row, so it cannot go through execute_batch on all versions.
    let _mode: String = conn.query_row("PRAGMA journal_mode=WAL", [], |r| r.get(0))?;
    let sync = match durability {
        Durability::Process => "NORMAL",
        Durability::Power => "FULL",
    };
    // A small WAL (256 pages) measured faster for small commits than the
    // default 1000 or larger: frames are rewritten in place, not appended.
    // `secure_delete=FAST` zeroes what a change deletes from the pages it
    // writes anyway (no extra I/O): a run's `--env` values, kept in its
    // record while it may replay, are not left in freed space when the run
    // ends (issue 41). Pages that go to the freelist whole (a large value's
    // overflow pages, a removed file's chunks) are not zeroed: that would
    // write every removed byte again.
    conn.execute_batch(&format!(
        "PRAGMA synchronous={sync};
         PRAGMA secure_delete=FAST;
         PRAGMA foreign_keys=OFF;
         PRAGMA temp_store=MEMORY;
         PRAGMA cache_size=-32768;
         PRAGMA wal_autocheckpoint=256;"
    ))?;
    // Without the query-planner stability guarantee SQLite re-prepares
    // statements whose plan could depend on a bound value (our joins) on
    // every execution, which made each lookup ~4x slower.
    conn.set_db_config(
        rusqlite::config::DbConfig::SQLITE_DBCONFIG_ENABLE_QPSG,
        true,
    )?;
    conn.set_prepared_statement_cache_capacity(128);
    Ok(())
}

/// Refuses a file written by a newer build.
fn check_version(conn: &Connection, path: &Path) -> Result<()> {
    let current: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    let known = MIGRATIONS.len() as i64;
    if current > known {
        return Err(FsError::custom(
            Errno::EIO,
            path.display().to_string(),
            format!(
                "workspace {} has schema version {current}, newer than this build knows ({known}); upgrade computer",
                path.display()
            ),
        ));
    }
    Ok(())
}

fn migrate(conn: &Connection) -> rusqlite::Result<()> {
    let current: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    if current >= MIGRATIONS.len() as i64 {
        return Ok(());
    }
    // IMMEDIATE so two processes opening a fresh file do not both migrate.
    conn.execute_batch("BEGIN IMMEDIATE")?;
    let result = (|| -> rusqlite::Result<()> {
        let current: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
        for (i, (name, sql)) in MIGRATIONS.iter().enumerate().skip(current.max(0) as usize) {
            tracing::debug!(migration = name, "applying");
            conn.execute_batch(sql)?;
            if i == 0 {
                seed(conn)?;
            }
            conn.pragma_update(None, "user_version", (i + 1) as i64)?;
        }
        Ok(())
    })();
    match result {
        Ok(()) => conn.execute_batch("COMMIT"),
        Err(e) => {
            let _ = conn.execute_batch("ROLLBACK");
            Err(e)
        }
    }
}

fn seed(conn: &Connection) -> rusqlite::Result<()> {
    let now = crate::clock::now_ns();
    conn.execute(
        "INSERT INTO workspace (id, rev, created_ns) VALUES (1, 0, ?1)",
        [now],
    )?;
    conn.execute(
        "INSERT INTO nodes (id, kind, mode, size, mtime_ns, refs) VALUES (?1, 2, 493, 0, ?2, 1)",
        [ROOT_ID, now],
    )?;
    Ok(())
}
