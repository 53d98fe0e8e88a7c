//! Host modules written as Rust `async` functions.
//!
//! Runs call modules from their own (blocking) thread; an `AsyncModule`
//! drives each call's future to completion on a tokio runtime it shares
//! with every other async module of the process, so the functions can use
//! tokio-based clients (HTTP, databases) as they would anywhere else.

use std::collections::BTreeMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, OnceLock};

use serde_json::Value;

use crate::host::modules::{FunctionInfo, HostModule, ModuleCallError};
use crate::modules::call_context::CallContext;

/// The future an async module function returns; it may borrow the call's context.
pub type ModuleFuture<'a> =
    Pin<Box<dyn Future<Output = Result<Value, ModuleCallError>> + Send + 'a>>;

type Function = Arc<dyn for<'a> Fn(Value, &'a mut CallContext) -> ModuleFuture<'a> + Send + Sync>;

/// A module whose functions are async Rust functions:
///
/// ```no_run
/// # use computer_runtime::{AsyncModule, FunctionInfo, CallContext, ModuleCallError, ModuleFuture};
/// # use serde_json::{Value, json};
/// fn post_comment(args: Value, ctx: &mut CallContext) -> ModuleFuture<'_> {
///     Box::pin(async move {
///         let answer = ctx.interrupt(json!({ "body": args[1] }))?;
///         // ... send it, with ctx.call_id() as the idempotency key ...
///         Ok(json!({ "approved": answer }))
///     })
/// }
/// let module = AsyncModule::new().function(
///     FunctionInfo { name: "post-comment".into(), params: vec![], result: None, docs: String::new() },
///     post_comment,
/// );
/// ```
#[derive(Default, Clone)]
pub struct AsyncModule {
    functions: BTreeMap<String, (FunctionInfo, Function)>,
}

fn shared_runtime() -> Result<&'static tokio::runtime::Runtime, ModuleCallError> {
    static RT: OnceLock<Result<tokio::runtime::Runtime, String>> = OnceLock::new();
    RT.get_or_init(|| {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_name("computer-modules")
            .enable_all()
            .build()
            .map_err(|e| e.to_string())
    })
    .as_ref()
    .map_err(|e| ModuleCallError::Failed(format!("cannot start the modules' async runtime: {e}")))
}

impl AsyncModule {
    /// A module with no functions yet; add them with `function`.
    pub fn new() -> Self {
        AsyncModule::default()
    }

    /// Adds (or replaces) function `info.name` (kebab-case).
    pub fn function<F>(mut self, info: FunctionInfo, f: F) -> Self
    where
        F: for<'a> Fn(Value, &'a mut CallContext) -> ModuleFuture<'a> + Send + Sync + 'static,
    {
        self.functions
            .insert(info.name.clone(), (info, Arc::new(f)));
        self
    }
}

impl HostModule for AsyncModule {
    fn functions(&self) -> Vec<FunctionInfo> {
        self.functions
            .values()
            .map(|(info, _)| info.clone())
            .collect()
    }

    fn call(
        &self,
        function: &str,
        args: Value,
        ctx: &mut CallContext,
    ) -> Result<Value, ModuleCallError> {
        let Some((_, f)) = self.functions.get(function) else {
            return Err(ModuleCallError::NotFound(format!("no function {function}")));
        };
        let rt = shared_runtime()?;
        rt.block_on(f(args, ctx))
    }
}
