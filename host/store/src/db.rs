//! Opening the SQLite file: connection settings and versioned migrations.

use std::path::Path;
use std::time::Duration;

use rusqlite::{Connection, OpenFlags};

use crate::error::{Errno, FsError, Result};

/// Migrations in order; `PRAGMA user_version` records how many have run.
/// Adding a table is adding a file here.
const MIGRATIONS: &[(&str, &str)] = &[(
    "0001_filesystem",
    include_str!("../migrations/0001_filesystem.sql"),
)];

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

pub fn open(path: &Path, durability: Durability, busy_timeout: Duration) -> Result<Connection> {
    let flags = OpenFlags::SQLITE_OPEN_READ_WRITE
        | OpenFlags::SQLITE_OPEN_CREATE
        | OpenFlags::SQLITE_OPEN_NO_MUTEX
        | OpenFlags::SQLITE_OPEN_URI;
    let conn = Connection::open_with_flags(path, flags).map_err(|e| {
        FsError::custom(
            Errno::EIO,
            path.display().to_string(),
            format!("cannot open workspace {}: {e}", path.display()),
        )
    })?;
    configure(&conn, durability, busy_timeout)?;
    migrate(&conn, path)?;
    Ok(conn)
}

pub fn open_in_memory() -> Result<Connection> {
    let conn = Connection::open_in_memory()?;
    configure(&conn, Durability::Process, Duration::from_secs(1))?;
    migrate(&conn, Path::new(":memory:"))?;
    Ok(conn)
}

fn configure(conn: &Connection, durability: Durability, busy_timeout: Duration) -> Result<()> {
    conn.busy_timeout(busy_timeout)?;
    // journal_mode returns a row, so it cannot go through execute_batch on all versions.
    let _mode: String = conn.query_row("PRAGMA journal_mode=WAL", [], |r| r.get(0))?;
    let sync = match durability {
        Durability::Process => "NORMAL",
        Durability::Power => "FULL",
    };
    conn.execute_batch(&format!(
        "PRAGMA synchronous={sync};
         PRAGMA foreign_keys=OFF;
         PRAGMA temp_store=MEMORY;
         PRAGMA cache_size=-32768;"
    ))?;
    conn.set_prepared_statement_cache_capacity(128);
    Ok(())
}

fn migrate(conn: &Connection, path: &Path) -> Result<()> {
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
    if current == known {
        return Ok(());
    }
    // IMMEDIATE so two processes opening a fresh file do not both migrate.
    conn.execute_batch("BEGIN IMMEDIATE")?;
    let result = (|| -> Result<()> {
        let current: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
        for (i, (name, sql)) in MIGRATIONS.iter().enumerate().skip(current as usize) {
            tracing::debug!(migration = name, "applying");
            conn.execute_batch(sql).map_err(|e| {
                FsError::custom(Errno::EIO, "", format!("migration {name} failed: {e}"))
            })?;
            if i == 0 {
                seed(conn)?;
            }
            conn.pragma_update(None, "user_version", (i + 1) as i64)?;
        }
        Ok(())
    })();
    match result {
        Ok(()) => {
            conn.execute_batch("COMMIT")?;
            Ok(())
        }
        Err(e) => {
            let _ = conn.execute_batch("ROLLBACK");
            Err(e)
        }
    }
}

fn seed(conn: &Connection) -> Result<()> {
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
