//! Run records ([`Workspace::runs`]): what was executed, how, and how it
//! ended, kept in the workspace so `computer runs` and recovery see every
//! run; and for a durable run its owner and lease (`claim` is one
//! transaction, so one process runs a run at a time).
//!
//! Run records do not bump the workspace's `rev` (`meta_tx`): only
//! filesystem mutations do.

use std::time::Duration;

use rusqlite::{Connection, OptionalExtension, Row, params};
use serde::Serialize;

use crate::clock::now_ns;
use crate::error::{Errno, FsError, Result};
use crate::journal::{JournalEntry, insert_rows};
use crate::status::{OnInterrupt, RunStatus};
use crate::types::Page;
use crate::workspace::Workspace;

/// Longest caller-chosen run id.
pub const MAX_RUN_ID: usize = 128;

/// A run as it starts.
#[derive(Debug, Clone)]
pub struct NewRun<'a> {
    /// Unique per workspace (see [`validate_run_id`]).
    pub id: &'a str,
    /// The backend that runs it (`js`, `shell`, `container`, ...).
    pub backend: &'a str,
    /// The program text.
    pub source: &'a str,
    /// JSON describing the options (cwd, argv, env keys, limits).
    pub options: &'a str,
}

/// How a run ended.
#[derive(Debug, Clone)]
pub struct RunEnd<'a> {
    /// An ended status ([`RunStatus::is_ended`]).
    pub status: RunStatus,
    /// The exit code, if the run got one.
    pub exit_code: Option<i32>,
    /// The run's JSON value, if it returned one.
    pub value: Option<&'a str>,
    /// Why the host ended the run, when it did.
    pub error: Option<&'a str>,
    /// Everything it wrote to stdout.
    pub stdout: &'a [u8],
    /// Everything it wrote to stderr.
    pub stderr: &'a [u8],
}

impl RunEnd<'_> {
    /// An end with `status` and nothing else recorded.
    pub fn new(status: RunStatus) -> Self {
        RunEnd {
            status,
            exit_code: None,
            value: None,
            error: None,
            stdout: &[],
            stderr: &[],
        }
    }
}

/// A run as recorded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RunRecord {
    /// The run id.
    pub id: String,
    /// The backend that ran it.
    pub backend: String,
    /// Where it is, or how it ended.
    pub status: RunStatus,
    /// The program text.
    pub source: String,
    /// JSON describing the options.
    pub options: String,
    /// When it started (ns since the epoch).
    pub started_ns: i64,
    /// When it ended (ns since the epoch), once it has.
    pub ended_ns: Option<i64>,
    /// Its exit code, once it has one.
    pub exit_code: Option<i32>,
    /// The JSON value it returned, if any.
    pub value: Option<String>,
    /// Why the host ended it, when it did.
    pub error: Option<String>,
    #[serde(skip)]
    /// Its stdout (only from `get`).
    pub stdout: Vec<u8>,
    #[serde(skip)]
    /// Its stderr (only from `get`).
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

/// What a durable run needs beyond [`NewRun`].
#[derive(Debug, Clone)]
pub struct DurableRun<'a> {
    /// Whether an interrupted run replays or fails.
    pub on_interrupt: OnInterrupt,
    /// JSON: everything needed to run it again (a replaying run).
    pub spec: Option<&'a str>,
    /// The process that runs it (`HOST:PID:STARTTIME`).
    pub owner: &'a str,
    /// How long the owner holds it without renewing.
    pub lease: Duration,
}

/// A run that `recover` may have to take over.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unfinished {
    /// The run id.
    pub id: String,
    /// `Running` or `Waiting`.
    pub status: RunStatus,
    /// Whether it replays or fails.
    pub on_interrupt: OnInterrupt,
    /// The process that owns it, if any.
    pub owner: Option<String>,
    /// When the owner's lease ends (ns since the epoch).
    pub lease_until_ns: Option<i64>,
    /// For a waiting run: whether every interrupt has its answer.
    pub answered: bool,
}

/// A run taken over by this process, with what it takes to run it again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Claimed {
    /// The backend to run it with.
    pub backend: String,
    /// The program text.
    pub source: String,
    /// Whether it replays (a claimed `Fail` run is to be failed).
    pub on_interrupt: OnInterrupt,
    /// JSON: the recorded options of a replaying run.
    pub spec: Option<String>,
    /// How many times it has been started, this one included.
    pub attempts: u32,
    /// The run's epoch, bumped by this claim: writes for the run through
    /// the claiming handle are fenced by it (see `fence.rs`).
    pub epoch: i64,
}

fn lease_end(lease: Duration) -> i64 {
    now_ns().saturating_add(lease.as_nanos().min(i64::MAX as u128) as i64)
}

/// The run records of a workspace ([`Workspace::runs`]).
#[derive(Clone, Copy)]
pub struct Runs<'a> {
    pub(crate) ws: &'a Workspace,
}

impl Runs<'_> {
    /// Records a run as `running`. A run id is unique per workspace: `EEXIST` if taken.
    pub fn create(&self, run: &NewRun<'_>) -> Result<()> {
        validate_run_id(run.id)?;
        self.ws.meta_tx(|c| {
            insert_run(c, run)?;
            crate::undo::record::at_start(c, run.id)
        })
    }

    /// Records a durable run as `running`, owned by `durable.owner`.
    pub fn create_durable(&self, run: &NewRun<'_>, durable: &DurableRun<'_>) -> Result<()> {
        validate_run_id(run.id)?;
        // One transaction: a crash never leaves a run without its owner.
        self.ws.meta_tx(|c| {
            insert_run(c, run)?;
            crate::undo::record::at_start(c, run.id)?;
            c.prepare_cached(
                "UPDATE runs SET on_interrupt = ?2, spec = ?3, owner = ?4, lease_until_ns = ?5,
                 epoch = 1 WHERE id = ?1",
            )?
            .execute(params![
                run.id,
                durable.on_interrupt,
                durable.spec,
                durable.owner,
                lease_end(durable.lease)
            ])?;
            Ok(())
        })?;
        self.ws.fences.hold(run.id, 1);
        Ok(())
    }

    /// Records how a run ended, and drops what only an unfinished run
    /// needs: its journal, emitted output and interrupts, and its `spec`
    /// (the environment's values, stdin and the random seed: secrets that a
    /// run nobody will replay has no use for). `EINVAL` if `end.status` is
    /// not an ended status.
    pub fn finish(&self, id: &str, end: &RunEnd<'_>) -> Result<()> {
        if !end.status.is_ended() {
            return Err(FsError::custom(
                Errno::EINVAL,
                id,
                format!("run {id} cannot end as {}: that is not an end", end.status),
            ));
        }
        self.ws.run_tx(id, |c| {
            let n = c
                .prepare_cached(
                    "UPDATE runs SET status = ?2, exit_code = ?3, value = ?4, error = ?5,
                     stdout = ?6, stderr = ?7, ended_ns = ?8, owner = NULL, lease_until_ns = NULL,
                     spec = NULL
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
            crate::undo::record::at_end(c, id)?;
            drop_durable_state(c, id)
        })?;
        self.ws.fences.let_go(id);
        Ok(())
    }

    /// One run, with its output.
    pub fn get(&self, id: &str) -> Result<Option<RunRecord>> {
        self.ws.read_tx(|c| {
            Ok(
                c.prepare_cached(&format!("SELECT {COLUMNS} FROM runs WHERE id = ?1"))?
                    .query_row([id], record_from_row)
                    .optional()?,
            )
        })
    }

    /// Runs, newest first, without their output.
    pub fn list(&self, page: Page) -> Result<Vec<RunRecord>> {
        self.ws.read_tx(|c| {
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

    /// Takes over run `id` for `owner`, if it may run: it is `waiting`, or
    /// `running` with no live owner (`owner_dead` says whether a recorded
    /// owner is gone; an expired lease counts as gone). At most one process
    /// wins: the check and the update are one transaction.
    pub fn claim(
        &self,
        id: &str,
        owner: &str,
        lease: Duration,
        owner_dead: &dyn Fn(&str) -> bool,
    ) -> Result<Option<Claimed>> {
        let claimed = self.ws.meta_tx(|c| {
            let row = c
                .prepare_cached(
                    "SELECT status, owner, lease_until_ns, backend, source, on_interrupt, spec, attempts
                     FROM runs WHERE id = ?1",
                )?
                .query_row([id], |r| {
                    Ok((
                        r.get::<_, RunStatus>(0)?,
                        r.get::<_, Option<String>>(1)?,
                        r.get::<_, Option<i64>>(2)?,
                        Claimed {
                            backend: r.get(3)?,
                            source: r.get(4)?,
                            on_interrupt: r.get(5)?,
                            spec: r.get(6)?,
                            attempts: r.get::<_, i64>(7)? as u32,
                            epoch: 0,
                        },
                    ))
                })
                .optional()?;
            let Some((status, current, lease_until, mut claimed)) = row else {
                return Err(FsError::custom(
                    Errno::ENOENT,
                    id,
                    format!("no run with id {id}"),
                ));
            };
            let free = match status {
                RunStatus::Waiting => true,
                RunStatus::Running => match &current {
                    None => true,
                    Some(o) if o == owner => true,
                    Some(o) => lease_until.is_none_or(|t| t < now_ns()) || owner_dead(o),
                },
                _ => false,
            };
            if !free {
                return Ok(None);
            }
            claimed.epoch = c
                .prepare_cached(
                    "UPDATE runs SET status = ?4, owner = ?2, lease_until_ns = ?3,
                     attempts = attempts + 1, epoch = epoch + 1 WHERE id = ?1 RETURNING epoch",
                )?
                .query_row(params![id, owner, lease_end(lease), RunStatus::Running], |r| {
                    r.get(0)
                })?;
            claimed.attempts += 1;
            Ok(Some(claimed))
        })?;
        if let Some(c) = &claimed {
            self.ws.fences.hold(id, c.epoch);
        }
        Ok(claimed)
    }

    /// Gives up `owner`'s claim on run `id` without ending it (a claimed
    /// run that could not start here, e.g. no free run slot): it stays
    /// `running` with no owner, so the next `recover` takes it. False if
    /// `owner` did not hold it.
    pub fn release(&self, id: &str, owner: &str) -> Result<bool> {
        let released = self.ws.run_tx(id, |c| {
            let n = c
                .prepare_cached(
                    "UPDATE runs SET owner = NULL, lease_until_ns = NULL
                     WHERE id = ?1 AND owner = ?2 AND status = ?3",
                )?
                .execute(params![id, owner, RunStatus::Running])?;
            Ok(n == 1)
        })?;
        self.ws.fences.let_go(id);
        Ok(released)
    }

    /// Extends `owner`'s lease on run `id`. False if it no longer owns it
    /// (nor, through a handle that claimed it, at the epoch it claimed:
    /// the same process may have claimed it again since).
    pub fn renew_lease(&self, id: &str, owner: &str, lease: Duration) -> Result<bool> {
        let epoch = self.ws.fences.epoch(id);
        self.ws.meta_tx(|c| {
            let n = c
                .prepare_cached(
                    "UPDATE runs SET lease_until_ns = ?3
                     WHERE id = ?1 AND owner = ?2 AND status = ?4 AND (?5 IS NULL OR epoch = ?5)",
                )?
                .execute(params![
                    id,
                    owner,
                    lease_end(lease),
                    RunStatus::Running,
                    epoch
                ])?;
            Ok(n == 1)
        })
    }

    /// Parks run `id`: `waiting`, no owner. `rows` (journal rows) commit with it.
    pub fn park(&self, id: &str, rows: &[JournalEntry]) -> Result<()> {
        self.ws.run_tx(id, |c| {
            insert_rows(c, id, rows)?;
            c.prepare_cached(
                "UPDATE runs SET status = ?2, owner = NULL, lease_until_ns = NULL WHERE id = ?1",
            )?
            .execute(params![id, RunStatus::Waiting])?;
            Ok(())
        })?;
        self.ws.fences.let_go(id);
        Ok(())
    }

    /// Runs that are `running` or `waiting`, for recovery.
    pub fn unfinished(&self) -> Result<Vec<Unfinished>> {
        self.ws.read_tx(|c| {
            // The literals match the partial index `runs_status`.
            let mut stmt = c.prepare_cached(
                "SELECT id, status, on_interrupt, owner, lease_until_ns,
                        NOT EXISTS (SELECT 1 FROM interrupts i WHERE i.run_id = runs.id AND i.answer IS NULL)
                 FROM runs WHERE status IN ('running', 'waiting') ORDER BY started_ns, id",
            )?;
            let rows = stmt
                .query_map([], |r| {
                    Ok(Unfinished {
                        id: r.get(0)?,
                        status: r.get(1)?,
                        on_interrupt: r.get(2)?,
                        owner: r.get(3)?,
                        lease_until_ns: r.get(4)?,
                        answered: r.get(5)?,
                    })
                })?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            Ok(rows)
        })
    }
}

/// Drops what only an unfinished run needs (journal, emitted output,
/// interrupts), once it has ended for good.
pub(crate) fn drop_durable_state(c: &Connection, id: &str) -> Result<()> {
    crate::journal::unpin_all(c, id)?;
    for sql in [
        "DELETE FROM journal WHERE run_id = ?1",
        "DELETE FROM run_output WHERE run_id = ?1",
        "DELETE FROM interrupts WHERE run_id = ?1",
    ] {
        c.prepare_cached(sql)?.execute([id])?;
    }
    Ok(())
}

/// Inserts a new run row as `running`; `EEXIST` if the id is taken.
fn insert_run(c: &Connection, run: &NewRun<'_>) -> Result<()> {
    let inserted = c
        .prepare_cached(
            "INSERT INTO runs (id, backend, status, source, options, started_ns)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT (id) DO NOTHING",
        )?
        .execute(params![
            run.id,
            run.backend,
            RunStatus::Running,
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

#[cfg(test)]
mod tests {
    use super::*;

    fn run(id: &str) -> NewRun<'_> {
        NewRun {
            id,
            backend: "js",
            source: "1",
            options: "{}",
        }
    }

    #[test]
    fn statuses_are_stored_as_text() {
        let ws = Workspace::in_memory().unwrap();
        ws.runs().create(&run("r")).unwrap();
        let stored = |ws: &Workspace| -> String {
            ws.read_tx(|c| Ok(c.query_row("SELECT status FROM runs", [], |r| r.get(0))?))
                .unwrap()
        };
        assert_eq!(stored(&ws), "running");
        ws.runs().park("r", &[]).unwrap();
        assert_eq!(stored(&ws), "waiting");
        ws.runs()
            .finish("r", &RunEnd::new(RunStatus::TimedOut))
            .unwrap();
        assert_eq!(stored(&ws), "timed_out");
        assert_eq!(
            ws.runs().get("r").unwrap().unwrap().status,
            RunStatus::TimedOut
        );
    }

    #[test]
    fn an_unknown_stored_status_is_an_error() {
        let ws = Workspace::in_memory().unwrap();
        ws.runs().create(&run("r")).unwrap();
        ws.meta_tx(|c| Ok(c.execute("UPDATE runs SET status = 'paused', on_interrupt = 'x'", [])?))
            .unwrap();
        let e = ws.runs().get("r").unwrap_err();
        assert_eq!(e.code, Errno::EIO);
        assert!(
            e.message.contains("unknown run status \"paused\""),
            "{}",
            e.message
        );
        let e = ws.runs().list(Page::all()).unwrap_err();
        assert!(e.message.contains("unknown run status"), "{}", e.message);
        let e = ws
            .runs()
            .claim("r", "me", Duration::ZERO, &|_| true)
            .unwrap_err();
        assert!(e.message.contains("unknown run status"), "{}", e.message);
    }

    fn stored_spec(ws: &Workspace, id: &str) -> Option<String> {
        ws.read_tx(|c| Ok(c.query_row("SELECT spec FROM runs WHERE id = ?1", [id], |r| r.get(0))?))
            .unwrap()
    }

    fn durable(spec: &str) -> DurableRun<'_> {
        DurableRun {
            on_interrupt: OnInterrupt::Replay,
            spec: Some(spec),
            owner: "me",
            lease: Duration::from_secs(60),
        }
    }

    #[test]
    fn the_spec_lives_until_the_run_ends_whatever_the_end() {
        let ws = Workspace::in_memory().unwrap();
        let spec = r#"{"env":{"TOKEN":"s3cret"},"seed":"00"}"#;
        for (i, status) in [
            RunStatus::Completed,
            RunStatus::Failed,
            RunStatus::Cancelled,
            RunStatus::TimedOut,
        ]
        .into_iter()
        .enumerate()
        {
            let id = format!("r{i}");
            ws.runs().create_durable(&run(&id), &durable(spec)).unwrap();
            // Parked, then taken up again: a replay still needs it.
            ws.runs().park(&id, &[]).unwrap();
            assert_eq!(stored_spec(&ws, &id).as_deref(), Some(spec));
            let claimed = ws.runs().claim(&id, "me", Duration::ZERO, &|_| false);
            assert_eq!(claimed.unwrap().unwrap().spec.as_deref(), Some(spec));
            ws.runs().finish(&id, &RunEnd::new(status)).unwrap();
            assert_eq!(stored_spec(&ws, &id), None, "{status}");
            // What `runs` shows is still there.
            let r = ws.runs().get(&id).unwrap().unwrap();
            assert_eq!((r.status, r.options.as_str()), (status, "{}"));
        }
    }

    #[test]
    fn a_released_run_is_free_for_the_next_claim() {
        let ws = Workspace::in_memory().unwrap();
        ws.runs().create_durable(&run("r"), &durable("{}")).unwrap();
        let alive = |_: &str| false;
        assert!(!ws.runs().release("r", "someone else").unwrap());
        assert_eq!(
            ws.runs()
                .claim("r", "other", Duration::ZERO, &alive)
                .unwrap(),
            None
        );
        assert!(ws.runs().release("r", "me").unwrap());
        let u = &ws.runs().unfinished().unwrap()[0];
        assert_eq!((u.status, u.owner.as_deref()), (RunStatus::Running, None));
        assert!(
            ws.runs()
                .claim("r", "other", Duration::ZERO, &alive)
                .unwrap()
                .is_some()
        );
    }

    #[test]
    fn only_an_ended_status_finishes_a_run() {
        let ws = Workspace::in_memory().unwrap();
        ws.runs().create(&run("r")).unwrap();
        for status in [RunStatus::Running, RunStatus::Waiting] {
            let e = ws.runs().finish("r", &RunEnd::new(status)).unwrap_err();
            assert_eq!(e.code, Errno::EINVAL);
        }
        assert_eq!(
            ws.runs().get("r").unwrap().unwrap().status,
            RunStatus::Running
        );
    }
}
