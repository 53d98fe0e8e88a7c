//! The shared `Engine` and the `Linker` every guest is instantiated with.

pub(crate) mod component_cache;
mod preinit;

use std::sync::OnceLock;
use std::time::Duration;

use wasmtime::component::{HasSelf, Linker};
use wasmtime::{Config, Engine, InstanceAllocationStrategy, PoolingAllocationConfig};

use crate::RuntimeConfig;
use crate::bindings;
use crate::error::ExecError;
use crate::run::state::RunState;

/// How often the epoch advances; timeouts and kills land within one tick.
pub(crate) const EPOCH_TICK: Duration = Duration::from_millis(10);

/// Pooled instance slots. The engine is shared by every runtime in the
/// process, so the pool is sized for the most any runtime may ask for, not
/// for the first runtime's settings.
const POOL_INSTANCES: u32 = 1024;
/// Guests executing at once in one process (runs, and the commands and modules
/// they call, each on a fiber stack of its own). wasmtime sets up every pooled
/// stack, with its guard page, when the engine is made: at its default of 1,000
/// that was a third of a short-lived `computer exec`'s start-up (8 ms of mprotect).
/// 256 is 32 runs (four times the default run cap) each eight calls deep.
const POOL_STACKS: u32 = 256;
/// The largest linear memory a pooled slot holds (all of wasm32's 4 GiB);
/// each run's own limit is enforced by its `ResourceLimiter`.
const POOL_MAX_MEMORY: usize = 4 << 30;
/// The most elements a pooled table holds: pandoc.wasm's function table has
/// 707,047 (the default is 20,000). Address space only, like the memories.
const POOL_TABLE_ELEMENTS: usize = 1 << 20;
/// The largest instance state (vmctx) of one core instance: pandoc.wasm's
/// 700,000 functions need 19 MB (the default is 1 MiB).
const POOL_MAX_CORE_INSTANCE: usize = 32 << 20;

/// Cranelift's optimisation level: `Speed`, unless `COMPUTER_CRANELIFT_OPT`
/// says `none` or `speed_and_size` (to measure what a level costs a big
/// program's compile and gives its runs: NOTES.md, "pandoc (issue 36)").
/// The level is part of the engine's compatibility hash, so each level has
/// its own entries in the component cache.
fn opt_level() -> wasmtime::OptLevel {
    match std::env::var("COMPUTER_CRANELIFT_OPT").as_deref() {
        Ok("none") => wasmtime::OptLevel::None,
        Ok("speed_and_size") => wasmtime::OptLevel::SpeedAndSize,
        _ => wasmtime::OptLevel::Speed,
    }
}

fn config(cfg: &RuntimeConfig, pooling: bool) -> Config {
    let mut c = Config::new();
    c.wasm_component_model(true);
    c.epoch_interruption(true);
    c.cranelift_opt_level(opt_level());
    // What real toolchains emit: bulk memory (on by default) and the
    // exception-handling proposal (exnref; needs the `gc` Cargo feature),
    // which pandoc.wasm's Lua uses once translated from the legacy encoding
    // (wasmtime does not run that; `commands::wasip1` says so).
    c.wasm_bulk_memory(true);
    c.wasm_exceptions(true);
    // Copy-on-write images make instantiation a mapping, not a copy.
    c.memory_init_cow(true);
    if pooling {
        let _ = cfg;
        let mut pool = PoolingAllocationConfig::default();
        pool.total_component_instances(POOL_INSTANCES)
            .total_core_instances(POOL_INSTANCES * 4)
            .total_memories(POOL_INSTANCES * 2)
            .total_tables(POOL_INSTANCES * 4)
            .total_stacks(POOL_STACKS)
            .max_memories_per_component(4)
            .max_memory_size(POOL_MAX_MEMORY)
            .table_elements(POOL_TABLE_ELEMENTS)
            .max_core_instance_size(POOL_MAX_CORE_INSTANCE)
            .max_component_instance_size(POOL_MAX_CORE_INSTANCE);
        c.allocation_strategy(InstanceAllocationStrategy::Pooling(pool));
    }
    c
}

/// The process-wide engine for this configuration: one per process, as the
/// first runtime created it. Later runtimes with other limits share it.
pub(crate) fn shared(cfg: &RuntimeConfig) -> Result<Engine, ExecError> {
    static ENGINE: OnceLock<Engine> = OnceLock::new();
    if let Some(engine) = ENGINE.get() {
        return Ok(engine.clone());
    }
    let engine = match Engine::new(&config(cfg, true)) {
        Ok(e) => e,
        Err(e) => {
            // The pool reserves address space up front; some sandboxes refuse that.
            tracing::warn!("pooling allocator unavailable ({e:#}); using on-demand allocation");
            Engine::new(&config(cfg, false)).map_err(ExecError::engine)?
        }
    };
    let engine = ENGINE.get_or_init(|| engine).clone();
    start_ticker(&engine);
    Ok(engine)
}

fn start_ticker(engine: &Engine) {
    let weak = engine.weak();
    let spawned = std::thread::Builder::new()
        .name("computer-epoch".into())
        .spawn(move || {
            while let Some(engine) = weak.upgrade() {
                engine.increment_epoch();
                drop(engine);
                std::thread::sleep(EPOCH_TICK);
            }
        });
    if let Err(e) = spawned {
        tracing::error!("cannot start the epoch thread, timeouts will not fire: {e}");
    }
}

pub(crate) fn linker(engine: &Engine) -> Result<Linker<RunState>, ExecError> {
    let mut linker = Linker::new(engine);
    // All of WASI 0.2 (exit-with-code included), no network granted in the
    // WasiCtx of a run, and wasi:filesystem over the workspace (ours).
    crate::host::wasi_fs::link::add_wasi(&mut linker).map_err(ExecError::engine)?;
    bindings::fs::add_to_linker::<RunState, HasSelf<RunState>>(&mut linker, |s| s)
        .map_err(ExecError::engine)?;
    bindings::modules::add_to_linker::<RunState, HasSelf<RunState>>(&mut linker, |s| s)
        .map_err(ExecError::engine)?;
    bindings::commands::add_to_linker::<RunState, HasSelf<RunState>>(&mut linker, |s| s)
        .map_err(ExecError::engine)?;
    bindings::process::add_to_linker::<RunState, HasSelf<RunState>>(&mut linker, |s| s)
        .map_err(ExecError::engine)?;
    // Outgoing HTTP, limited to the workspace's allow-list (`crate::net`).
    wasmtime_wasi_http::p2::add_only_http_to_linker_sync(&mut linker).map_err(ExecError::engine)?;
    Ok(linker)
}
