//! `CallContext`: what a module function knows about the call it is
//! executing, and how it asks the application for an answer (approvals).
//!
//! Host modules get it as an argument; module components get the same
//! through the `call-context` and `interrupt` imports, backed by this type.

use std::sync::Arc;

use serde_json::Value;

use crate::host::error::HostError;
use crate::host::modules::ModuleCallError;

/// Where answers to interrupts come from and where new ones are parked.
/// Implemented by the durable-run journal; a detached context has none.
pub(crate) trait InterruptSource: Send + Sync {
    /// The answer to interrupt number `index` (0-based) of call `call_id`,
    /// or `None` after recording it as pending with `payload`.
    fn answer_or_park(
        &self,
        call_id: &str,
        index: u32,
        module: &str,
        function: &str,
        payload: &Value,
    ) -> Result<Option<Answer>, HostError>;
    /// Records that the call passed `unsafe_to_repeat`.
    fn mark_unsafe(&self, call_id: &str) -> Result<(), HostError>;
}

/// The application's answer to an interrupt.
#[derive(Debug, Clone, PartialEq)]
pub enum Answer {
    /// Go ahead: [`CallContext::interrupt`] returns this value.
    Approved(Value),
    /// No: [`CallContext::interrupt`] returns
    /// [`ModuleCallError::Rejected`] with `reason`, which JavaScript sees
    /// as a thrown Error.
    Rejected {
        /// Why, for the agent.
        reason: String,
        /// Anything else the module may read, through
        /// [`CallContext::interrupt_answer`].
        value: Option<Value>,
    },
}

/// The context of one module call. Stable across replays: the same call
/// made again after an interrupt, crash or restart gets the same `call_id`
/// and sees the answers already given.
pub struct CallContext {
    call_id: String,
    module: String,
    function: String,
    config: Arc<Vec<(String, String)>>,
    source: Option<Arc<dyn InterruptSource>>,
    next_interrupt: u32,
    unsafe_marked: bool,
    parked: bool,
    /// The calling run's workspace: its network allow-list applies to
    /// the module's HTTP requests too.
    workspace: Option<Arc<computer_store::Workspace>>,
}

impl CallContext {
    /// A context not attached to a durable run: `interrupt` fails. For
    /// tests of modules and for ephemeral runs.
    pub fn detached(call_id: impl Into<String>, module: &str, function: &str) -> Self {
        CallContext {
            call_id: call_id.into(),
            module: module.to_owned(),
            function: function.to_owned(),
            config: Arc::new(Vec::new()),
            source: None,
            next_interrupt: 0,
            unsafe_marked: false,
            parked: false,
            workspace: None,
        }
    }

    pub(crate) fn attached(
        call_id: String,
        module: &str,
        function: &str,
        source: Arc<dyn InterruptSource>,
    ) -> Self {
        CallContext {
            source: Some(source),
            ..CallContext::detached(call_id, module, function)
        }
    }

    /// For tests of modules: a context attached to a fake journal in which
    /// interrupt number `i` of the call has the answer `answers[i]`; an
    /// interrupt past the end parks the call (`ModuleCallError::Parked`).
    #[doc(hidden)]
    pub fn with_answers(
        call_id: impl Into<String>,
        module: &str,
        function: &str,
        answers: Vec<Answer>,
    ) -> Self {
        struct Fake(Vec<Answer>);
        impl InterruptSource for Fake {
            fn answer_or_park(
                &self,
                _call_id: &str,
                index: u32,
                _module: &str,
                _function: &str,
                _payload: &Value,
            ) -> Result<Option<Answer>, HostError> {
                Ok(self.0.get(index as usize).cloned())
            }
            fn mark_unsafe(&self, _call_id: &str) -> Result<(), HostError> {
                Ok(())
            }
        }
        CallContext::attached(call_id.into(), module, function, Arc::new(Fake(answers)))
    }

    /// The calling run's workspace (its network allow-list applies).
    pub(crate) fn set_workspace(&mut self, ws: Arc<computer_store::Workspace>) {
        self.workspace = Some(ws);
    }

    pub(crate) fn workspace(&self) -> Option<Arc<computer_store::Workspace>> {
        self.workspace.clone()
    }

    /// The module's configuration (registration order).
    pub fn with_config(mut self, config: Arc<Vec<(String, String)>>) -> Self {
        self.config = config;
        self
    }

    /// Stable across every replay of this call: use it as the idempotency
    /// key towards external systems.
    pub fn call_id(&self) -> &str {
        &self.call_id
    }

    /// `ws:NAME` of the module being called, without `ws:`.
    pub fn module(&self) -> &str {
        &self.module
    }

    /// kebab-case name of the function being called.
    pub fn function(&self) -> &str {
        &self.function
    }

    /// The module's settings (`computer modules add --config K=V`), in
    /// registration order; empty for a host module.
    pub fn config(&self) -> &[(String, String)] {
        &self.config
    }

    /// Asks the application to answer `payload`. Returns the answer when
    /// there is one. The first time, the run is parked: this returns
    /// `Err(ModuleCallError::Parked)`, which the function must return as
    /// it is (`?`); the run stops and is re-run from the start once the
    /// application responds. A refusal is `Err(ModuleCallError::Rejected)`.
    pub fn interrupt(&mut self, payload: Value) -> Result<Value, ModuleCallError> {
        match self.interrupt_answer(payload)? {
            Answer::Approved(v) => Ok(v),
            Answer::Rejected { reason, .. } => Err(ModuleCallError::Rejected(reason)),
        }
    }

    /// The same as [`CallContext::interrupt`], keeping the rejection's
    /// value: a refusal is `Ok(Answer::Rejected { .. })`.
    pub fn interrupt_answer(&mut self, payload: Value) -> Result<Answer, ModuleCallError> {
        if self.unsafe_marked {
            return Err(ModuleCallError::Failed(format!(
                "ws:{}.{} asked for an interrupt after unsafe_to_repeat; ask before the unrepeatable effect",
                self.module, self.function
            )));
        }
        let Some(source) = &self.source else {
            return Err(ModuleCallError::Failed(format!(
                "ws:{}.{} needs an approval, but this run is not durable; run it with on_interrupt \"replay\"",
                self.module, self.function
            )));
        };
        let index = self.next_interrupt;
        self.next_interrupt += 1;
        match source.answer_or_park(&self.call_id, index, &self.module, &self.function, &payload)? {
            Some(answer) => Ok(answer),
            None => {
                self.parked = true;
                Err(ModuleCallError::Parked)
            }
        }
    }

    /// From now on this call must never execute twice: if the run stops
    /// before the call's result is recorded, replay fails the call with
    /// `MayHaveTakenEffect` instead of running it again.
    pub fn unsafe_to_repeat(&mut self) -> Result<(), ModuleCallError> {
        if self.unsafe_marked {
            return Ok(());
        }
        if let Some(source) = &self.source {
            source.mark_unsafe(&self.call_id)?;
        }
        self.unsafe_marked = true;
        Ok(())
    }

    /// Whether an interrupt parked the run during this call.
    pub fn parked(&self) -> bool {
        self.parked
    }
}
