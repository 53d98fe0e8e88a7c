//! Host calls of durable runs go through the journal: filesystem calls
//! (a mutation commits with its journal row) and module calls (recorded as
//! started before they run, done after, unsafe when they say so).

use std::any::Any;
use std::sync::Arc;

use computer_store::{self as store, EntryKind, EntryStatus, Interrupt, Workspace};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::bindings::fs::FsError;
use crate::bindings::modules::ModuleError;
use crate::durable::journal::{self, Journal, SharedJournal, Step};
use crate::host::error::HostError;
use crate::modules::call_context::{Answer, CallContext, InterruptSource};
use crate::run::state::RunState;

type FsResult<T> = wasmtime::Result<Result<T, FsError>>;

/// Encodes a call's result for the journal.
pub(crate) fn encode<T: Serialize + ?Sized>(v: &T) -> Vec<u8> {
    postcard::to_stdvec(v).expect("journal results always encode")
}

fn decode<T: DeserializeOwned>(bytes: &[u8], what: &str) -> Result<T, HostError> {
    postcard::from_bytes(bytes).map_err(|source| HostError::Unreadable {
        what: what.to_owned(),
        source,
    })
}

/// The encoder of a mutation whose result is `()`.
pub(crate) fn unit_ok() -> store::ResultEncoder {
    Box::new(|_: &dyn Any| encode(&Ok::<(), FsError>(())))
}

impl RunState {
    /// A read of file bytes (`journalled_bytes` in a durable run).
    pub(crate) fn fs_read_bytes<A: Serialize + ?Sized>(
        &mut self,
        name: &'static str,
        args: &A,
        op: impl FnOnce(&Workspace) -> Result<(Vec<u8>, Vec<store::ChunkPiece>), FsError>,
    ) -> FsResult<Vec<u8>> {
        let Some(j) = self.journal.clone() else {
            return Ok(op(&self.workspace).map(|(data, _)| data));
        };
        let hash = journal::args_hash(&[&encode(args)]);
        journalled_bytes(&self.workspace, &j, name, hash, op).map_err(|e| self.trap(e))
    }

    /// A filesystem call that changes nothing: replayed, or executed and
    /// recorded with the next transaction.
    pub(crate) fn fs_read<T, A>(
        &mut self,
        name: &'static str,
        args: &A,
        op: impl FnOnce(&Workspace) -> Result<T, FsError>,
    ) -> FsResult<T>
    where
        T: Serialize + DeserializeOwned,
        A: Serialize + ?Sized,
    {
        let Some(j) = self.journal.clone() else {
            return Ok(op(&self.workspace));
        };
        let hash = journal::args_hash(&[&encode(args)]);
        journalled_read(&self.workspace, &j, name, hash, op).map_err(|e| self.trap(e))
    }

    /// A filesystem call that may change the workspace: replayed, or
    /// executed with its journal row (and the queued ones) committing in
    /// the same transaction. `data` is hashed on its own so large writes are
    /// not copied for it. `encode_ok` builds the success result from what
    /// the store's transaction returned.
    pub(crate) fn fs_mutate<T, A>(
        &mut self,
        name: &'static str,
        args: &A,
        data: &[u8],
        encode_ok: store::ResultEncoder,
        op: impl FnOnce(&Workspace) -> Result<T, FsError>,
    ) -> FsResult<T>
    where
        T: Serialize + DeserializeOwned,
        A: Serialize + ?Sized,
    {
        let Some(j) = self.journal.clone() else {
            return Ok(op(&self.workspace));
        };
        let hash = journal::args_hash(&[&encode(args), data]);
        journalled_mutation(&self.workspace, &j, name, hash, encode_ok, op)
            .map_err(|e| self.trap(e))
    }

    /// A module call, journalled: a recorded result is returned as it is;
    /// otherwise the call is recorded as started (committed before it runs,
    /// as it may reach the outside world), executed with a context whose
    /// `call_id` is stable across replays, and its result committed.
    pub(crate) fn module_call(
        &mut self,
        target: &str,
        hash: store::ArgsDigest,
        call: impl FnOnce(&mut CallContext) -> Result<String, ModuleError>,
        module: &str,
        function: &str,
    ) -> wasmtime::Result<Result<String, ModuleError>> {
        let Some(j) = self.journal.clone() else {
            // The call may reach the outside world: the run's changes first.
            // (A durable run's journal commits them with the call's row.)
            if let Err(e) = self.workspace.commit_group() {
                return Ok(Err(ModuleError::Failed(format!(
                    "the run's changes could not be committed before the call: {e}"
                ))));
            }
            let mut ctx = CallContext::detached(String::new(), module, function);
            return Ok(call(&mut ctx));
        };
        let journalled = ModuleCall {
            journal: &j,
            target,
            hash,
        };
        journalled
            .run(call, module, function)
            .map_err(|e| self.trap(e))
    }
}

/// One module call of a durable run, at its position in the journal.
struct ModuleCall<'a> {
    journal: &'a SharedJournal,
    target: &'a str,
    hash: store::ArgsDigest,
}

impl ModuleCall<'_> {
    fn run(
        &self,
        call: impl FnOnce(&mut CallContext) -> Result<String, ModuleError>,
        module: &str,
        function: &str,
    ) -> Result<Result<String, ModuleError>, HostError> {
        let (j, target, hash) = (self.journal, self.target, self.hash);
        let step = journal::lock(j).step(EntryKind::Module, target, hash);
        let (seq, fresh) = match step? {
            Step::Replay(bytes) => return decode(&bytes, target),
            Step::Unsafe(seq) => {
                let call_id = call_id(&journal::lock(j).run_id, seq);
                let out: Result<String, ModuleError> = Err(ModuleError::MayHaveTakenEffect(
                    format!(
                        "{target} (call {call_id}) passed unsafe_to_repeat and the run stopped before its result was recorded: \
                     it may have taken effect, so it was not repeated"
                    ),
                ));
                self.commit(seq, &out)?;
                return Ok(out);
            }
            Step::Fresh(seq) => (seq, true),
            Step::Repeat(seq) => (seq, false),
        };
        let run_id = {
            let mut jl = journal::lock(j);
            if fresh {
                let row = Journal::entry(
                    seq,
                    EntryKind::Module,
                    target,
                    hash,
                    EntryStatus::Started,
                    None,
                );
                jl.record(row).map_err(HostError::Journal)?;
            }
            // The call may reach the outside world: everything before it commits first.
            jl.flush_all().map_err(HostError::Journal)?;
            jl.run_id.clone()
        };
        let source: Arc<dyn InterruptSource> = Arc::new(DurableCall {
            journal: j.clone(),
            seq,
            target: target.to_owned(),
            hash,
        });
        let mut ctx = CallContext::attached(call_id(&run_id, seq), module, function, source);
        let out = call(&mut ctx);
        if ctx.parked() {
            return Err(HostError::Parked);
        }
        // An answer that did not match what the operator saw (see
        // `answer_or_park`) fails the run, whatever the module made of it.
        if let Some(d) = journal::lock(j).diverged.clone() {
            return Err(HostError::Diverged(d));
        }
        self.commit(seq, &out)?;
        Ok(out)
    }

    /// Records the call's result at `seq` and commits it.
    fn commit<T: Serialize>(&self, seq: u64, out: &T) -> Result<(), HostError> {
        let mut jl = journal::lock(self.journal);
        let row = Journal::entry(
            seq,
            EntryKind::Module,
            self.target,
            self.hash,
            EntryStatus::Done,
            Some(encode(out)),
        );
        let r = jl.record(row).and_then(|_| jl.flush_all());
        drop(jl);
        r.map_err(HostError::Journal)
    }
}

/// The stable id of the call at position `seq`: the idempotency key
/// modules give the outside world.
pub(crate) fn call_id(run_id: &str, seq: u64) -> String {
    format!("{run_id}/{seq}")
}

/// Interrupts of one journalled module call.
struct DurableCall {
    journal: SharedJournal,
    seq: u64,
    target: String,
    hash: store::ArgsDigest,
}

impl InterruptSource for DurableCall {
    fn answer_or_park(
        &self,
        call_id: &str,
        index: u32,
        module: &str,
        function: &str,
        payload: &Value,
    ) -> Result<Option<Answer>, HostError> {
        let mut j = journal::lock(&self.journal);
        let ws = j.ws.clone();
        let run_id = j.run_id.clone();
        let recorded = ws
            .interrupts()
            .get(&run_id, call_id, index)
            .map_err(HostError::Store)?;
        match recorded {
            Some(i) => {
                // The answer was given to exactly what the operator was
                // shown: a replay that asks about anything else (another
                // comment, another amount) must not get it.
                let asked = payload.to_string();
                if i.payload != asked || i.module != module || i.function != function {
                    let msg = format!(
                        "nondeterministic replay: interrupt {index} of call {call_id} ({}.{}) was answered for \
                         the payload {}, but the replay asks {module}.{function} about {}; the answer is not applied",
                        i.module,
                        i.function,
                        short(&i.payload),
                        short(&asked),
                    );
                    j.diverged = Some(msg.clone());
                    return Err(HostError::Diverged(msg));
                }
                i.answer.map(|text| parse_answer(&text)).transpose()
            }
            None => {
                let rows = j.take_pending();
                let raised = Interrupt {
                    run_id: run_id.clone(),
                    call_id: call_id.to_owned(),
                    index,
                    module: module.to_owned(),
                    function: function.to_owned(),
                    payload: payload.to_string(),
                    created_ns: 0,
                    answer: None,
                };
                if let Err(e) = ws.interrupts().raise(&raised, &rows) {
                    j.restore_pending(rows);
                    return Err(HostError::RaiseInterrupt(e));
                }
                Ok(None)
            }
        }
    }

    fn mark_unsafe(&self, _call_id: &str) -> Result<(), HostError> {
        let mut j = journal::lock(&self.journal);
        let row = Journal::entry(
            self.seq,
            EntryKind::Module,
            &self.target,
            self.hash,
            EntryStatus::Unsafe,
            None,
        );
        j.record(row).map_err(HostError::Store)?;
        j.flush_all().map_err(HostError::Store)
    }
}

/// A payload for an error message: at most 200 characters of it.
fn short(text: &str) -> String {
    match text.char_indices().nth(200) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_owned(),
    }
}

/// The stored form of an answer: `{"approved": V}` or
/// `{"rejected": REASON, "value": V}`.
pub(crate) fn answer_json(a: &Answer) -> String {
    match a {
        Answer::Approved(v) => serde_json::json!({ "approved": v }).to_string(),
        Answer::Rejected { reason, value } => {
            serde_json::json!({ "rejected": reason, "value": value }).to_string()
        }
    }
}

fn parse_answer(text: &str) -> Result<Answer, HostError> {
    let v: Value = serde_json::from_str(text).map_err(HostError::Answer)?;
    if let Some(reason) = v.get("rejected") {
        return Ok(Answer::Rejected {
            reason: reason.as_str().unwrap_or_default().to_owned(),
            value: v.get("value").filter(|v| !v.is_null()).cloned(),
        });
    }
    Ok(Answer::Approved(
        v.get("approved").cloned().unwrap_or(Value::Null),
    ))
}

/// A read on `ws` (the run's workspace) through the journal `j`: replayed,
/// or executed and recorded with the next transaction.
pub(crate) fn journalled_read<T: Serialize + DeserializeOwned>(
    ws: &Arc<Workspace>,
    j: &SharedJournal,
    name: &'static str,
    hash: store::ArgsDigest,
    op: impl FnOnce(&Workspace) -> Result<T, FsError>,
) -> Result<Result<T, FsError>, HostError> {
    let step = journal::lock(j).step(EntryKind::Fs, name, hash);
    let seq = match step? {
        Step::Replay(bytes) => return decode(&bytes, name),
        Step::Fresh(seq) | Step::Repeat(seq) | Step::Unsafe(seq) => seq,
    };
    let out = op(ws);
    let row = Journal::entry(
        seq,
        EntryKind::Fs,
        name,
        hash,
        EntryStatus::Done,
        Some(encode(&out)),
    );
    let recorded = journal::lock(j).record(row);
    recorded.map_err(HostError::Journal)?;
    Ok(out)
}

/// Reads at least this long are journalled as chunk pieces, not bytes.
const PIECES_FROM: usize = 64 << 10;

/// How a read's bytes are recorded.
#[derive(serde::Deserialize)]
enum Recorded {
    Inline(Vec<u8>),
    Pieces(Vec<store::ChunkPiece>),
}

/// `Recorded` without copying the bytes (postcard encodes both alike).
#[derive(Serialize)]
enum RecordedRef<'a> {
    Inline(&'a [u8]),
    Pieces(&'a [store::ChunkPiece]),
}

/// A read of file bytes through the journal `j`. A large read's row keeps
/// the pieces of content chunks the bytes came from (pinned with the row
/// until the run's journal is dropped) instead of a copy, so a durable run
/// that reads a 1 GiB file does not write 1 GiB of journal. A replay reads
/// the pieces back.
pub(crate) fn journalled_bytes(
    ws: &Arc<Workspace>,
    j: &SharedJournal,
    name: &'static str,
    hash: store::ArgsDigest,
    op: impl FnOnce(&Workspace) -> Result<(Vec<u8>, Vec<store::ChunkPiece>), FsError>,
) -> Result<Result<Vec<u8>, FsError>, HostError> {
    let step = journal::lock(j).step(EntryKind::Fs, name, hash);
    let seq = match step? {
        Step::Replay(bytes) => {
            return match decode::<Result<Recorded, FsError>>(&bytes, name)? {
                Ok(Recorded::Inline(data)) => Ok(Ok(data)),
                Ok(Recorded::Pieces(pieces)) => {
                    ws.read_pieces(&pieces).map(Ok).map_err(HostError::Store)
                }
                Err(e) => Ok(Err(e)),
            };
        }
        Step::Fresh(seq) | Step::Repeat(seq) | Step::Unsafe(seq) => seq,
    };
    let (out, result, pins, fallback) = match op(ws) {
        Ok((data, pieces)) if data.len() >= PIECES_FROM => {
            let result = encode(&Ok::<_, FsError>(RecordedRef::Pieces(&pieces)));
            let fallback = encode(&Ok::<_, FsError>(RecordedRef::Inline(&data)));
            let pins = pieces.iter().map(|p| p.chunk).collect();
            (Ok(data), result, pins, Some(fallback))
        }
        Ok((data, _)) => {
            let result = encode(&Ok::<_, FsError>(RecordedRef::Inline(&data)));
            (Ok(data), result, Vec::new(), None)
        }
        Err(e) => {
            let result = encode(&Err::<RecordedRef<'_>, _>(&e));
            (Err(e), result, Vec::new(), None)
        }
    };
    let mut row = Journal::entry(
        seq,
        EntryKind::Fs,
        name,
        hash,
        EntryStatus::Done,
        Some(result),
    );
    row.pins = pins;
    row.fallback = fallback;
    let recorded = journal::lock(j).record(row);
    recorded.map_err(HostError::Journal)?;
    Ok(out)
}

/// A mutation of `ws` through the journal `j`: replayed, or executed with
/// its journal row (and the queued ones) committing in the same transaction.
pub(crate) fn journalled_mutation<T: Serialize + DeserializeOwned>(
    ws: &Arc<Workspace>,
    j: &SharedJournal,
    name: &'static str,
    hash: store::ArgsDigest,
    encode_ok: store::ResultEncoder,
    op: impl FnOnce(&Workspace) -> Result<T, FsError>,
) -> Result<Result<T, FsError>, HostError> {
    let step = journal::lock(j).step(EntryKind::Fs, name, hash);
    let seq = match step? {
        Step::Replay(bytes) => return decode(&bytes, name),
        Step::Fresh(seq) | Step::Repeat(seq) | Step::Unsafe(seq) => seq,
    };
    let (rows, run_id) = {
        let mut j = journal::lock(j);
        (j.take_pending(), j.run_id.clone())
    };
    let row = Journal::entry(seq, EntryKind::Fs, name, hash, EntryStatus::Done, None);
    let ws = ws.clone();
    let mut result = None;
    let (_, left) = ws
        .journal()
        .commit_with(&run_id, rows, Some((row, encode_ok)), || {
            let r = op(&ws);
            let status = match &r {
                Ok(_) => Ok(()),
                Err(e) => Err(store::FsError::custom(
                    store::Errno::EIO,
                    e.path.clone(),
                    e.message.clone(),
                )),
            };
            result = Some(r);
            status
        });
    let out = result.expect("the operation ran");
    if ws.is_fenced(&run_id) {
        // Another process took the run over: the change was not made, and
        // the guest must not go on as if it had been.
        let why = match &out {
            Err(e) => e.message.clone(),
            Ok(_) => format!("run {run_id} was taken over by another process"),
        };
        return Err(HostError::Fenced(why));
    }
    if let Some(rows) = left {
        // Nothing committed: a failure, or a call with nothing to change.
        let mut j = journal::lock(j);
        j.restore_pending(rows);
        let row = Journal::entry(
            seq,
            EntryKind::Fs,
            name,
            hash,
            EntryStatus::Done,
            Some(encode(&out)),
        );
        let recorded = j.record(row);
        drop(j);
        recorded.map_err(HostError::Journal)?;
    }
    Ok(out)
}
