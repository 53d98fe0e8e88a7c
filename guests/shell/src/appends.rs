//! Holding back bursts of appends to one file.
//!
//! A streaming command whose output is redirected (`cat big > f`, `grep x big > f`)
//! reaches the filesystem as one `append` per 4 KiB pipe chunk, each preceded by an
//! `lstat` from bashkit's symlink layer. Sent one by one, 100 MB would be 50,000 host
//! calls, each rewriting the file's last stored chunk. So appends that follow an
//! append to the same file are collected here and sent together.
//!
//! What keeps this invisible to the script and to everyone else:
//! - the first append to a file is sent at once, so its errors (missing directory,
//!   a directory in the way) are reported by the command that caused them;
//! - any other filesystem operation, on any path, first sends what is held, so the
//!   script always observes its own writes in order; only `lstat` of the file being
//!   appended to is answered here (its size grown by what is held), since bashkit
//!   asks it before every append;
//! - what is held is sent once it reaches `FLUSH_BYTES`, once it is `MAX_AGE` old
//!   (the run polls `flush_stale`), and when the run ends. So other runs see the
//!   file grow with at most that delay.
//!
//! A failure of a held-back append is reported on stderr as a write error, since the
//! command that caused it may already have finished.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use bashkit::Metadata;

use crate::computer::workspace::fs;
use crate::fs_errors;
use crate::output::{self, Stream};

/// Held bytes that trigger a write: the host stores files in chunks of this size.
const FLUSH_BYTES: usize = 256 << 10;
/// The longest a byte is held back.
pub const MAX_AGE: Duration = Duration::from_millis(20);

#[derive(Default)]
pub struct Appends {
    state: Mutex<Option<Pending>>,
}

/// Appends to `path` after the one that was sent.
struct Pending {
    path: String,
    data: Vec<u8>,
    /// When the first held byte arrived.
    since: Option<Instant>,
    /// The file's metadata with every sent append in it, once asked for.
    sent_metadata: Option<Metadata>,
}

impl Appends {
    fn lock(&self) -> std::sync::MutexGuard<'_, Option<Pending>> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Append `data` to `path`: held back when it continues a burst to the same file,
    /// else sent at once (after what is held for another file).
    pub fn append(&self, path: &str, data: &[u8]) -> bashkit::Result<()> {
        let mut state = self.lock();
        if let Some(pending) = state.as_mut().filter(|p| p.path == path) {
            if pending.data.is_empty() {
                pending.since = Some(Instant::now());
            }
            pending.data.extend_from_slice(data);
            if pending.data.len() < FLUSH_BYTES {
                return Ok(());
            }
            let data = std::mem::take(&mut pending.data);
            pending.since = None;
            pending.sent_metadata = None;
            return fs::append(path, &data).map_err(fs_errors::convert);
        }
        if let Some(other) = state.take() {
            send(other);
        }
        crate::workspace_fs::with_tmp(path, || fs::append(path, data))?;
        *state = Some(Pending {
            path: path.to_string(),
            data: Vec::new(),
            since: None,
            sent_metadata: None,
        });
        Ok(())
    }

    /// `lstat` of the file being appended to, answered without sending what is held;
    /// `None` for any other path (the caller flushes and asks the host).
    pub fn lstat(&self, path: &str) -> Option<bashkit::Result<Metadata>> {
        let mut state = self.lock();
        let pending = state.as_mut().filter(|p| p.path == path)?;
        if pending.sent_metadata.is_none() {
            if !pending.data.is_empty() {
                // Nothing known about the file yet: send and ask.
                let data = std::mem::take(&mut pending.data);
                pending.since = None;
                if let Err(e) = fs::append(path, &data) {
                    return Some(Err(fs_errors::convert(e)));
                }
            }
            match fs::lstat(path) {
                Ok(stat) if stat.kind == fs::NodeKind::File => {
                    pending.sent_metadata = Some(crate::workspace_fs::metadata(&stat));
                }
                Ok(stat) => return Some(Ok(crate::workspace_fs::metadata(&stat))),
                Err(e) => return Some(Err(fs_errors::convert(e))),
            }
        }
        let mut meta = pending.sent_metadata.clone()?;
        meta.size += pending.data.len() as u64;
        Some(Ok(meta))
    }

    /// Send what is held. Called before every other operation.
    pub fn flush(&self) {
        let mut state = self.lock();
        if state.as_ref().is_some_and(|p| !p.data.is_empty()) {
            if let Some(pending) = state.take() {
                send(pending);
            }
        } else {
            // Nothing held: drop the burst, so the next append starts a new one.
            *state = None;
        }
    }

    /// Send what is held if it has waited `MAX_AGE`; keeps the burst going.
    pub fn flush_stale(&self) {
        let mut state = self.lock();
        let Some(pending) = state.as_mut() else {
            return;
        };
        if pending.since.is_some_and(|t| t.elapsed() >= MAX_AGE) {
            let data = std::mem::take(&mut pending.data);
            pending.since = None;
            pending.sent_metadata = None;
            if let Err(e) = fs::append(&pending.path, &data) {
                report(&pending.path, e);
            }
        }
    }
}

fn send(pending: Pending) {
    if pending.data.is_empty() {
        return;
    }
    if let Err(e) = fs::append(&pending.path, &pending.data) {
        report(&pending.path, e);
    }
}

fn report(path: &str, e: fs::FsError) {
    let message = format!(
        "bash: write error: {path}: {}\n",
        fs_errors::strerror(e.code)
    );
    output::write(Stream::Stderr, message.as_bytes());
}
