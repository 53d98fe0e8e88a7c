//! Module components: a wasm component of the `module` world that exports
//! one interface, served to guests as a `ws:NAME` module.
//!
//! Loading compiles the component (through the on-disk cache), reads the
//! exported interface's function types and pre-instantiates it once. Each
//! call then gets a fresh instance in its own `Store`, with the caller's
//! [`CallContext`] moved in for the duration of the call (and moved back
//! afterwards, also when the call traps), a timeout and a memory limit.
//! Arguments and results cross as JSON (`component_json`).
//!
//! The imports a module gets: `call-context` and `interrupt` (backed by the
//! `CallContext`), clocks, random, stdout/stderr (to the host log, through
//! `tracing`), and `wasi:http/outgoing-handler` limited to the hosts allowed
//! for the module (`modules::http`). The rest of WASI 0.2 is linked so that
//! what a toolchain's standard library imports resolves, with no
//! environment, no preopened directories and no sockets.

mod call;
mod exports;
mod log;
mod state;

use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;
use wasmtime::Engine;
use wasmtime::component::{ComponentExportIndex, InstancePre, Type};

use crate::Runtime;
use crate::engine::component_cache;
use crate::error::{ExecError, one_line};
use crate::host::modules::{FunctionInfo, HostModule, ModuleCallError};
use crate::modules::call_context::CallContext;
use computer_store::AllowList;
use state::ModuleState;

/// Limits on each call of a module component.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModuleLimits {
    /// Wall-clock time of one call, including its HTTP requests.
    pub timeout: Duration,
    /// Linear memory the module may grow to during one call.
    pub memory_bytes: usize,
}

impl Default for ModuleLimits {
    fn default() -> Self {
        ModuleLimits {
            timeout: Duration::from_secs(30),
            memory_bytes: 128 << 20,
        }
    }
}

/// One exported function, ready to call.
struct Func {
    info: FunctionInfo,
    params: Vec<(String, Type)>,
    result: Option<Type>,
    index: ComponentExportIndex,
}

struct Inner {
    /// `ws:NAME`.
    name: Arc<str>,
    engine: Engine,
    pre: InstancePre<ModuleState>,
    /// The exported interface, e.g. `acme:github/github`.
    interface: String,
    funcs: Vec<Func>,
    config: Arc<Vec<(String, String)>>,
    allow: Arc<AllowList>,
}

/// A module component, loaded and pre-instantiated. Cheap to clone.
#[derive(Clone)]
pub struct ComponentModule {
    inner: Arc<Inner>,
    limits: ModuleLimits,
}

fn bad(name: &str, reason: impl Into<String>) -> ExecError {
    ExecError::BadModule {
        name: name.to_owned(),
        reason: reason.into(),
    }
}

impl ComponentModule {
    /// Loads `bytes`, a component of the `module` world, as module `name`
    /// (`ws:NAME`). `config` is what `call-context.config` returns;
    /// `allow_hosts` are the hosts its HTTP requests may reach (`host` or
    /// `host:port`; none means no network).
    pub fn load(
        runtime: &Runtime,
        name: &str,
        bytes: &[u8],
        config: Vec<(String, String)>,
        allow_hosts: Vec<String>,
    ) -> Result<ComponentModule, ExecError> {
        let bare = crate::host::modules::parse_module_name(name).map_err(|e| bad(name, e))?;
        let name = format!("ws:{bare}");
        let allow = AllowList::parse(&allow_hosts).map_err(|e| bad(&name, e))?;
        let engine = runtime.inner.engine.clone();
        let component = component_cache::load(
            &engine,
            &name,
            bytes,
            &runtime.inner.cache_dir,
            runtime.inner.config.on_compile.as_ref(),
        )
        .map_err(|e| match e {
            ExecError::BadGuest { reason, .. } => bad(&name, reason),
            other => other,
        })?;
        let (interface, funcs) = exports::read_exports(&engine, &component, &name)?;
        let linker = state::linker(&engine)?;
        let pre = linker.instantiate_pre(&component).map_err(|e| {
            bad(
                &name,
                format!(
                    "it imports something modules do not get (modules get call-context, interrupt, clocks, random, stdout/stderr and wasi:http): {}",
                    one_line(&e)
                ),
            )
        })?;
        Ok(ComponentModule {
            inner: Arc::new(Inner {
                name: name.into(),
                engine,
                pre,
                interface,
                funcs,
                config: Arc::new(config),
                allow: Arc::new(allow),
            }),
            limits: ModuleLimits::default(),
        })
    }

    /// The same module with other per-call limits.
    pub fn with_limits(mut self, limits: ModuleLimits) -> Self {
        self.limits = limits;
        self
    }

    /// `ws:NAME`.
    pub fn name(&self) -> &str {
        &self.inner.name
    }

    /// The exported interface's name, e.g. `acme:github/github`.
    pub fn interface(&self) -> &str {
        &self.inner.interface
    }

    fn func(&self, function: &str) -> Result<&Func, ModuleCallError> {
        self.inner
            .funcs
            .iter()
            .find(|f| f.info.name == function)
            .ok_or_else(|| {
                let names: Vec<&str> = self
                    .inner
                    .funcs
                    .iter()
                    .map(|f| f.info.name.as_str())
                    .collect();
                ModuleCallError::NotFound(format!(
                    "module {} has no function {function}; it exports: {}",
                    self.inner.name,
                    names.join(", ")
                ))
            })
    }
}

impl HostModule for ComponentModule {
    fn functions(&self) -> Vec<FunctionInfo> {
        self.inner.funcs.iter().map(|f| f.info.clone()).collect()
    }

    fn call(
        &self,
        function: &str,
        args: Value,
        ctx: &mut CallContext,
    ) -> Result<Value, ModuleCallError> {
        let func = self.func(function)?;
        let params = self.arguments(func, &args)?;
        let results = self.run(func, &params, ctx)?;
        self.result(func, results)
    }
}

impl Runtime {
    /// Loads a module component (see [`ComponentModule::load`]) and
    /// registers it as `name` (`ws:NAME`), replacing a module of that name.
    pub fn register_module_component(
        &self,
        name: &str,
        bytes: &[u8],
        config: Vec<(String, String)>,
        allow_hosts: Vec<String>,
    ) -> Result<(), ExecError> {
        let module = ComponentModule::load(self, name, bytes, config, allow_hosts)?;
        let registered = module.name().to_owned();
        self.inner
            .modules
            .register(&registered, Arc::new(module))
            .map_err(|e| bad(&registered, e))
    }

    /// Registers every module component stored in `ws`
    /// (`Workspace::add_module`); returns how many.
    pub fn register_workspace_modules(
        &self,
        ws: &computer_store::Workspace,
    ) -> Result<usize, ExecError> {
        let records = ws.modules().list()?;
        for m in &records {
            self.register_module_component(
                &m.name,
                &m.component,
                m.config.clone(),
                m.allow_hosts.clone(),
            )?;
        }
        Ok(records.len())
    }
}
