//! Fencing of durable runs: a process writes for a run only while the
//! run's `epoch` is the one its claim got.
//!
//! A lease says who runs a run, but it is only renewed now and then: a
//! process that was stopped (SIGSTOP, swapped out, cut off) past its lease
//! wakes up still believing it owns the run, and would go on committing
//! journal rows, output, a park or an end while another process replays the
//! same run. So every claim (`create_durable`, `claim`) bumps the run's
//! epoch and notes it in the workspace handle that claimed; every write made
//! for the run through that handle checks the epoch inside its own
//! transaction. A write whose epoch is no longer the run's fails as
//! "fenced", and the handle remembers it ([`Workspace::is_fenced`]) so the
//! runtime stops the run's guest.
//!
//! Writes through a handle that never claimed the run (tests, tools that
//! look at a run from outside) are not fenced: only a claim gives an epoch
//! to compare with.

use std::collections::HashMap;
use std::sync::Mutex;

use rusqlite::{Connection, OptionalExtension, params};

use crate::error::{Errno, FsError, Result};
use crate::status::RunStatus;
use crate::workspace::Workspace;

/// The epochs this handle claimed, by run.
#[derive(Default)]
pub(crate) struct Fences(Mutex<HashMap<String, Held>>);

#[derive(Clone, Copy)]
struct Held {
    epoch: i64,
    /// A write for the run was refused: another process holds it now.
    fenced: bool,
}

impl Fences {
    fn map(&self) -> std::sync::MutexGuard<'_, HashMap<String, Held>> {
        self.0.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Notes that this handle claimed `run_id` at `epoch`.
    pub fn hold(&self, run_id: &str, epoch: i64) {
        self.map().insert(
            run_id.to_owned(),
            Held {
                epoch,
                fenced: false,
            },
        );
    }

    /// Forgets `run_id` (it ended, parked, or was released here).
    pub fn let_go(&self, run_id: &str) {
        self.map().remove(run_id);
    }

    /// The epoch this handle holds `run_id` at, if it claimed it.
    pub fn epoch(&self, run_id: &str) -> Option<i64> {
        self.map().get(run_id).map(|h| h.epoch)
    }

    pub fn mark_fenced(&self, run_id: &str) {
        if let Some(h) = self.map().get_mut(run_id) {
            h.fenced = true;
        }
    }

    pub fn is_fenced(&self, run_id: &str) -> bool {
        self.map().get(run_id).is_some_and(|h| h.fenced)
    }
}

/// Fails unless run `run_id` is still `running` at `epoch`: inside the
/// transaction of the write it guards, so no claim can come in between.
pub(crate) fn check(c: &Connection, run_id: &str, epoch: i64) -> Result<()> {
    let now: Option<(i64, RunStatus)> = c
        .prepare_cached("SELECT epoch, status FROM runs WHERE id = ?1")?
        .query_row(params![run_id], |r| Ok((r.get(0)?, r.get(1)?)))
        .optional()?;
    match now {
        Some((e, RunStatus::Running)) if e == epoch => Ok(()),
        now => Err(FsError::custom(
            Errno::EIO,
            run_id,
            format!(
                "fenced: run {run_id} was taken over by another process (this process claimed it at \
                 epoch {epoch}; it is now {}), so this process no longer writes for it",
                match now {
                    Some((e, status)) => format!("at epoch {e}, {status}"),
                    None => "gone".to_owned(),
                }
            ),
        )),
    }
}

impl Workspace {
    /// Whether a write for `run_id` through this handle was refused because
    /// another process took the run over (see the module documentation):
    /// the run must stop here, and leave its record to the new owner.
    pub fn is_fenced(&self, run_id: &str) -> bool {
        self.fences.is_fenced(run_id)
    }

    /// A bookkeeping transaction (`meta_tx`) for a write made for run
    /// `run_id`: fenced by the epoch this handle claimed it at, if any.
    pub(crate) fn run_tx<T>(
        &self,
        run_id: &str,
        f: impl FnOnce(&Connection) -> Result<T>,
    ) -> Result<T> {
        let epoch = self.fences.epoch(run_id);
        let mut fenced = false;
        let out = self.meta_tx(|c| {
            if let Some(epoch) = epoch
                && let Err(e) = check(c, run_id, epoch)
            {
                fenced = true;
                return Err(e);
            }
            f(c)
        });
        if fenced {
            self.fences.mark_fenced(run_id);
        }
        out
    }
}
