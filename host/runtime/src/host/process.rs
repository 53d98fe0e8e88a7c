//! `computer:workspace/process`: the process facts WASI has no interface
//! for (pid, parent pid, user and group), one model for every guest.
//!
//! Process ids are handed out per run by a counter every store of the run
//! shares: the run is pid 1, and each command started (at any depth) takes
//! the next id. Commands start in an order fixed by the program (the
//! hand-over in `commands::link`), so a durable run's replay hands out the
//! same ids; nothing here is journalled.

use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};

use crate::bindings::process::{self, Identity, StdioTarget};
use crate::host::stdio::Route;
use crate::run::state::RunState;

/// The one user every guest runs as.
pub const USER: &str = "user";
/// Its group.
pub const GROUP: &str = "user";
/// Its user id.
pub const UID: u32 = 1000;
/// Its group id.
pub const GID: u32 = 1000;
/// The pid of a run's own process.
const RUN_PID: u32 = 1;

/// Which process a store is, and the run's pid counter.
#[derive(Clone, Debug)]
pub(crate) struct Pids {
    pub pid: u32,
    pub ppid: u32,
    /// The last pid handed out in this run.
    last: Arc<AtomicU32>,
}

impl Pids {
    /// A run's own process: pid 1, started by the host (0).
    pub(crate) fn run() -> Self {
        Pids {
            pid: RUN_PID,
            ppid: 0,
            last: Arc::new(AtomicU32::new(RUN_PID)),
        }
    }

    /// A process this one starts: the run's next pid, this one its parent.
    pub(crate) fn child(&self) -> Self {
        Pids {
            pid: self.last.fetch_add(1, Ordering::SeqCst).wrapping_add(1),
            ppid: self.pid,
            last: self.last.clone(),
        }
    }
}

impl process::Host for RunState {
    fn get_identity(&mut self) -> wasmtime::Result<Identity> {
        let pids = &self.nesting.pids;
        Ok(Identity {
            pid: pids.pid,
            ppid: pids.ppid,
            uid: UID,
            gid: GID,
            user: USER.to_owned(),
            group: GROUP.to_owned(),
        })
    }

    fn redirect_stdio(
        &mut self,
        fd: u32,
        target: StdioTarget,
    ) -> wasmtime::Result<Result<(), String>> {
        Ok(route_for(self, fd, target).map(|route| self.stdio.redirect(fd as usize, route)))
    }
}

/// What `dup2(target, fd)` points `fd` at, or why it cannot.
fn route_for(state: &RunState, fd: u32, target: StdioTarget) -> Result<Route, String> {
    if fd > 2 {
        return Err(format!(
            "descriptor {fd} is not a standard one: only 0, 1 and 2 can be redirected"
        ));
    }
    Ok(match target {
        StdioTarget::Stdio(n) if n <= 2 => Route::Stdio(n as usize),
        StdioTarget::Stdio(n) => {
            return Err(format!("descriptor {n} is not a standard one (0, 1 or 2)"));
        }
        StdioTarget::Null => Route::Null,
        StdioTarget::File(ino) => {
            let writable = fd != 0;
            let file = state.wasi_fs.file_by_ino(ino, writable).ok_or_else(|| {
                let how = if writable { "writing" } else { "reading" };
                format!("no file with inode {ino} is open for {how} in this process")
            })?;
            Route::File {
                file,
                read: Default::default(),
            }
        }
    })
}
