//! What a run may do to its workspace, enforced by the store itself so no
//! path around it exists: a [`RunScope`] is entered on every thread that
//! works for a run (the run's own, each command's), as the audit actor is,
//! and every change to *that* workspace (`Workspace::write_tx`, which each
//! mutation goes through) is checked against it. A read-only scope fails
//! each change with `EROFS` before it starts; other workspaces the thread
//! touches (a run's private in-memory `/tmp`) are not its concern.

mod file;
mod gate;
mod script;
mod stored;

pub use file::{
    BackendLimits, CommandRule, NetworkRules, PathAccess, PathRule, Policy, PolicySpec,
};
pub(crate) use gate::in_op;
pub use gate::{Action, Decision, ExecAction, Gate, Narrowing};
pub use script::simple_commands;

use std::cell::RefCell;
use std::sync::Arc;

use crate::error::{Errno, FsError, Result};
use crate::workspace::Workspace;

/// A run's restrictions on one workspace. Cheap to clone.
#[derive(Clone, Debug)]
pub struct RunScope(Arc<Scope>);

#[derive(Debug)]
struct Scope {
    /// Which workspace (its connection's address; see `Workspace::conn_id`).
    conn: usize,
    read_only: bool,
    /// Hosts this run may reach besides the workspace's allow-list
    /// (`exec --allow-host`).
    allow_hosts: crate::AllowList,
}

thread_local! {
    static CURRENT: RefCell<Option<RunScope>> = const { RefCell::new(None) };
}

/// While alive, the thread works under the scope; dropping it restores
/// what the thread had before.
pub struct ScopeGuard {
    previous: Option<RunScope>,
}

impl Drop for ScopeGuard {
    fn drop(&mut self) {
        let previous = self.previous.take();
        CURRENT.with(|c| *c.borrow_mut() = previous);
    }
}

impl RunScope {
    /// Whether changes are refused.
    pub fn read_only(&self) -> bool {
        self.0.read_only
    }

    /// The hosts the run may reach besides the workspace's allow-list.
    pub fn allow_hosts(&self) -> &crate::AllowList {
        &self.0.allow_hosts
    }

    /// Puts this thread under the scope until the guard drops.
    pub fn enter(&self) -> ScopeGuard {
        let previous = CURRENT.with(|c| c.borrow_mut().replace(self.clone()));
        ScopeGuard { previous }
    }
}

/// The scope this thread works under, to hand to a thread it starts.
pub fn current_scope() -> Option<RunScope> {
    CURRENT.with(|c| c.borrow().clone())
}

impl Workspace {
    /// A scope for runs on this workspace: `read_only` refuses every
    /// change with `EROFS`.
    pub fn run_scope(&self, read_only: bool) -> RunScope {
        self.run_scope_with(read_only, crate::AllowList::default())
    }

    /// As [`run_scope`](Self::run_scope), with hosts the run may reach
    /// besides the workspace's allow-list.
    pub fn run_scope_with(&self, read_only: bool, allow_hosts: crate::AllowList) -> RunScope {
        RunScope(Arc::new(Scope {
            conn: self.conn_id(),
            read_only,
            allow_hosts,
        }))
    }

    /// Refuses a change the current thread's scope does not allow.
    pub(crate) fn check_scope(&self) -> Result<()> {
        let refused = CURRENT.with(|c| {
            c.borrow()
                .as_ref()
                .is_some_and(|s| s.0.read_only && s.0.conn == self.conn_id())
        });
        if refused {
            return Err(FsError::custom(
                Errno::EROFS,
                "",
                "read-only file system: this run may not change the workspace (it was started read-only)",
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::{Errno, Workspace};

    #[test]
    fn a_read_only_scope_refuses_changes_to_its_workspace_only() {
        let ws = Workspace::in_memory().unwrap();
        let other = Workspace::in_memory().unwrap();
        ws.write("/a", b"1", &Default::default()).unwrap();
        let before = ws.rev().unwrap();
        {
            let _g = ws.run_scope(true).enter();
            let e = ws.write("/b", b"2", &Default::default()).unwrap_err();
            assert_eq!(e.code, Errno::EROFS, "{e}");
            assert_eq!(e.path, "/b");
            assert_eq!(
                ws.rm("/a", Default::default()).unwrap_err().code,
                Errno::EROFS
            );
            assert_eq!(ws.read("/a").unwrap(), b"1");
            other.write("/c", b"3", &Default::default()).unwrap();
            // Another thread is not under it.
            std::thread::scope(|s| {
                s.spawn(|| ws.write("/d", b"4", &Default::default()).unwrap());
            });
        }
        ws.write("/e", b"5", &Default::default()).unwrap();
        assert_eq!(ws.rev().unwrap(), before + 2);
        let _g = ws.run_scope(false).enter();
        ws.write("/f", b"6", &Default::default()).unwrap();
    }
}
