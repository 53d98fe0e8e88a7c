//! The gate ([`Gate`]): consulted before every exec (by the runtime) and
//! every change to the workspace (by `Workspace::write_tx`, which every
//! mutation of every guest, command, tool or CLI command goes through). It
//! allows, denies with a reason (the change fails with `EPERM` and the
//! reason; an exec is refused), or narrows (read-only, a shorter time, less
//! memory), never widens. Every decision that is not a plain allow is in
//! the audit log.

use std::cell::RefCell;
use std::sync::Arc;

use crate::error::{Errno, FsError, Result};
use crate::workspace::Workspace;

/// An exec about to start.
#[derive(Debug, Clone, Default)]
pub struct ExecAction {
    /// The backend's name.
    pub backend: String,
    /// The script or program source.
    pub source: String,
    /// The working directory.
    pub cwd: String,
    /// The names of the run's environment variables (not their values).
    pub env_names: Vec<String>,
    /// Whether it was asked to be read-only.
    pub read_only: bool,
    /// Its time limit (ms) and memory limit (bytes).
    pub timeout_ms: u64,
    /// Its memory limit (bytes).
    pub memory_bytes: u64,
    /// Its id, if the caller chose one.
    pub run_id: Option<String>,
}

/// What the gate is asked about.
#[derive(Debug, Clone, Copy)]
pub enum Action<'a> {
    /// An exec, before it starts.
    Exec(&'a ExecAction),
    /// A change to the workspace: the operation (`write`, `mkdir`, `rm`,
    /// `rename`, ...) and each path it changes, canonical (no symlink on
    /// the way: a link cannot lead a change around a rule). One operation
    /// may be asked about several paths (a rename: both ends).
    Change {
        /// The operation's name, as the audit log has it (`change` when the
        /// workspace keeps no audit log).
        op: &'a str,
        /// The canonical path.
        path: &'a str,
        /// Whatever is below `path` changes too (removed, moved, replaced).
        subtree: bool,
    },
}

/// How an exec is narrowed. Each field can only make the run smaller.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Narrowing {
    /// Run it read-only.
    pub read_only: bool,
    /// At most this long (ms).
    pub timeout_ms: Option<u64>,
    /// At most this much memory (bytes).
    pub memory_bytes: Option<u64>,
    /// Why, for the audit log.
    pub reason: String,
}

impl Narrowing {
    /// Both narrowings at once: the smaller of each.
    pub fn and(mut self, other: Narrowing) -> Narrowing {
        self.read_only |= other.read_only;
        self.timeout_ms = min_opt(self.timeout_ms, other.timeout_ms);
        self.memory_bytes = min_opt(self.memory_bytes, other.memory_bytes);
        if self.reason.is_empty() {
            self.reason = other.reason;
        } else if !other.reason.is_empty() {
            self.reason = format!("{}; {}", self.reason, other.reason);
        }
        self
    }
}

fn min_opt(a: Option<u64>, b: Option<u64>) -> Option<u64> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// A gate's answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    /// Go ahead.
    Allow,
    /// Refused, with the reason the caller is told.
    Deny(String),
    /// Allowed, made smaller. For a change, a read-only narrowing refuses
    /// it with `EROFS`; other narrowings do not apply to changes.
    Narrow(Narrowing),
}

impl Decision {
    /// Both decisions: a deny wins, then narrowings add up.
    pub fn and(self, other: Decision) -> Decision {
        match (self, other) {
            (Decision::Deny(r), _) | (_, Decision::Deny(r)) => Decision::Deny(r),
            (Decision::Narrow(a), Decision::Narrow(b)) => Decision::Narrow(a.and(b)),
            (Decision::Narrow(n), Decision::Allow) | (Decision::Allow, Decision::Narrow(n)) => {
                Decision::Narrow(n)
            }
            (Decision::Allow, Decision::Allow) => Decision::Allow,
        }
    }
}

/// Decides whether an action may happen. Called on the thread that does
/// it, before it does it, for every exec and every change: keep it quick.
pub trait Gate: Send + Sync {
    /// The decision for `action`.
    fn check(&self, action: &Action<'_>) -> Decision;
}

thread_local! {
    /// The public operation this thread is in (`audited`), so a change's
    /// check can name it.
    static OP: RefCell<Vec<(&'static str, String)>> = const { RefCell::new(Vec::new()) };
}

/// Runs `f` as operation `op` on `target` (for the gate's `Change`).
pub(crate) fn in_op<T>(op: &'static str, target: &str, f: impl FnOnce() -> T) -> T {
    OP.with(|o| o.borrow_mut().push((op, target.to_owned())));
    struct Pop;
    impl Drop for Pop {
        fn drop(&mut self) {
            OP.with(|o| o.borrow_mut().pop());
        }
    }
    let _pop = Pop;
    f()
}

impl Workspace {
    /// Adds a gate: every exec on this handle (the runtime asks) and every
    /// change through it is checked by each gate added, the strictest
    /// answer winning. A policy file (`policy()`) is one such gate.
    pub fn add_gate(&self, gate: Arc<dyn Gate>) {
        self.gates
            .write()
            .unwrap_or_else(|p| p.into_inner())
            .push(gate);
        self.refresh_gated();
    }

    /// Whether any gate is installed (one atomic load).
    pub fn has_gates(&self) -> bool {
        self.gated.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Every gate's decision on `action`, combined (see [`Decision::and`]).
    /// A decision other than allow is written to the audit log (operation
    /// `gate`).
    pub fn check_gates(&self, action: &Action<'_>) -> Decision {
        let mut decision = Decision::Allow;
        if !self.has_gates() {
            return decision;
        }
        if let Some(p) = self.policy_gate() {
            decision = decision.and(p.check(action));
        }
        for g in self.gates.read().unwrap_or_else(|p| p.into_inner()).iter() {
            decision = decision.and(g.check(action));
        }
        if decision != Decision::Allow {
            self.audit_decision(action, &decision);
        }
        decision
    }

    fn audit_decision(&self, action: &Action<'_>, decision: &Decision) {
        let (kind, target) = match action {
            Action::Exec(e) => ("exec".to_owned(), e.backend.clone()),
            Action::Change { op, path, .. } => ((*op).to_owned(), (*path).to_owned()),
        };
        let (outcome, why, narrowing) = match decision {
            Decision::Deny(r) => ("denied", r.clone(), None),
            Decision::Narrow(n) => (
                "narrowed",
                n.reason.clone(),
                Some(serde_json::json!({
                    "read_only": n.read_only, "timeout_ms": n.timeout_ms, "memory_bytes": n.memory_bytes,
                })),
            ),
            Decision::Allow => return,
        };
        let args = serde_json::json!({ "action": kind, "narrowing": narrowing });
        self.audit().event(
            "gate",
            &target,
            Some(args),
            outcome,
            Some(&why),
            std::time::Duration::ZERO,
        );
    }

    /// The check of a change, inside its transaction once it has noted
    /// the canonical paths it changes (`Workspace::change`): `EPERM` with
    /// the reason when a gate denies one, `EROFS` when one narrows it to
    /// read-only; the transaction then rolls back.
    pub(crate) fn check_change_gates(&self) -> Result<()> {
        if !self.has_gates() {
            return Ok(());
        }
        let op = OP
            .with(|o| o.borrow().last().map(|(op, _)| *op))
            .unwrap_or("change");
        for (path, subtree) in crate::changes::pending() {
            let action = Action::Change {
                op,
                path: &path,
                subtree,
            };
            match self.check_gates(&action) {
                Decision::Allow => {}
                Decision::Narrow(n) if !n.read_only => {}
                Decision::Narrow(n) => {
                    return Err(FsError::custom(
                        Errno::EROFS,
                        &path,
                        format!("read-only file system: {path}: {}", n.reason),
                    ));
                }
                Decision::Deny(why) => {
                    return Err(FsError::custom(
                        Errno::EPERM,
                        &path,
                        format!("operation not permitted: {path}: {why}"),
                    ));
                }
            }
        }
        Ok(())
    }
}
