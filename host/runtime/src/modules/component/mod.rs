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
//! for the module (`module_http`). The rest of WASI 0.2 is linked so that
//! what a toolchain's standard library imports resolves, with no
//! environment, no preopened directories and no sockets.

use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use serde_json::Value;
use wasmtime::component::{
    Component, ComponentExportIndex, HasSelf, InstancePre, Linker, ResourceTable, Type, Val,
    types::ComponentItem,
};
use wasmtime::{Engine, Store, UpdateDeadline};
use wasmtime_wasi::{WasiCtx, WasiCtxView, WasiView};
use wasmtime_wasi_http::{WasiHttpCtx, WasiHttpCtxView, WasiHttpView};

use crate::Runtime;
use crate::engine::component_cache;
use crate::error::{ExecError, one_line};
use crate::host::modules::{FunctionInfo, HostModule, ModuleCallError, ParamInfo};
use crate::modules::call_context::{Answer, CallContext};
use crate::modules::component_json::{self, JsonPath};
use crate::modules::http::{AllowList, HttpPolicy};
use crate::run::limits::MemoryLimiter;
use crate::run::output::{GuestStream, GuestWrite};

mod wit {
    wasmtime::component::bindgen!({
        // Only the world's own interfaces: WASI comes from wasmtime-wasi
        // and wasmtime-wasi-http.
        inline: "
            package computer:module-host;
            world module-imports {
                import computer:workspace/call-context@0.1.0;
                import computer:workspace/interrupt@0.1.0;
            }
        ",
        path: "../../wit",
        imports: { default: trappable },
        require_store_data_send: true,
    });
}

use wit::computer::workspace::{call_context, interrupt};

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
        let component = component_cache::load(&engine, &name, bytes, &runtime.inner.cache_dir)
            .map_err(|e| match e {
                ExecError::BadGuest { reason, .. } => bad(&name, reason),
                other => other,
            })?;
        let (interface, funcs) = read_exports(&engine, &component, &name)?;
        let linker = linker(&engine)?;
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

/// The one exported interface and its functions, sorted by name.
fn read_exports(
    engine: &Engine,
    component: &Component,
    name: &str,
) -> Result<(String, Vec<Func>), ExecError> {
    let ty = component.component_type();
    let mut interfaces = Vec::new();
    let mut others = Vec::new();
    for (export, ext) in ty.exports(engine) {
        match ext.ty {
            ComponentItem::ComponentInstance(inst) => interfaces.push((export.to_owned(), inst)),
            // World-level type exports carry no behaviour.
            ComponentItem::Type(_) => {}
            _ => others.push(export.to_owned()),
        }
    }
    if !others.is_empty() {
        return Err(bad(
            name,
            format!(
                "a module exports exactly one interface and nothing else, but it also exports {}",
                others.join(", ")
            ),
        ));
    }
    let (interface, inst) = match interfaces.len() {
        1 => interfaces.pop().expect("one interface"),
        0 => {
            return Err(bad(
                name,
                "it exports no interface; a module exports exactly one (e.g. `export github;` in its world)",
            ));
        }
        _ => {
            let names: Vec<&str> = interfaces.iter().map(|(n, _)| n.as_str()).collect();
            return Err(bad(
                name,
                format!(
                    "it exports {} interfaces ({}); a module exports exactly one",
                    names.len(),
                    names.join(", ")
                ),
            ));
        }
    };
    let iface_index = component
        .get_export_index(None, &interface)
        .ok_or_else(|| bad(name, format!("cannot find the export {interface}")))?;
    let mut funcs = Vec::new();
    for (fname, ext) in inst.exports(engine) {
        let f = match ext.ty {
            ComponentItem::ComponentFunc(f) => f,
            ComponentItem::Resource(_) => {
                return Err(bad(
                    name,
                    format!(
                        "{interface} exports the resource {fname}; resources cannot cross JSON, so modules cannot export them"
                    ),
                ));
            }
            ComponentItem::Type(_) => continue,
            _ => {
                return Err(bad(
                    name,
                    format!("{interface} exports {fname}, which is not a function"),
                ));
            }
        };
        if f.async_() {
            return Err(bad(
                name,
                format!("{interface}.{fname} is an async function; modules export sync functions"),
            ));
        }
        let mut params = Vec::new();
        for (pname, pty) in f.params() {
            component_json::check_supported(&pty).map_err(|what| {
                bad(
                    name,
                    format!(
                        "parameter {pname} of {fname} contains {what}, which cannot cross JSON; module functions take and return plain values"
                    ),
                )
            })?;
            params.push((pname.to_owned(), pty));
        }
        let results: Vec<Type> = f.results().collect();
        if results.len() > 1 {
            return Err(bad(
                name,
                format!("{fname} returns several values; return one (e.g. a record or a tuple)"),
            ));
        }
        let result = results.into_iter().next();
        if let Some(rty) = &result {
            component_json::check_supported(rty).map_err(|what| {
                bad(
                    name,
                    format!(
                        "the result of {fname} contains {what}, which cannot cross JSON; module functions take and return plain values"
                    ),
                )
            })?;
        }
        let index = component
            .get_export_index(Some(&iface_index), fname)
            .ok_or_else(|| bad(name, format!("cannot find the export {interface}.{fname}")))?;
        let info = FunctionInfo {
            name: fname.to_owned(),
            params: params
                .iter()
                .map(|(n, t)| ParamInfo {
                    name: n.clone(),
                    type_desc: component_json::describe(t),
                })
                .collect(),
            result: result.as_ref().map(component_json::describe),
            docs: String::new(),
        };
        funcs.push(Func {
            info,
            params,
            result,
            index,
        });
    }
    funcs.sort_by(|a, b| a.info.name.cmp(&b.info.name));
    Ok((interface, funcs))
}

/// The linker every module is instantiated with (one per engine).
fn linker(engine: &Engine) -> Result<Linker<ModuleState>, ExecError> {
    static LINKER: OnceLock<Linker<ModuleState>> = OnceLock::new();
    if let Some(l) = LINKER.get()
        && Engine::same(l.engine(), engine)
    {
        return Ok(l.clone());
    }
    let mut linker = Linker::new(engine);
    wasmtime_wasi::p2::add_to_linker_sync(&mut linker).map_err(ExecError::engine)?;
    wasmtime_wasi_http::p2::add_only_http_to_linker_sync(&mut linker).map_err(ExecError::engine)?;
    call_context::add_to_linker::<ModuleState, HasSelf<ModuleState>>(&mut linker, |s| s)
        .map_err(ExecError::engine)?;
    interrupt::add_to_linker::<ModuleState, HasSelf<ModuleState>>(&mut linker, |s| s)
        .map_err(ExecError::engine)?;
    Ok(LINKER.get_or_init(|| linker.clone()).clone())
}

/// What a call's `Store` holds.
pub(crate) struct ModuleState {
    wasi: WasiCtx,
    http: WasiHttpCtx,
    hooks: HttpPolicy,
    table: ResourceTable,
    limiter: MemoryLimiter,
    ctx: CallContext,
    deadline: Instant,
    timed_out: bool,
    /// Why the host stopped the call from inside an import (parked, or an
    /// error of the call context), reported instead of the trap.
    stop: Option<ModuleCallError>,
}

impl WasiView for ModuleState {
    fn ctx(&mut self) -> WasiCtxView<'_> {
        WasiCtxView {
            ctx: &mut self.wasi,
            table: &mut self.table,
        }
    }
}

impl WasiHttpView for ModuleState {
    fn http(&mut self) -> WasiHttpCtxView<'_> {
        WasiHttpCtxView {
            ctx: &mut self.http,
            table: &mut self.table,
            hooks: &mut self.hooks,
        }
    }
}

impl ModuleState {
    /// Stops the guest: the call ends with `e`.
    fn stop_with(&mut self, e: ModuleCallError) -> wasmtime::Error {
        let msg = e.to_string();
        self.stop = Some(e);
        wasmtime::Error::msg(msg)
    }
}

impl call_context::Host for ModuleState {
    fn call_id(&mut self) -> wasmtime::Result<String> {
        Ok(self.ctx.call_id().to_owned())
    }

    fn unsafe_to_repeat(&mut self) -> wasmtime::Result<()> {
        match self.ctx.unsafe_to_repeat() {
            Ok(()) => Ok(()),
            Err(e) => Err(self.stop_with(e)),
        }
    }

    fn config(&mut self) -> wasmtime::Result<Vec<(String, String)>> {
        Ok(self.ctx.config().to_vec())
    }
}

impl interrupt::Host for ModuleState {
    fn interrupt(
        &mut self,
        payload_json: String,
    ) -> wasmtime::Result<Result<String, interrupt::Rejection>> {
        let payload: Value = match serde_json::from_str(&payload_json) {
            Ok(v) => v,
            Err(e) => {
                let msg = format!(
                    "ws:{}.{}: the interrupt payload is not JSON: {e}",
                    self.ctx.module(),
                    self.ctx.function()
                );
                return Err(self.stop_with(ModuleCallError::Failed(msg)));
            }
        };
        match self.ctx.interrupt_answer(payload) {
            Ok(Answer::Approved(v)) => Ok(Ok(v.to_string())),
            Ok(Answer::Rejected { reason, value }) => Ok(Err(interrupt::Rejection {
                reason,
                value_json: value.map(|v| v.to_string()),
            })),
            Err(e) => Err(self.stop_with(e)),
        }
    }
}

/// A module's stdout or stderr: lines go to the host log.
#[derive(Clone)]
struct LogStream {
    module: Arc<str>,
    stream: &'static str,
    pending: Arc<Mutex<Vec<u8>>>,
}

/// Longest line kept before it is logged in pieces.
const MAX_LOG_LINE: usize = 8 * 1024;

impl LogStream {
    fn new(module: Arc<str>, stream: &'static str) -> Self {
        LogStream {
            module,
            stream,
            pending: Arc::new(Mutex::new(Vec::new())),
        }
    }

    fn emit(&self, line: &[u8]) {
        let line = String::from_utf8_lossy(line);
        tracing::info!(target: "computer::module", module = %self.module, stream = self.stream, "{}", line.trim_end_matches('\r'));
    }

    fn push(&self, bytes: &[u8]) {
        let mut pending = self.pending.lock().unwrap_or_else(|p| p.into_inner());
        pending.extend_from_slice(bytes);
        while let Some(nl) = pending.iter().position(|b| *b == b'\n') {
            let line: Vec<u8> = pending.drain(..=nl).collect();
            self.emit(&line[..line.len() - 1]);
        }
        while pending.len() > MAX_LOG_LINE {
            let line: Vec<u8> = pending.drain(..MAX_LOG_LINE).collect();
            self.emit(&line);
        }
    }

    /// Logs what is left without a final newline.
    fn finish(&self) {
        let mut pending = self.pending.lock().unwrap_or_else(|p| p.into_inner());
        if !pending.is_empty() {
            let line = std::mem::take(&mut *pending);
            drop(pending);
            self.emit(&line);
        }
    }
}

impl GuestWrite for LogStream {
    fn write_guest(&self, bytes: &[u8]) {
        self.push(bytes);
    }
}

impl ComponentModule {
    /// Converts the JSON arguments of `func`: a positional array (trailing
    /// `option` parameters may be left out), or, for a function of more
    /// than one parameter, an object keyed by parameter name.
    fn arguments(&self, func: &Func, args: &Value) -> Result<Vec<Val>, ModuleCallError> {
        let label = format!("{}.{}", self.inner.name, func.info.name);
        let signature = || {
            func.info
                .params
                .iter()
                .map(|p| format!("{}: {}", p.name, p.type_desc))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let n = func.params.len();
        let mut slots: Vec<Option<&Value>> = vec![None; n];
        match args {
            Value::Array(items) => {
                if items.len() > n {
                    return Err(ModuleCallError::BadArguments(format!(
                        "{label}: takes {n} argument{} ({}), got {}",
                        if n == 1 { "" } else { "s" },
                        signature(),
                        items.len()
                    )));
                }
                for (slot, item) in slots.iter_mut().zip(items) {
                    *slot = Some(item);
                }
            }
            Value::Null if n == 0 => {}
            Value::Object(obj) if n > 1 => {
                let names: Vec<&str> = func.params.iter().map(|(p, _)| p.as_str()).collect();
                let unknown: Vec<&str> = obj
                    .keys()
                    .filter(|k| {
                        !names
                            .iter()
                            .any(|n| *k == n || **k == component_json::camel_case(n))
                    })
                    .map(String::as_str)
                    .collect();
                if !unknown.is_empty() {
                    return Err(ModuleCallError::BadArguments(format!(
                        "{label}: unknown argument {}; the parameters are: {}",
                        unknown.join(", "),
                        signature()
                    )));
                }
                for (slot, name) in slots.iter_mut().zip(&names) {
                    *slot = obj
                        .get(*name)
                        .or_else(|| obj.get(&component_json::camel_case(name)));
                }
            }
            _ => {
                return Err(ModuleCallError::BadArguments(format!(
                    "{label}: arguments must be a JSON array ({}), got {}",
                    signature(),
                    match args {
                        Value::Object(_) => "an object".to_owned(),
                        other => other.to_string(),
                    }
                )));
            }
        }
        let mut vals = Vec::with_capacity(n);
        for ((pname, pty), slot) in func.params.iter().zip(slots) {
            let val = match slot {
                Some(v) => component_json::from_json(pty, v, &mut JsonPath::root(pname))
                    .map_err(|e| ModuleCallError::BadArguments(format!("{label}: {e}")))?,
                None if matches!(pty, Type::Option(_)) => Val::Option(None),
                None => {
                    return Err(ModuleCallError::BadArguments(format!(
                        "{label}: missing argument {pname} ({}); the parameters are: {}",
                        component_json::describe(pty),
                        signature()
                    )));
                }
            };
            vals.push(val);
        }
        Ok(vals)
    }

    /// The call's JSON value from the function's result: a top-level
    /// `result<T, E>` is unwrapped (`err` becomes `ErrorValue`).
    fn result(&self, func: &Func, results: Vec<Val>) -> Result<Value, ModuleCallError> {
        let failed = |e: String| {
            ModuleCallError::Failed(format!(
                "{}.{}: cannot convert the result to JSON: {e}",
                self.inner.name, func.info.name
            ))
        };
        let payload = |p: Option<Box<Val>>| match p {
            Some(v) => component_json::to_json(&v),
            None => Ok(Value::Null),
        };
        match (results.into_iter().next(), &func.result) {
            (None, _) => Ok(Value::Null),
            (Some(Val::Result(Ok(p))), Some(Type::Result(_))) => payload(p).map_err(failed),
            (Some(Val::Result(Err(p))), Some(Type::Result(_))) => {
                Err(ModuleCallError::ErrorValue(payload(p).map_err(failed)?))
            }
            (Some(v), _) => component_json::to_json(&v).map_err(failed),
        }
    }

    /// Runs `func` in a fresh instance with `ctx` in the store.
    fn run(
        &self,
        func: &Func,
        params: &[Val],
        ctx: &mut CallContext,
    ) -> Result<Vec<Val>, ModuleCallError> {
        let inner = &*self.inner;
        let label = format!("{}.{}", inner.name, func.info.name);
        let limits = &self.limits;
        let deadline = Instant::now() + limits.timeout;
        let stdout = LogStream::new(inner.name.clone(), "stdout");
        let stderr = LogStream::new(inner.name.clone(), "stderr");
        let mut wasi = WasiCtx::builder();
        wasi.stdout(GuestStream(stdout.clone()))
            .stderr(GuestStream(stderr.clone()))
            .allow_tcp(false)
            .allow_udp(false)
            .allow_ip_name_lookup(false);
        // The caller's context, moved in for the call and back out after.
        let mut call_ctx = std::mem::replace(ctx, CallContext::detached(String::new(), "", ""));
        if call_ctx.config().is_empty() && !inner.config.is_empty() {
            call_ctx = call_ctx.with_config(inner.config.clone());
        }
        let state = ModuleState {
            wasi: wasi.build(),
            http: WasiHttpCtx::new(),
            hooks: HttpPolicy {
                allow: inner.allow.clone(),
                deadline,
                module: inner.name.clone(),
            },
            table: ResourceTable::new(),
            limiter: MemoryLimiter {
                max_memory: limits.memory_bytes,
                max_tables: 100_000,
                hit: false,
            },
            ctx: call_ctx,
            deadline,
            timed_out: false,
            stop: None,
        };
        let mut store = Store::new(&inner.engine, state);
        store.limiter(|s| &mut s.limiter);
        store.set_epoch_deadline(1);
        store.epoch_deadline_callback(|mut cx| {
            let state = cx.data_mut();
            if Instant::now() >= state.deadline {
                state.timed_out = true;
                return Err(wasmtime::Error::msg("module call timed out"));
            }
            Ok(UpdateDeadline::Continue(1))
        });
        let mut results = vec![Val::Bool(false); usize::from(func.result.is_some())];
        let outcome = inner.pre.instantiate(&mut store).and_then(|instance| {
            let f = instance
                .get_func(&mut store, func.index)
                .ok_or_else(|| wasmtime::Error::msg(format!("{label} is not exported")))?;
            f.call(&mut store, params, &mut results)
        });
        stdout.finish();
        stderr.finish();
        let state = store.into_data();
        *ctx = state.ctx;
        match outcome {
            Ok(()) => Ok(results),
            Err(e) => Err(if let Some(stop) = state.stop {
                stop
            } else if state.timed_out {
                ModuleCallError::Failed(format!("{label} timed out after {:?}", limits.timeout))
            } else if state.limiter.hit {
                ModuleCallError::Failed(format!(
                    "{label} exceeded its memory limit ({} MiB)",
                    limits.memory_bytes >> 20
                ))
            } else if let Some(exit) = e.downcast_ref::<wasmtime_wasi::I32Exit>() {
                ModuleCallError::Failed(format!("{label} called exit({})", exit.0))
            } else {
                let what = match e.downcast_ref::<wasmtime::Trap>() {
                    Some(t) => t.to_string(),
                    None => one_line(&e),
                };
                ModuleCallError::Failed(format!("{label} trapped: {what}"))
            }),
        }
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
        let records = ws.modules()?;
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
