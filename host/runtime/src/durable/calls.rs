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
use crate::durable::journal::{self, Journal, SharedJournal, Step};
use crate::modules::call_context::{Answer, InterruptSource};
use crate::run::state::{RunState, Stop};

type FsResult<T> = wasmtime::Result<Result<T, FsError>>;

/// Encodes a call's result for the journal.
pub(crate) fn encode<T: Serialize + ?Sized>(v: &T) -> Vec<u8> {
    postcard::to_stdvec(v).expect("journal results always encode")
}

fn decode<T: DeserializeOwned>(bytes: &[u8], what: &str) -> wasmtime::Result<T> {
    postcard::from_bytes(bytes).map_err(|e| {
        wasmtime::Error::msg(format!(
            "the journal's record of {what} cannot be read ({e}); was the workspace written by another version?"
        ))
    })
}

/// The encoder of a mutation whose result is `()`.
pub(crate) fn unit_ok() -> store::ResultEncoder {
    Box::new(|_: &dyn Any| encode(&Ok::<(), FsError>(())))
}

impl RunState {
    fn stop_with(&mut self, stop: Stop, msg: String) -> wasmtime::Error {
        self.stop = Some(stop);
        wasmtime::Error::msg(msg)
    }

    fn journal_failure(&mut self, e: store::FsError) -> wasmtime::Error {
        self.stop_with(
            Stop::Journal,
            format!("cannot write the run's journal: {e}"),
        )
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
        let step = journal::lock(&j).step(EntryKind::Fs, name, hash);
        match step {
            Err(msg) => Err(self.stop_with(Stop::Diverged, msg)),
            Ok(Step::Replay(bytes)) => decode(&bytes, name),
            Ok(Step::Fresh(seq) | Step::Repeat(seq) | Step::Unsafe(seq)) => {
                let out = op(&self.workspace);
                let row = Journal::entry(
                    seq,
                    EntryKind::Fs,
                    name,
                    hash,
                    EntryStatus::Done,
                    Some(encode(&out)),
                );
                let recorded = journal::lock(&j).record(row);
                recorded.map_err(|e| self.journal_failure(e))?;
                Ok(out)
            }
        }
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
        let step = journal::lock(&j).step(EntryKind::Fs, name, hash);
        let seq = match step {
            Err(msg) => return Err(self.stop_with(Stop::Diverged, msg)),
            Ok(Step::Replay(bytes)) => return decode(&bytes, name),
            Ok(Step::Fresh(seq) | Step::Repeat(seq) | Step::Unsafe(seq)) => seq,
        };
        let (rows, run_id) = {
            let mut j = journal::lock(&j);
            (j.take_pending(), j.run_id.clone())
        };
        let row = Journal::entry(seq, EntryKind::Fs, name, hash, EntryStatus::Done, None);
        let ws = self.workspace.clone();
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
        if let Some(rows) = left {
            // Nothing committed: a failure, or a call with nothing to change.
            let mut j = journal::lock(&j);
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
            recorded.map_err(|e| self.journal_failure(e))?;
        }
        Ok(out)
    }

    /// A module call, journalled: a recorded result is returned as it is;
    /// otherwise the call is recorded as started (committed before it runs,
    /// as it may reach the outside world), executed with a context whose
    /// `call_id` is stable across replays, and its result committed.
    pub(crate) fn module_call(
        &mut self,
        target: &str,
        hash: i64,
        call: impl FnOnce(
            &mut crate::CallContext,
        ) -> Result<String, crate::bindings::modules::ModuleError>,
        module: &str,
        function: &str,
    ) -> wasmtime::Result<Result<String, crate::bindings::modules::ModuleError>> {
        use crate::bindings::modules::ModuleError;
        let Some(j) = self.journal.clone() else {
            let mut ctx = crate::CallContext::detached(String::new(), module, function);
            return Ok(call(&mut ctx));
        };
        let step = journal::lock(&j).step(EntryKind::Module, target, hash);
        let (seq, fresh) = match step {
            Err(msg) => return Err(self.stop_with(Stop::Diverged, msg)),
            Ok(Step::Replay(bytes)) => return decode(&bytes, target),
            Ok(Step::Unsafe(seq)) => {
                let call_id = call_id(&journal::lock(&j).run_id, seq);
                let out: Result<String, ModuleError> = Err(ModuleError::MayHaveTakenEffect(
                    format!(
                        "{target} (call {call_id}) passed unsafe_to_repeat and the run stopped before its result was recorded: \
                     it may have taken effect, so it was not repeated"
                    ),
                ));
                self.commit_call(&j, seq, target, hash, &out)?;
                return Ok(out);
            }
            Ok(Step::Fresh(seq)) => (seq, true),
            Ok(Step::Repeat(seq)) => (seq, false),
        };
        let run_id = {
            let mut jl = journal::lock(&j);
            if fresh {
                let row = Journal::entry(
                    seq,
                    EntryKind::Module,
                    target,
                    hash,
                    EntryStatus::Started,
                    None,
                );
                jl.record(row).map_err(|e| self.journal_failure(e))?;
            }
            // The call may reach the outside world: everything before it commits first.
            jl.flush_all().map_err(|e| self.journal_failure(e))?;
            jl.run_id.clone()
        };
        let source: Arc<dyn InterruptSource> = Arc::new(DurableCall {
            journal: j.clone(),
            seq,
            target: target.to_owned(),
            hash,
        });
        let mut ctx = crate::CallContext::attached(call_id(&run_id, seq), module, function, source);
        let out = call(&mut ctx);
        if ctx.parked() {
            return Err(self.stop_with(Stop::Parked, "the run is waiting for an answer".into()));
        }
        self.commit_call(&j, seq, target, hash, &out)?;
        Ok(out)
    }

    fn commit_call<T: Serialize>(
        &mut self,
        j: &SharedJournal,
        seq: u64,
        target: &str,
        hash: i64,
        out: &T,
    ) -> wasmtime::Result<()> {
        let mut jl = journal::lock(j);
        let row = Journal::entry(
            seq,
            EntryKind::Module,
            target,
            hash,
            EntryStatus::Done,
            Some(encode(out)),
        );
        let r = jl.record(row).and_then(|_| jl.flush_all());
        drop(jl);
        r.map_err(|e| self.journal_failure(e))
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
    hash: i64,
}

impl InterruptSource for DurableCall {
    fn answer_or_park(
        &self,
        call_id: &str,
        index: u32,
        module: &str,
        function: &str,
        payload: &Value,
    ) -> Result<Option<Answer>, String> {
        let mut j = journal::lock(&self.journal);
        let ws = j.ws.clone();
        let run_id = j.run_id.clone();
        match ws
            .interrupts()
            .get(&run_id, call_id, index)
            .map_err(|e| e.to_string())?
        {
            Some(i) => match i.answer {
                Some(text) => parse_answer(&text).map(Some),
                None => Ok(None),
            },
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
                    return Err(format!("cannot record the interrupt: {e}"));
                }
                Ok(None)
            }
        }
    }

    fn mark_unsafe(&self, _call_id: &str) -> Result<(), String> {
        let mut j = journal::lock(&self.journal);
        let row = Journal::entry(
            self.seq,
            EntryKind::Module,
            &self.target,
            self.hash,
            EntryStatus::Unsafe,
            None,
        );
        j.record(row).map_err(|e| e.to_string())?;
        j.flush_all().map_err(|e| e.to_string())
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

fn parse_answer(text: &str) -> Result<Answer, String> {
    let v: Value =
        serde_json::from_str(text).map_err(|e| format!("stored answer is not JSON: {e}"))?;
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
