//! Who runs a durable run: a lease in the workspace, held by one process
//! at a time and renewed while the run goes on. A process that dies stops
//! renewing; on the same machine its death is seen at once (its pid is gone
//! or belongs to a newer process), elsewhere when the lease runs out.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, OnceLock};
use std::thread::JoinHandle;
use std::time::Duration;

use computer_store::Workspace;

/// This process, as a run owner: `HOST:PID:START`, where START is the
/// process's start time in clock ticks since boot (so a reused pid is
/// not mistaken for us).
pub(crate) fn owner_id() -> &'static str {
    static ID: OnceLock<String> = OnceLock::new();
    ID.get_or_init(|| {
        let pid = std::process::id();
        format!(
            "{}:{pid}:{}",
            hostname(),
            start_time(pid).unwrap_or_default()
        )
    })
}

fn hostname() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|s| s.trim().to_owned())
        .unwrap_or_else(|_| "unknown".into())
}

/// Field 22 of `/proc/PID/stat`: when the process started. `None` when
/// there is no such process, or only its corpse (a zombie nobody reaped
/// yet: it will never renew a lease again).
fn start_time(pid: u32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name (field 2) may hold spaces and parentheses: skip past its end.
    let rest = &stat[stat.rfind(')')? + 2..];
    let mut fields = rest.split(' ');
    if matches!(fields.next(), Some("Z" | "X" | "x")) {
        return None;
    }
    fields.nth(18)?.parse().ok()
}

/// Whether `owner` is certainly gone: a process of this machine that no
/// longer exists. Owners on other machines are only gone when their lease
/// runs out.
pub(crate) fn owner_dead(owner: &str) -> bool {
    let mut parts = owner.rsplitn(3, ':');
    let (Some(start), Some(pid), Some(host)) = (parts.next(), parts.next(), parts.next()) else {
        return false;
    };
    if host != hostname() {
        return false;
    }
    let Ok(pid) = pid.parse::<u32>() else {
        return false;
    };
    match start_time(pid) {
        None => true,
        Some(t) => t.to_string() != start,
    }
}

/// Renews a run's lease in the background until dropped. If the lease is
/// lost (another process took the run over), `lost` is set and the run
/// must stop.
pub(crate) struct LeaseKeeper {
    /// Dropping it wakes the renewing thread at once, which then ends.
    stop: Option<mpsc::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl LeaseKeeper {
    pub fn start(
        ws: Arc<Workspace>,
        run_id: String,
        lease: Duration,
        lost: Arc<AtomicBool>,
    ) -> Self {
        let (stop, stopped) = mpsc::channel::<()>();
        let period = lease / 3;
        let thread = std::thread::Builder::new()
            .name(format!("lease {run_id}"))
            .spawn(move || {
                while let Err(RecvTimeoutError::Timeout) = stopped.recv_timeout(period) {
                    match ws.runs().renew_lease(&run_id, owner_id(), lease) {
                        Ok(true) => {}
                        Ok(false) => {
                            lost.store(true, Ordering::SeqCst);
                            return;
                        }
                        // A busy database: try again next period, the lease has slack.
                        Err(e) => {
                            tracing::warn!(run = %run_id, "cannot renew the run's lease: {e}")
                        }
                    }
                }
            })
            .ok();
        LeaseKeeper {
            stop: Some(stop),
            thread,
        }
    }
}

impl Drop for LeaseKeeper {
    fn drop(&mut self) {
        self.stop.take();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// A run record held by this process, for backends that run outside the
/// runtime (containers): the record is created with
/// `ws.runs().create_durable` and `owner: RunLease::owner()`, and
/// the lease renewed while this value lives, so `recover` in another
/// process knows whether the run is still going.
pub struct RunLease {
    _keeper: LeaseKeeper,
}

impl RunLease {
    /// This process, as a run owner.
    pub fn owner() -> &'static str {
        owner_id()
    }

    /// Renews the lease of run `run_id` until dropped.
    pub fn hold(ws: Arc<Workspace>, run_id: &str, lease: Duration) -> RunLease {
        RunLease {
            _keeper: LeaseKeeper::start(
                ws,
                run_id.to_owned(),
                lease,
                Arc::new(AtomicBool::new(false)),
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn this_process_is_alive_and_a_made_up_one_is_not() {
        assert!(!owner_dead(owner_id()));
        let host = hostname();
        // pid 0 is never a user process: no /proc/0.
        assert!(owner_dead(&format!("{host}:0:1")));
        // Our pid with another start time is a reused pid: the owner is gone.
        assert!(owner_dead(&format!("{host}:{}:1", std::process::id())));
        // Another machine's owner is never declared dead here.
        assert!(!owner_dead("some-other-host:1:1"));
        // A killed process that nobody has reaped yet is dead too.
        let mut child = std::process::Command::new("sleep")
            .arg("30")
            .spawn()
            .unwrap();
        let pid = child.id();
        let owner = format!("{host}:{pid}:{}", start_time(pid).unwrap());
        assert!(!owner_dead(&owner));
        child.kill().unwrap();
        // Not reaped yet: a zombie once the kernel has delivered the signal.
        // Waited for as a state, however long a loaded machine takes; the
        // bound only keeps a broken check from hanging the suite.
        let start = std::time::Instant::now();
        while !owner_dead(&owner) {
            assert!(
                start.elapsed() < std::time::Duration::from_secs(300),
                "a zombie owner is dead"
            );
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        child.wait().unwrap();
        assert!(owner_dead(&owner));
    }
}
