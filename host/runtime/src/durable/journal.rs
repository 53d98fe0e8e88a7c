//! The journal of a durable run, as the run's host calls see it.
//!
//! Every host call takes the next position. On a replay, a position that
//! has a recorded result returns it without executing again; a call that
//! differs from the recorded one (function or arguments) is a
//! nondeterministic replay. New rows wait in `pending` until the next
//! transaction: a filesystem mutation (they commit with it), an external
//! effect (a module call, output), or the end of the run.

use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use computer_store::{ArgsDigest, EntryKind, EntryStatus, JournalEntry, Workspace};

use crate::host::error::HostError;
use crate::run::output::Sink;
use sha2::{Digest, Sha256};

/// Rows kept in memory before they are committed on their own.
const MAX_PENDING_ROWS: usize = 4096;
const MAX_PENDING_BYTES: usize = 8 << 20;
/// One row holds at most this many bytes of consecutive clock readings.
const MAX_CLOCK_RUN_BYTES: usize = 64 << 10;

/// What the journal says about the call at the next position.
pub(crate) enum Step {
    /// Recorded: return this result.
    Replay(Vec<u8>),
    /// Not recorded yet: execute it and record the result at `seq`.
    Fresh(u64),
    /// A module call that started and has no result: execute it again.
    Repeat(u64),
    /// A module call that passed unsafe-to-repeat and has no result.
    Unsafe(u64),
}

pub(crate) struct Journal {
    pub ws: Arc<Workspace>,
    pub run_id: String,
    recorded: Vec<JournalEntry>,
    next: u64,
    pending: Vec<JournalEntry>,
    pending_bytes: usize,
    /// Bytes of stdout/stderr emitted by earlier attempts, and written by
    /// the guest in this one.
    emitted: [usize; 2],
    written: [usize; 2],
    /// Monotonic time: where fresh readings continue from, so time never
    /// goes backwards across a replay in another process.
    mono_last: u64,
    mono_anchor: Option<(Instant, u64)>,
    /// Output waiting for the next commit, in the order written (channel
    /// index, bytes); emitted after it.
    out_buf: Vec<(usize, Vec<u8>)>,
    out_bytes: usize,
    sinks: Option<[Sink; 2]>,
    last_flush: Instant,
    /// Output of earlier attempts, for the run's result.
    prefill: (Vec<u8>, Vec<u8>),
    /// Set when the replay diverged; the run fails with it.
    pub diverged: Option<String>,
    /// Set when a commit of output failed; the run stops with it.
    pub failure: Option<String>,
    /// The run's commands ran beside each other (marked once).
    concurrent: bool,
}

pub(crate) type SharedJournal = Arc<Mutex<Journal>>;

pub(crate) fn lock(j: &SharedJournal) -> MutexGuard<'_, Journal> {
    j.lock().unwrap_or_else(|p| p.into_inner())
}

/// The journal row that marks concurrent commands ([`Journal::mark_concurrent`]).
const CONCURRENT: &str = "commands.concurrent";

/// The digest of a call without arguments (a clock reading).
pub(crate) const NO_ARGS: ArgsDigest = [0; 32];

/// The SHA-256 of a call's arguments, whole: a replay matches a recorded
/// call only by all 32 bytes (a prefix of 8 can be made to collide in
/// minutes, which let a replay act on arguments the journal never saw).
pub(crate) fn args_hash(parts: &[&[u8]]) -> ArgsDigest {
    let mut h = Sha256::new();
    for p in parts {
        h.update((p.len() as u64).to_le_bytes());
        h.update(p);
    }
    h.finalize().into()
}

impl Journal {
    /// Loads what earlier attempts of `run_id` recorded.
    pub fn load(ws: Arc<Workspace>, run_id: &str) -> computer_store::Result<Self> {
        let recorded = expand_clock_runs(ws.journal().entries(run_id)?);
        let (out, err) = ws.journal().emitted_output(run_id)?;
        // Time continues from the last recorded monotonic reading.
        let mono_last = recorded
            .iter()
            .rev()
            .find(|e| e.kind == EntryKind::Clock && e.name == "monotonic")
            .and_then(|e| e.result.as_deref())
            .map_or(0, decode_u64);
        Ok(Journal {
            ws,
            run_id: run_id.to_owned(),
            recorded,
            next: 0,
            pending: Vec::new(),
            pending_bytes: 0,
            emitted: [out.len(), err.len()],
            prefill: (out, err),
            written: [0, 0],
            mono_last,
            mono_anchor: None,
            out_buf: Vec::new(),
            out_bytes: 0,
            sinks: None,
            last_flush: Instant::now(),
            diverged: None,
            failure: None,
            concurrent: false,
        })
    }

    /// Output of earlier attempts: (stdout, stderr).
    pub fn take_prefill(&mut self) -> (Vec<u8>, Vec<u8>) {
        std::mem::take(&mut self.prefill)
    }

    /// Takes the next position for a call of `kind`/`name` with `hash`.
    pub fn step(
        &mut self,
        kind: EntryKind,
        name: &str,
        hash: ArgsDigest,
    ) -> Result<Step, HostError> {
        if let Some(d) = &self.diverged {
            return Err(HostError::Diverged(d.clone()));
        }
        let seq = self.next;
        self.next += 1;
        let Some(e) = self.recorded.get(seq as usize) else {
            return Ok(Step::Fresh(seq));
        };
        if e.kind != kind || e.name != name || e.args_digest != Some(hash) {
            let same_call = e.kind == kind && e.name == name;
            let msg = if same_call && e.args_digest.is_none() {
                format!(
                    "nondeterministic replay at call #{seq}: the journal row of {kind}.{name} was written by an older \
                     version that kept only part of its arguments' digest, so the call cannot be matched safely"
                )
            } else {
                format!(
                    "nondeterministic replay at call #{seq}: the journal recorded {}.{}{}, but the run now made {kind}.{name}{}; \
                     the run's behaviour depends on something outside the journal",
                    e.kind,
                    e.name,
                    if same_call {
                        " with other arguments"
                    } else {
                        ""
                    },
                    if same_call {
                        " with different arguments"
                    } else {
                        ""
                    },
                )
            };
            self.diverged = Some(msg.clone());
            return Err(HostError::Diverged(msg));
        }
        Ok(match e.status {
            EntryStatus::Done => Step::Replay(e.result.clone().unwrap_or_default()),
            EntryStatus::Started => Step::Repeat(seq),
            EntryStatus::Unsafe => Step::Unsafe(seq),
        })
    }

    pub fn entry(
        seq: u64,
        kind: EntryKind,
        name: &str,
        hash: ArgsDigest,
        status: EntryStatus,
        result: Option<Vec<u8>>,
    ) -> JournalEntry {
        JournalEntry {
            seq,
            kind,
            name: name.to_owned(),
            args_digest: Some(hash),
            status,
            result,
            pins: Vec::new(),
            fallback: None,
        }
    }

    /// Queues a row for the next transaction; commits on its own when the
    /// queue grows large.
    pub fn record(&mut self, row: JournalEntry) -> computer_store::Result<()> {
        self.pending_bytes += row.result.as_ref().map_or(0, Vec::len) + 64;
        self.pending.push(row);
        if self.pending.len() >= MAX_PENDING_ROWS || self.pending_bytes >= MAX_PENDING_BYTES {
            self.flush()?;
        }
        Ok(())
    }

    pub fn take_pending(&mut self) -> Vec<JournalEntry> {
        self.pending_bytes = 0;
        std::mem::take(&mut self.pending)
    }

    /// Puts rows back that a transaction did not commit.
    pub fn restore_pending(&mut self, mut rows: Vec<JournalEntry>) {
        rows.append(&mut self.pending);
        self.pending_bytes = rows
            .iter()
            .map(|r| r.result.as_ref().map_or(0, Vec::len) + 64)
            .sum();
        self.pending = rows;
    }

    /// Commits the queued rows now (before an external effect).
    pub fn flush(&mut self) -> computer_store::Result<()> {
        let rows = self.take_pending();
        if let Err(e) = self.ws.journal().commit(&self.run_id, &rows) {
            self.restore_pending(rows);
            return Err(e);
        }
        Ok(())
    }

    /// Where committed output goes (the run's stdout and stderr sinks).
    pub fn attach_sinks(&mut self, stdout: Sink, stderr: Sink) {
        self.sinks = Some([stdout, stderr]);
    }

    /// Drops the sinks (they hold the journal: a cycle).
    pub fn detach_sinks(&mut self) {
        self.sinks = None;
    }

    /// Takes an output write. What an earlier attempt already emitted is
    /// dropped; the rest waits for the next commit and is emitted after it,
    /// so output is never emitted twice.
    pub fn output(&mut self, channel: usize, bytes: &[u8]) {
        let start = self.written[channel];
        self.written[channel] += bytes.len();
        let skip = self.emitted[channel].saturating_sub(start).min(bytes.len());
        if skip == bytes.len() {
            return;
        }
        let rest = &bytes[skip..];
        match self.out_buf.last_mut() {
            Some((c, buf)) if *c == channel => buf.extend_from_slice(rest),
            _ => self.out_buf.push((channel, rest.to_vec())),
        }
        self.out_bytes += rest.len();
        if self.out_bytes >= 64 * 1024 {
            self.flush_or_fail();
        }
    }

    /// Commits queued rows and output, then emits the output.
    pub fn flush_all(&mut self) -> computer_store::Result<()> {
        self.last_flush = Instant::now();
        if self.out_buf.is_empty() {
            return self.flush();
        }
        let rows = self.take_pending();
        let chunks: Vec<(u8, Vec<u8>)> = std::mem::take(&mut self.out_buf)
            .into_iter()
            .map(|(c, b)| (c as u8 + 1, b))
            .collect();
        if let Err(e) = self
            .ws
            .journal()
            .commit_output(&self.run_id, &rows, &chunks)
        {
            self.restore_pending(rows);
            self.out_buf = chunks
                .into_iter()
                .map(|(c, b)| (c as usize - 1, b))
                .collect();
            return Err(e);
        }
        self.out_bytes = 0;
        for (c, data) in chunks {
            let channel = c as usize - 1;
            self.emitted[channel] += data.len();
            if let Some(sinks) = &self.sinks {
                sinks[channel].emit(&data);
            }
        }
        Ok(())
    }

    /// Commits output that has waited long enough (called from the epoch
    /// tick), so live streaming lags by at most a few ticks.
    pub fn flush_if_stale(&mut self) {
        if !self.out_buf.is_empty() && self.last_flush.elapsed() >= Duration::from_millis(20) {
            self.flush_or_fail();
        }
    }

    /// Flushes; a failure stops the run (at its next epoch tick).
    fn flush_or_fail(&mut self) {
        if let Err(e) = self.flush_all() {
            self.failure = Some(format!("cannot record the run's output: {e}"));
        }
    }

    /// A monotonic reading, recorded or fresh.
    pub fn monotonic_now(&mut self) -> Result<u64, HostError> {
        match self.step(EntryKind::Clock, "monotonic", NO_ARGS)? {
            Step::Replay(bytes) => {
                let v = decode_u64(&bytes);
                self.mono_last = v;
                Ok(v)
            }
            Step::Fresh(seq) | Step::Repeat(seq) | Step::Unsafe(seq) => {
                let (at, base) = *self
                    .mono_anchor
                    .get_or_insert_with(|| (Instant::now(), self.mono_last));
                let v = base + at.elapsed().as_nanos() as u64;
                self.mono_last = v;
                if !self.extend_clock_run(seq, v) {
                    self.record_value(seq, EntryKind::Clock, "monotonic", v.to_le_bytes().to_vec());
                }
                Ok(v)
            }
        }
    }

    /// Marks where the run's commands began to run beside each other (a
    /// shell's background job). From there on the order of the run's host
    /// calls depends on thread timing, not on the script alone, so a replay
    /// that reaches the mark stops with a reason rather than diverging at
    /// some later call with a puzzling one.
    pub fn mark_concurrent(&mut self) -> Result<(), HostError> {
        if self.concurrent {
            return Ok(());
        }
        self.concurrent = true;
        match self.step(EntryKind::Fs, CONCURRENT, NO_ARGS)? {
            Step::Fresh(seq) => {
                self.record_value(seq, EntryKind::Fs, CONCURRENT, Vec::new());
                Ok(())
            }
            Step::Replay(_) | Step::Repeat(_) | Step::Unsafe(_) => {
                let msg = "this run cannot be resumed: its commands ran beside each other \
                           (a background job, `cmd &`), so the order of their calls was not the \
                           script's alone and a replay cannot repeat it"
                    .to_owned();
                self.diverged = Some(msg.clone());
                Err(HostError::Diverged(msg))
            }
        }
    }

    /// A wall-clock reading (nanoseconds since the epoch), recorded or fresh.
    pub fn wall_now(&mut self) -> Result<Duration, HostError> {
        match self.step(EntryKind::Clock, "wall", NO_ARGS)? {
            Step::Replay(bytes) => Ok(Duration::from_nanos(decode_u64(&bytes))),
            Step::Fresh(seq) | Step::Repeat(seq) | Step::Unsafe(seq) => {
                let now = std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .unwrap_or_default();
                let ns = now.as_nanos() as u64;
                self.record_value(seq, EntryKind::Clock, "wall", ns.to_le_bytes().to_vec());
                Ok(Duration::from_nanos(ns))
            }
        }
    }

    /// Adds reading `v` at `seq` to the queued monotonic row just before it,
    /// if there is one: an interpreter that reads the clock at every command
    /// (bashkit's parser does) would otherwise write a row per reading.
    /// One row then holds consecutive readings (8 bytes each) from its seq
    /// on; [`expand_clock_runs`] undoes it on load.
    fn extend_clock_run(&mut self, seq: u64, v: u64) -> bool {
        let Some(last) = self.pending.last_mut() else {
            return false;
        };
        let Some(result) = last.result.as_mut() else {
            return false;
        };
        let readings = (result.len() / 8) as u64;
        let follows = last.kind == EntryKind::Clock
            && last.name == "monotonic"
            && result.len() % 8 == 0
            && last.seq + readings == seq;
        if !follows || result.len() >= MAX_CLOCK_RUN_BYTES {
            return false;
        }
        result.extend_from_slice(&v.to_le_bytes());
        self.pending_bytes += 8;
        true
    }

    fn record_value(&mut self, seq: u64, kind: EntryKind, name: &str, result: Vec<u8>) {
        let row = Journal::entry(seq, kind, name, NO_ARGS, EntryStatus::Done, Some(result));
        if let Err(e) = self.record(row) {
            // The rows stay queued; the next transaction retries them.
            tracing::warn!(run = %self.run_id, "cannot commit journal rows yet: {e}");
        }
    }
}

/// The journal as the run made its calls: a monotonic row holding N
/// readings (see `Journal::extend_clock_run`) becomes N entries at
/// consecutive positions, so position `i` is entry `i` again.
fn expand_clock_runs(rows: Vec<JournalEntry>) -> Vec<JournalEntry> {
    let mut out = Vec::with_capacity(rows.len());
    for row in rows {
        let is_run = row.kind == EntryKind::Clock
            && row.name == "monotonic"
            && row
                .result
                .as_ref()
                .is_some_and(|r| r.len() > 8 && r.len() % 8 == 0);
        if !is_run {
            out.push(row);
            continue;
        }
        let result = row.result.clone().unwrap_or_default();
        for (i, reading) in result.chunks(8).enumerate() {
            out.push(JournalEntry {
                seq: row.seq + i as u64,
                result: Some(reading.to_vec()),
                ..row.clone()
            });
        }
    }
    out
}

fn decode_u64(bytes: &[u8]) -> u64 {
    let mut b = [0u8; 8];
    let n = bytes.len().min(8);
    b[..n].copy_from_slice(&bytes[..n]);
    u64::from_le_bytes(b)
}

/// The guest's monotonic clock: journalled.
pub(crate) struct JournalMonotonicClock(pub SharedJournal);

impl wasmtime_wasi::HostMonotonicClock for JournalMonotonicClock {
    fn resolution(&self) -> u64 {
        1
    }

    fn now(&self) -> u64 {
        let mut j = lock(&self.0);
        // A divergence is reported by the next journalled call, which traps.
        j.monotonic_now().unwrap_or(j.mono_last)
    }
}

/// The guest's wall clock: journalled.
pub(crate) struct JournalWallClock(pub SharedJournal);

impl wasmtime_wasi::HostWallClock for JournalWallClock {
    fn resolution(&self) -> Duration {
        Duration::from_nanos(1)
    }

    fn now(&self) -> Duration {
        lock(&self.0).wall_now().unwrap_or_default()
    }
}

#[cfg(test)]
#[path = "journal_tests.rs"]
mod tests;
