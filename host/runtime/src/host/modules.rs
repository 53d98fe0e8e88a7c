//! `ws:NAME` modules as guests see them through `computer:workspace/modules`.
//! Here: Rust host modules registered by the embedder. Module components
//! and durable call contexts build on this registry.

use std::collections::BTreeMap;
use std::sync::{Arc, RwLock};

use serde_json::Value;

use crate::bindings::modules::{self, ModuleError};
use crate::modules::call_context::CallContext;
use crate::run::state::RunState;

/// A function a module exports, as guests list it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FunctionInfo {
    /// kebab-case name, e.g. `post-comment`.
    pub name: String,
    /// Its positional parameters, in order.
    pub params: Vec<ParamInfo>,
    /// Description of the result type, if there is one.
    pub result: Option<String>,
    /// What it does, for the agent that lists the module's functions.
    pub docs: String,
}

/// One parameter of a [`FunctionInfo`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParamInfo {
    /// Its name (documentation only: calls pass arguments by position).
    pub name: String,
    /// Its type in words (`u32`, `string`, a WIT type).
    pub type_desc: String,
}

/// Why a module call failed, as the guest sees it: JavaScript gets a
/// thrown `Error` with this message and `code` set to the variant's
/// kebab-case name (`rejected`, `may-have-taken-effect`, ...).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ModuleCallError {
    /// No such module or function.
    #[error("{0}")]
    NotFound(String),
    /// The arguments do not fit the function's parameters.
    #[error("{0}")]
    BadArguments(String),
    /// The application refused an interrupt; the reason it gave.
    #[error("{0}")]
    Rejected(String),
    /// The function failed; why.
    #[error("{0}")]
    Failed(String),
    /// A replay reached a call that passed
    /// [`CallContext::unsafe_to_repeat`] with no recorded result: it is
    /// not run again, since it may already have had its effect.
    #[error("{0}")]
    MayHaveTakenEffect(String),
    /// The function returned an error value (JSON).
    #[error("{0}")]
    ErrorValue(Value),
    /// An interrupt parked the run (see [`CallContext::interrupt`]). Module
    /// code returns it unchanged; the guest never sees it.
    #[error("the run is waiting for an answer")]
    Parked,
}

/// A module: implemented in Rust by the embedding application, or a
/// module component loaded by the host.
pub trait HostModule: Send + Sync {
    /// The functions guests may call (the registry refuses others before
    /// [`call`](Self::call) sees them). JavaScript imports each under its
    /// camelCase name.
    fn functions(&self) -> Vec<FunctionInfo>;
    /// `args` is the JSON array of positional arguments. `ctx` identifies
    /// the call (`call_id`, stable across replays) and asks for approvals.
    fn call(
        &self,
        function: &str,
        args: Value,
        ctx: &mut CallContext,
    ) -> Result<Value, ModuleCallError>;
}

/// The `ws:` modules registered with a runtime ([`Runtime::modules`](crate::Runtime::modules)),
/// by name without `ws:`. Modules live in the process: each process that
/// runs or resumes runs registers them again.
#[derive(Default)]
pub struct ModuleRegistry {
    modules: RwLock<BTreeMap<String, Arc<dyn HostModule>>>,
}

/// Checks `ws:NAME` and returns NAME.
pub fn parse_module_name(name: &str) -> Result<&str, String> {
    let bare = name
        .strip_prefix("ws:")
        .ok_or_else(|| format!("module name {name:?} must start with ws:"))?;
    let mut bytes = bare.bytes();
    let first_ok = bytes.next().is_some_and(|b| b.is_ascii_alphanumeric());
    let rest_ok = bytes.all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'));
    if first_ok && rest_ok {
        Ok(bare)
    } else {
        Err(format!(
            "module name {name:?} must match ^ws:[A-Za-z0-9][A-Za-z0-9._-]*$"
        ))
    }
}

impl ModuleRegistry {
    /// Registers a host module under `ws:NAME`, in place of one of that
    /// name, for every run started after this. A name that is not
    /// `ws:` and `[A-Za-z0-9][A-Za-z0-9._-]*` is refused, with the rule.
    pub fn register(&self, name: &str, module: Arc<dyn HostModule>) -> Result<(), String> {
        let bare = parse_module_name(name)?.to_owned();
        self.modules
            .write()
            .unwrap_or_else(|p| p.into_inner())
            .insert(bare, module);
        Ok(())
    }

    /// Registered names, with the `ws:` prefix.
    pub fn names(&self) -> Vec<String> {
        self.modules
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .keys()
            .map(|k| format!("ws:{k}"))
            .collect()
    }

    fn get(&self, bare: &str) -> Option<Arc<dyn HostModule>> {
        let bare = bare.strip_prefix("ws:").unwrap_or(bare);
        self.modules
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .get(bare)
            .cloned()
    }

    /// Calls `function` of `module` (with or without `ws:`) as a guest
    /// would: unknown names and non-array `args` are errors that name the
    /// alternatives. For tests of modules and for hosts that call them.
    pub fn call(
        &self,
        module: &str,
        function: &str,
        args: Value,
        ctx: &mut CallContext,
    ) -> Result<Value, ModuleCallError> {
        let m = self
            .get(module)
            .ok_or_else(|| ModuleCallError::NotFound(format!("no module ws:{module}")))?;
        if !m.functions().iter().any(|f| f.name == function) {
            let names: Vec<String> = m.functions().into_iter().map(|f| f.name).collect();
            return Err(ModuleCallError::NotFound(format!(
                "module ws:{module} has no function {function}; it exports: {}",
                names.join(", ")
            )));
        }
        if !args.is_array() {
            return Err(ModuleCallError::BadArguments(format!(
                "arguments to ws:{module}.{function} must be a JSON array"
            )));
        }
        m.call(function, args, ctx)
    }
}

/// A module call's error as the guest's `module-error`.
impl From<ModuleCallError> for ModuleError {
    fn from(e: ModuleCallError) -> Self {
        match e {
            ModuleCallError::NotFound(s) => ModuleError::NotFound(s),
            ModuleCallError::BadArguments(s) => ModuleError::BadArguments(s),
            ModuleCallError::Rejected(s) => ModuleError::Rejected(s),
            ModuleCallError::Failed(s) => ModuleError::Failed(s),
            ModuleCallError::MayHaveTakenEffect(s) => ModuleError::MayHaveTakenEffect(s),
            ModuleCallError::ErrorValue(v) => ModuleError::ErrorValue(v.to_string()),
            // The host stops the guest before it could see this.
            ModuleCallError::Parked => {
                ModuleError::Failed("the run is waiting for an answer".into())
            }
        }
    }
}

impl modules::Host for RunState {
    fn list_modules(&mut self) -> wasmtime::Result<Vec<String>> {
        Ok(self
            .modules
            .names()
            .into_iter()
            .map(|n| n.trim_start_matches("ws:").to_owned())
            .collect())
    }

    fn list_functions(
        &mut self,
        module: String,
    ) -> wasmtime::Result<Result<Vec<modules::FunctionInfo>, ModuleError>> {
        let Some(m) = self.modules.get(&module) else {
            return Ok(Err(ModuleError::NotFound(format!(
                "no module ws:{}",
                module.trim_start_matches("ws:")
            ))));
        };
        Ok(Ok(m
            .functions()
            .into_iter()
            .map(|f| modules::FunctionInfo {
                name: f.name,
                params: f
                    .params
                    .into_iter()
                    .map(|p| modules::ParamInfo {
                        name: p.name,
                        type_desc: p.type_desc,
                    })
                    .collect(),
                result: f.result,
                docs: f.docs,
            })
            .collect()))
    }

    fn call(
        &mut self,
        module: String,
        function: String,
        args_json: String,
    ) -> wasmtime::Result<Result<String, ModuleError>> {
        self.wasi_fs.hand_over()?;
        let args: Value = match serde_json::from_str(&args_json) {
            Ok(v) => v,
            Err(e) => {
                return Ok(Err(ModuleError::BadArguments(format!(
                    "arguments to ws:{module}.{function} are not valid JSON: {e}"
                ))));
            }
        };
        let bare = module.trim_start_matches("ws:").to_owned();
        let target = format!("ws:{bare}.{function}");
        let hash = crate::durable::journal::args_hash(&[target.as_bytes(), args_json.as_bytes()]);
        let modules = self.modules.clone();
        let workspace = self.workspace.clone();
        let call = |ctx: &mut CallContext| {
            ctx.set_workspace(workspace.clone());
            let started = std::time::Instant::now();
            let result = modules.call(&module, &function, args, ctx);
            let (outcome, error) = match &result {
                Ok(_) => ("ok", None),
                Err(ModuleCallError::Parked) => ("waiting", None),
                Err(ModuleCallError::Rejected(m)) => ("denied", Some(m.clone())),
                Err(e) => ("error", Some(e.to_string())),
            };
            let audit_args = serde_json::json!({
                "args": computer_store::summarize_text(&args_json),
                "call_id": ctx.call_id(),
            });
            workspace.audit().event(
                "module_call",
                &target,
                Some(audit_args),
                outcome,
                error.as_deref(),
                started.elapsed(),
            );
            result.map(|v| v.to_string()).map_err(ModuleError::from)
        };
        self.module_call(&target, hash, call, &bare, &function)
    }
}
