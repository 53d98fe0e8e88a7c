//! Pre-initialization: a guest component that exports `wizer-initialize` is
//! run once, before it is compiled, and compiled as the snapshot of that
//! instance (memory and globals), so the work its initializer does (the JS
//! guest: a QuickJS runtime, its context and the bootstrap) is not done
//! again by every run.
//!
//! The initializer runs with WASI (clocks, randomness; no files, no
//! environment, no arguments, no network) and every other import trapping: it must not
//! depend on the run. The snapshot is made by `wasmtime-wizer`; the instance
//! runs here on an engine of its own, outside the pool. Anything that goes
//! wrong leaves the component as it was: it then initializes itself in
//! every run, as before.

use std::future::Future;
use std::pin::pin;
use std::task::{Context, Poll, Waker};

use wasmtime::component::{Component, Instance, Linker, ResourceTable, WasmList};
use wasmtime::{Config, Engine, Store};
use wasmtime_wasi::{WasiCtx, WasiCtxView, WasiView};
use wasmtime_wizer::{ComponentInstanceState, Wizer};

/// The export a pre-initializable component has (Wizer's default name).
pub(crate) const INIT_EXPORT: &str = "wizer-initialize";

/// Whether `bytes` may export [`INIT_EXPORT`]: its name occurs in them. A
/// false positive only costs a failed attempt; export names are stored as
/// plain UTF-8, so a real export is never missed.
pub(crate) fn wants_preinit(bytes: &[u8]) -> bool {
    bytes
        .windows(INIT_EXPORT.len())
        .any(|w| w == INIT_EXPORT.as_bytes())
}

struct InitState {
    wasi: WasiCtx,
    http: wasmtime_wasi_http::WasiHttpCtx,
    table: ResourceTable,
}

impl wasmtime_wasi_http::WasiHttpView for InitState {
    fn http(&mut self) -> wasmtime_wasi_http::WasiHttpCtxView<'_> {
        wasmtime_wasi_http::WasiHttpCtxView {
            ctx: &mut self.http,
            table: &mut self.table,
            hooks: Default::default(),
        }
    }
}

impl WasiView for InitState {
    fn ctx(&mut self) -> WasiCtxView<'_> {
        WasiCtxView {
            ctx: &mut self.wasi,
            table: &mut self.table,
        }
    }
}

/// The instrumented component, compiled to run its initializer once: by
/// Winch, wasmtime's baseline compiler, which compiles the JS guest in a
/// tenth of Cranelift's time (the initializer runs for milliseconds, so its
/// slower code costs little); by Cranelift where Winch refuses it.
fn instrumented_component(instrumented: &[u8]) -> wasmtime::Result<Component> {
    let compile = |strategy| -> wasmtime::Result<Component> {
        let mut config = Config::new();
        config.wasm_component_model(true).strategy(strategy);
        let engine = Engine::new(&config)?;
        Component::new(&engine, instrumented)
    };
    compile(wasmtime::Strategy::Winch).or_else(|e| {
        tracing::debug!("Winch cannot compile the instrumented component ({e:#}): Cranelift");
        compile(wasmtime::Strategy::Cranelift)
    })
}

/// The pre-initialized form of the component `bytes`.
pub(crate) fn preinitialize(bytes: &[u8]) -> wasmtime::Result<Vec<u8>> {
    let mut wizer = Wizer::new();
    // Kept: without it, wasmtime-wizer 48 drops the core export but not the
    // component export lifted from it, and the snapshot does not validate.
    wizer.init_func(INIT_EXPORT).keep_init_func(true);
    let (cx, instrumented) = wizer.instrument_component(bytes)?;
    let component = instrumented_component(&instrumented)?;
    let engine = component.engine().clone();
    let mut linker: Linker<InitState> = Linker::new(&engine);
    // Real WASI and wasi:http (no request is let out: the context has no
    // network), so that the imports' resource types are WASI's own; the
    // workspace's interfaces trap.
    wasmtime_wasi::p2::add_to_linker_sync(&mut linker)?;
    wasmtime_wasi_http::p2::add_only_http_to_linker_sync(&mut linker)?;
    trap_workspace_imports(&engine, &component, &mut linker)?;
    let mut store = Store::new(
        &engine,
        InitState {
            wasi: WasiCtx::builder().build(),
            http: wasmtime_wasi_http::WasiHttpCtx::new(),
            table: ResourceTable::new(),
        },
    );
    let instance = linker.instantiate(&mut store, &component)?;
    let init = instance.get_typed_func::<(), ()>(&mut store, INIT_EXPORT)?;
    init.call(&mut store, ())?;
    let mut state = Snapshotting {
        store: &mut store,
        instance,
    };
    ready(wizer.snapshot_component(&cx, &mut state))
}

/// Defines the component's `computer:` imports (the workspace, modules,
/// commands) as functions that trap. (wasmtime's `define_unknown_imports_as_traps`
/// would also shadow the WASI 0.2.12 interfaces the linker serves by semver
/// with trapping copies whose resource types no longer match.)
fn trap_workspace_imports(
    engine: &Engine,
    component: &Component,
    linker: &mut Linker<InitState>,
) -> wasmtime::Result<()> {
    use wasmtime::component::ResourceType;
    use wasmtime::component::types::ComponentItem;
    for (name, item) in component.component_type().imports(engine) {
        let ComponentItem::ComponentInstance(instance) = item.ty else {
            continue;
        };
        if !name.starts_with("computer:") {
            continue;
        }
        let mut defined = linker.instance(name)?;
        for (export, item) in instance.exports(engine) {
            let what = format!("{name}#{export}");
            match item.ty {
                ComponentItem::ComponentFunc(_) => defined
                    .func_new(export, move |_, _, _, _| {
                        wasmtime::bail!("{what} was called while pre-initializing")
                    })?,
                ComponentItem::Resource(_) => {
                    defined.resource(export, ResourceType::host::<()>(), |_, _| Ok(()))?
                }
                _ => {}
            }
        }
    }
    Ok(())
}

/// Runs a future that never waits: every call the snapshot makes into the
/// instance below completes synchronously.
fn ready<T>(f: impl Future<Output = T>) -> T {
    let mut f = pin!(f);
    let mut cx = Context::from_waker(Waker::noop());
    loop {
        if let Poll::Ready(v) = f.as_mut().poll(&mut cx) {
            return v;
        }
    }
}

/// The instance's state as Wizer reads it: exports the instrumentation
/// added, called synchronously.
struct Snapshotting<'a> {
    store: &'a mut Store<InitState>,
    instance: Instance,
}

impl Snapshotting<'_> {
    fn call<R, O>(
        &mut self,
        instance: &str,
        func: &str,
        use_ret: impl FnOnce(&Store<InitState>, R) -> O,
    ) -> O
    where
        R: wasmtime::component::Lift + wasmtime::component::ComponentType + 'static,
    {
        let exported = |s: &mut Self| -> wasmtime::Result<O> {
            let (_, group) = s
                .instance
                .get_export(&mut *s.store, None, instance)
                .ok_or_else(|| wasmtime::format_err!("no export {instance}"))?;
            let (_, index) = s
                .instance
                .get_export(&mut *s.store, Some(&group), func)
                .ok_or_else(|| wasmtime::format_err!("no export {instance}#{func}"))?;
            let f = s
                .instance
                .get_typed_func::<(), (R,)>(&mut *s.store, index)?;
            let (ret,) = f.call(&mut *s.store, ())?;
            let out = use_ret(s.store, ret);
            Ok(out)
        };
        // The trait has no way to fail: Wizer's own implementation panics too.
        // The caller catches it and keeps the component as it was.
        exported(self).unwrap_or_else(|e| panic!("reading the instance's state: {e}"))
    }
}

impl ComponentInstanceState for Snapshotting<'_> {
    fn call_func_ret_list_u8(
        &mut self,
        instance: &str,
        func: &str,
        contents: impl FnOnce(&[u8]) + Send,
    ) -> impl Future<Output = ()> + Send {
        self.call(instance, func, |store, list: WasmList<u8>| {
            contents(list.as_le_slice(store))
        });
        std::future::ready(())
    }

    fn call_func_ret_s32(
        &mut self,
        instance: &str,
        func: &str,
    ) -> impl Future<Output = i32> + Send {
        std::future::ready(self.call(instance, func, |_, r: i32| r))
    }

    fn call_func_ret_s64(
        &mut self,
        instance: &str,
        func: &str,
    ) -> impl Future<Output = i64> + Send {
        std::future::ready(self.call(instance, func, |_, r: i64| r))
    }

    fn call_func_ret_f32(
        &mut self,
        instance: &str,
        func: &str,
    ) -> impl Future<Output = u32> + Send {
        std::future::ready(self.call(instance, func, |_, r: f32| r.to_bits()))
    }

    fn call_func_ret_f64(
        &mut self,
        instance: &str,
        func: &str,
    ) -> impl Future<Output = u64> + Send {
        std::future::ready(self.call(instance, func, |_, r: f64| r.to_bits()))
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_js_guest_is_pre_initialized() {
        let Some(js) = crate::JS_GUEST else {
            panic!("the JS guest is not built in: run scripts/build-guests.sh");
        };
        assert!(super::wants_preinit(js));
        let snapshot = super::preinitialize(js).expect("pre-initializing the JS guest");
        let mut config = wasmtime::Config::new();
        config.wasm_component_model(true);
        let engine = wasmtime::Engine::new(&config).unwrap();
        let component = wasmtime::component::Component::new(&engine, &snapshot).unwrap();
        let exports: Vec<String> = component
            .component_type()
            .exports(&engine)
            .map(|(name, _)| name.to_owned())
            .collect();
        assert!(exports.iter().any(|e| e == "run"), "{exports:?}");
        assert_ne!(snapshot, js, "the snapshot holds the initialized state");
    }
}
