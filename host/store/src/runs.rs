//! Run records: what was executed, how, and how it ended. Kept in the
//! workspace so `computer runs` and recovery see every run.

use rusqlite::{OptionalExtension, Row, params};
use serde::Serialize;

use crate::clock::now_ns;
use crate::error::{Errno, FsError, Result};
use crate::types::Page;
use crate::workspace::Workspace;

/// Longest caller-chosen run id.
pub const MAX_RUN_ID: usize = 128;

/// A run as it starts.
#[derive(Debug, Clone)]
pub struct NewRun<'a> {
    pub id: &'a str,
    pub backend: &'a str,
    pub source: &'a str,
    /// JSON describing the options (cwd, argv, env keys, limits).
    pub options: &'a str,
}

/// How a run ended.
#[derive(Debug, Clone, Default)]
pub struct RunEnd<'a> {
    pub status: &'a str,
    pub exit_code: Option<i32>,
    pub value: Option<&'a str>,
    pub error: Option<&'a str>,
    pub stdout: &'a [u8],
    pub stderr: &'a [u8],
}

/// A run as recorded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RunRecord {
    pub id: String,
    pub backend: String,
    pub status: String,
    pub source: String,
    pub options: String,
    pub started_ns: i64,
    pub ended_ns: Option<i64>,
    pub exit_code: Option<i32>,
    pub value: Option<String>,
    pub error: Option<String>,
    #[serde(skip)]
    pub stdout: Vec<u8>,
    #[serde(skip)]
    pub stderr: Vec<u8>,
}

fn record_from_row(r: &Row<'_>) -> rusqlite::Result<RunRecord> {
    Ok(RunRecord {
        id: r.get(0)?,
        backend: r.get(1)?,
        status: r.get(2)?,
        source: r.get(3)?,
        options: r.get(4)?,
        started_ns: r.get(5)?,
        ended_ns: r.get(6)?,
        exit_code: r.get(7)?,
        value: r.get(8)?,
        error: r.get(9)?,
        stdout: r.get::<_, Option<Vec<u8>>>(10)?.unwrap_or_default(),
        stderr: r.get::<_, Option<Vec<u8>>>(11)?.unwrap_or_default(),
    })
}

const COLUMNS: &str = "id, backend, status, source, options, started_ns, ended_ns, exit_code, value, error, stdout, stderr";

/// Checks a caller-chosen run id: 1..=128 characters of `[A-Za-z0-9._:-]`.
pub fn validate_run_id(id: &str) -> Result<()> {
    let ok = !id.is_empty()
        && id.len() <= MAX_RUN_ID
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b':' | b'-'));
    if ok {
        Ok(())
    } else {
        Err(FsError::custom(
            Errno::EINVAL,
            id,
            format!(
                "invalid run id {id:?}: use 1 to {MAX_RUN_ID} characters from A-Z a-z 0-9 . _ : -"
            ),
        ))
    }
}

impl Workspace {
    /// Records a run as `running`. A run id is unique per workspace: `EEXIST` if taken.
    pub fn create_run(&self, run: &NewRun<'_>) -> Result<()> {
        validate_run_id(run.id)?;
        self.meta_tx(|c| insert_run(c, run))
    }

    /// Records how a run ended.
    pub fn finish_run(&self, id: &str, end: &RunEnd<'_>) -> Result<()> {
        self.meta_tx(|c| {
            let n = c
                .prepare_cached(
                    "UPDATE runs SET status = ?2, exit_code = ?3, value = ?4, error = ?5,
                     stdout = ?6, stderr = ?7, ended_ns = ?8, owner = NULL, lease_until_ns = NULL
                     WHERE id = ?1",
                )?
                .execute(params![
                    id,
                    end.status,
                    end.exit_code,
                    end.value,
                    end.error,
                    end.stdout,
                    end.stderr,
                    now_ns()
                ])?;
            if n == 0 {
                return Err(FsError::custom(
                    Errno::ENOENT,
                    id,
                    format!("no run with id {id}"),
                ));
            }
            Workspace::drop_durable_state(c, id)
        })
    }

    /// One run, with its output.
    pub fn run_record(&self, id: &str) -> Result<Option<RunRecord>> {
        self.read_tx(|c| {
            Ok(
                c.prepare_cached(&format!("SELECT {COLUMNS} FROM runs WHERE id = ?1"))?
                    .query_row([id], record_from_row)
                    .optional()?,
            )
        })
    }

    /// Runs, newest first, without their output.
    pub fn runs(&self, page: Page) -> Result<Vec<RunRecord>> {
        self.read_tx(|c| {
            let limit = page.limit.map_or(-1, |l| l.min(i64::MAX as u64) as i64);
            let mut stmt = c.prepare_cached(
                "SELECT id, backend, status, source, options, started_ns, ended_ns, exit_code, value, error, NULL, NULL
                 FROM runs ORDER BY started_ns DESC, id LIMIT ?1 OFFSET ?2",
            )?;
            let rows = stmt
                .query_map(params![limit, page.offset.min(i64::MAX as u64) as i64], record_from_row)?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            Ok(rows)
        })
    }
}

/// Inserts a new run row as `running`; `EEXIST` if the id is taken.
pub(crate) fn insert_run(c: &rusqlite::Connection, run: &NewRun<'_>) -> Result<()> {
    let inserted = c
        .prepare_cached(
            "INSERT INTO runs (id, backend, status, source, options, started_ns)
                 VALUES (?1, ?2, 'running', ?3, ?4, ?5) ON CONFLICT (id) DO NOTHING",
        )?
        .execute(params![
            run.id,
            run.backend,
            run.source,
            run.options,
            now_ns()
        ])?;
    if inserted == 0 {
        return Err(FsError::custom(
            Errno::EEXIST,
            run.id,
            format!(
                "run id {} is already used in this workspace; choose another",
                run.id
            ),
        ));
    }
    Ok(())
}
