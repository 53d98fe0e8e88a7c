//! The `Store` of one module call: what it holds, the imports a module
//! gets (`call-context` and `interrupt` backed by the caller's
//! `CallContext`, WASI, `wasi:http`) and the linker that provides them.

use std::sync::OnceLock;
use std::time::Instant;

use serde_json::Value;
use wasmtime::component::{HasSelf, Linker, ResourceTable};
use wasmtime::{Engine, Store, UpdateDeadline};
use wasmtime_wasi::{WasiCtx, WasiCtxView, WasiView};
use wasmtime_wasi_http::{WasiHttpCtx, WasiHttpCtxView, WasiHttpView};

use super::log::LogStream;
use super::{Inner, ModuleLimits};
use crate::error::ExecError;
use crate::host::modules::ModuleCallError;
use crate::modules::call_context::{Answer, CallContext};
use crate::modules::http::HttpPolicy;
use crate::run::limits::MemoryLimiter;
use crate::run::output::GuestStream;

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

/// The linker every module is instantiated with (one per engine).
pub(super) fn linker(engine: &Engine) -> Result<Linker<ModuleState>, ExecError> {
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
    pub(super) limiter: MemoryLimiter,
    pub(super) ctx: CallContext,
    deadline: Instant,
    pub(super) timed_out: bool,
    /// Why the host stopped the call from inside an import (parked, or an
    /// error of the call context), reported instead of the trap.
    pub(super) stop: Option<ModuleCallError>,
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

/// The `Store` of one call of `inner`'s functions, with `ctx` moved in,
/// output going to `stdout`/`stderr` and the call's limits set.
pub(super) fn new_store(
    inner: &Inner,
    limits: &ModuleLimits,
    ctx: CallContext,
    stdout: &LogStream,
    stderr: &LogStream,
) -> Store<ModuleState> {
    let deadline = Instant::now() + limits.timeout;
    let mut wasi = WasiCtx::builder();
    wasi.stdout(GuestStream(stdout.clone()))
        .stderr(GuestStream(stderr.clone()))
        .allow_tcp(false)
        .allow_udp(false)
        .allow_ip_name_lookup(false);
    let state = ModuleState {
        wasi: wasi.build(),
        http: WasiHttpCtx::new(),
        hooks: HttpPolicy {
            allow: inner.allow.clone(),
            workspace: ctx.workspace(),
            deadline,
            module: inner.name.clone(),
        },
        table: ResourceTable::new(),
        limiter: MemoryLimiter::new(limits.memory_bytes).with_tables(100_000),
        ctx,
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
    store
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
