//! Outgoing requests in a durable run's journal. A request's response is
//! not recorded (bodies can be any size), so, as the design asks of a call
//! with no recorded result: a replay sends an idempotent request (GET,
//! HEAD, PUT, DELETE, OPTIONS, TRACE) again, and refuses any other (POST,
//! PATCH, ...), which was marked unsafe to repeat before it was first sent,
//! since it may already have taken effect: the run then fails with that. Each row is committed, with
//! everything before it, before the request leaves.

use computer_store::{EntryKind, EntryStatus};

use crate::durable::journal::{self, Journal, SharedJournal, Step};
use crate::host::error::HostError;

/// Whether HTTP says sending `method` twice is the same as once.
fn idempotent(method: &str) -> bool {
    matches!(
        method,
        "GET" | "HEAD" | "PUT" | "DELETE" | "OPTIONS" | "TRACE"
    )
}

/// Records the request `method url` (or finds it recorded); `Err` says why
/// it must not be sent. The row shows `shown` (the URL with its secrets
/// redacted) and matches on a digest of `full`, so a replay that sends
/// another query string diverges even though both look alike.
pub(crate) fn step(j: &SharedJournal, method: &str, shown: &str, full: &str) -> Result<(), String> {
    let name = format!("{method} {shown}");
    let hash = journal::args_hash(&[method.as_bytes(), full.as_bytes()]);
    let mut jl = journal::lock(j);
    let status = match jl.step(EntryKind::Http, &name, hash) {
        Ok(Step::Fresh(seq)) => {
            let status = if idempotent(method) {
                EntryStatus::Started
            } else {
                EntryStatus::Unsafe
            };
            Some((seq, status))
        }
        Ok(Step::Repeat(_)) | Ok(Step::Replay(_)) => None,
        Ok(Step::Unsafe(_)) => {
            let msg = format!(
                "{name} was sent before the run was interrupted and may have taken effect, so it was not sent again"
            );
            // The run ends here with this error: going on without the
            // response could only diverge from the first attempt.
            jl.diverged = Some(msg.clone());
            return Err(msg);
        }
        Err(HostError::Diverged(msg)) => return Err(msg),
        Err(e) => return Err(e.to_string()),
    };
    if let Some((seq, status)) = status {
        let row = Journal::entry(seq, EntryKind::Http, &name, hash, status, None);
        jl.record(row).map_err(|e| e.to_string())?;
    }
    // The request reaches the outside world: everything before it commits first.
    jl.flush_all().map_err(|e| e.to_string())
}
