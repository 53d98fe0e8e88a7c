//! One run: create the runtime, install the globals, evaluate the source as an ES
//! module in `cwd`, call its default export, drive the event loop, and turn the result
//! into a `run-outcome`.

use std::cell::RefCell;

use rquickjs::promise::PromiseState;
use rquickjs::{Context, Ctx, Function, Module, Object, Persistent, Promise, Runtime, Value};

use crate::event_loop::{self, Stop};
use crate::loader::{WorkspaceLoader, WorkspaceResolver};
use crate::state::{RunState, Shared};
use crate::{RunOutcome, RunRequest, builtins, natives, paths, report};

/// The name of the main module: in `cwd`, so `./x.js` resolves against it, and not a
/// plausible file name, so it cannot clash with a real file of the workspace.
const MAIN_MODULE: &str = "[eval]";

/// QuickJS's own stack limit. On wasm32 its check reads the shadow stack, which deep
/// JS recursion hardly uses, so in practice the host's wasm stack limit is hit first
/// (a "call stack exhausted" trap); see README.md.
const MAX_STACK: usize = 256 * 1024;

/// The sources with which the host starts this guest as Node's command line (`node
/// ARGS`) and npm's; see the host's `NODE_AS_COMMAND`. A NUL cannot start a program.
const NODE_AS_COMMAND: &str = "\0computer:node";
const NPM_AS_COMMAND: &str = "\0computer:npm";

fn outcome(exit_code: i32, value_json: Option<String>) -> RunOutcome {
    RunOutcome {
        exit_code,
        value_json,
    }
}

/// A JavaScript runtime and context with the bootstrap already run, waiting
/// for a run. `wizer-initialize` makes it when the host pre-initializes the
/// guest: it is then part of the component's snapshot, and a run skips the
/// runtime, the context and the bootstrap (two thirds of a cold exec).
/// Otherwise `run` makes it first.
struct Prepared {
    rt: Runtime,
    context: Context,
    state: Shared,
    native: Persistent<Object<'static>>,
}

thread_local! {
    static PREPARED: RefCell<Option<Prepared>> = const { RefCell::new(None) };
}

/// `wizer-initialize`: prepares the run ahead (see [`Prepared`]). It must not
/// depend on the run: argv, the environment and the working directory are
/// set when the run starts. A failure is left for `run` to report.
pub fn preinitialize() {
    if let Ok(p) = prepare(false) {
        // Collected now, so the snapshot holds no garbage and a run starts
        // with a fresh allocation budget: a collection during the run would
        // write to every object of the snapshot's heap, copying each of its
        // pages out of the shared image.
        p.rt.run_gc();
        PREPARED.with(|c| *c.borrow_mut() = Some(p));
    }
}

/// Makes a runtime and a context and runs the bootstrap; with `report`, a
/// failure is printed.
fn prepare(report: bool) -> Result<Prepared, ()> {
    let fail = |message: &str| {
        if report {
            report::run_error(message);
        }
    };
    let state = RunState::new("/".to_owned());
    let Ok(rt) = Runtime::new() else {
        fail("could not create the JavaScript runtime (out of memory?)");
        return Err(());
    };
    rt.set_max_stack_size(MAX_STACK);
    let s = state.clone();
    rt.set_interrupt_handler(Some(Box::new(move || s.exiting())));
    let s = state.clone();
    rt.set_host_promise_rejection_tracker(Some(Box::new(move |ctx, promise, reason, handled| {
        report::track_rejection(ctx, &s, promise, reason, handled)
    })));
    rt.set_loader(
        WorkspaceResolver {
            state: state.clone(),
        },
        WorkspaceLoader {
            state: state.clone(),
        },
    );
    let Ok(context) = Context::full(&rt) else {
        fail("could not create the JavaScript context (out of memory?)");
        return Err(());
    };
    let native = context.with(|ctx| {
        let booted = natives::create(&ctx, &state).and_then(|native| {
            let internal: Object = builtins::bootstrap(&ctx)?.call((native.clone(),))?;
            *state.internal.borrow_mut() = Some(Persistent::save(&ctx, internal));
            Ok(Persistent::save(&ctx, native))
        });
        booted.map_err(|_| {
            let err = ctx.catch();
            if report {
                report::run_error("the JavaScript bootstrap failed:");
                report::print_uncaught(&ctx, &state, &err);
            }
        })
    })?;
    Ok(Prepared {
        rt,
        context,
        state,
        native,
    })
}

pub fn run(request: RunRequest) -> RunOutcome {
    let cwd = if request.cwd.starts_with('/') {
        paths::normalize(&request.cwd)
    } else {
        paths::resolve("/", &request.cwd)
    };
    let cwd = if cwd.len() > 1 {
        cwd.trim_end_matches('/').to_string()
    } else {
        cwd
    };
    let cli = match request.source.as_str() {
        NODE_AS_COMMAND => Some("node_cli"),
        NPM_AS_COMMAND => Some("npm"),
        _ => None,
    };
    let prepared = match PREPARED.with(|c| c.borrow_mut().take()) {
        Some(p) => p,
        None => match prepare(true) {
            Ok(p) => p,
            Err(()) => return outcome(1, None),
        },
    };
    let Prepared {
        rt,
        context,
        state,
        native,
    } = prepared;
    *state.cwd.borrow_mut() = cwd;
    state.node_mode.set(cli.is_some());
    // QuickJS measures its stack limit from where it is set: here, not where
    // a snapshot was taken.
    rt.set_max_stack_size(MAX_STACK);

    let result = context.with(|ctx| {
        let result = match cli {
            Some(module) => run_cli(&ctx, &state, native, request, module),
            None => run_in(&ctx, &state, native, request),
        };
        state.release_js();
        result
    });
    // The instance is thrown away after the run, so freeing the heap object by object
    // would be wasted time.
    std::mem::forget(context);
    std::mem::forget(rt);
    result
}

fn run_in<'js>(
    ctx: &Ctx<'js>,
    state: &Shared,
    native: Persistent<Object<'static>>,
    request: RunRequest,
) -> RunOutcome {
    let main_name = if state.cwd() == "/" {
        format!("/{MAIN_MODULE}")
    } else {
        format!("{}/{MAIN_MODULE}", state.cwd())
    };

    let input = match &request.input_json {
        None => Value::new_undefined(ctx.clone()),
        Some(json) => match ctx.json_parse(json.as_str()) {
            Ok(v) => v,
            Err(_) => {
                let err = ctx.catch();
                let detail = err
                    .as_exception()
                    .and_then(|e| e.message())
                    .unwrap_or_default();
                report::run_error(&format!("the run's input is not valid JSON: {detail}"));
                return outcome(1, None);
            }
        },
    };

    let process = match start(ctx, state, native, &request.argv, &main_name, &input) {
        Ok(p) => p,
        Err(_) => {
            let err = ctx.catch();
            report::run_error("the JavaScript bootstrap failed:");
            report::print_uncaught(ctx, state, &err);
            return outcome(1, None);
        }
    };

    let value = match evaluate_main(ctx, state, &main_name, request.source, input) {
        Ok(v) => v,
        Err(code) => return outcome(code, None),
    };

    // Timers and callbacks still pending keep the run alive, as in Node.
    let code = finish(ctx, state, &process);
    if state.exiting() {
        return outcome(code, None);
    }
    outcome(code, value)
}

/// `node ARGS` / `npm ARGS`: the internal module `module`'s `main(argv)` runs the
/// command line (js/node_cli.js); it returns `{ exit }`, a promise to wait for (an ES
/// module's evaluation), or nothing. Then the event loop runs dry, as in Node.
fn run_cli<'js>(
    ctx: &Ctx<'js>,
    state: &Shared,
    native: Persistent<Object<'static>>,
    request: RunRequest,
    module: &str,
) -> RunOutcome {
    let main_name = format!("{}/[eval]", state.cwd().trim_end_matches('/'));
    let undefined = Value::new_undefined(ctx.clone());
    let process = match start(ctx, state, native, &request.argv, &main_name, &undefined) {
        Ok(p) => p,
        Err(_) => {
            let err = ctx.catch();
            report::run_error("the JavaScript bootstrap failed:");
            report::print_uncaught(ctx, state, &err);
            return outcome(1, None);
        }
    };
    let main = state
        .internal(ctx)
        .and_then(|internal| internal.get::<_, Function>("require"))
        .and_then(|require| require.call::<_, Object>((module,)))
        .and_then(|cli| cli.get::<_, Function>("main"));
    let result = match main.and_then(|main| main.call::<_, Value>((request.argv,))) {
        Ok(v) => v,
        Err(_) => {
            // An `uncaughtException` listener may take it; then the loop goes on.
            let code = uncaught(ctx, state);
            if state.exiting() {
                return outcome(code, None);
            }
            Value::new_undefined(ctx.clone())
        }
    };
    if let Some(code) = state.exit_code.get() {
        return outcome(code, None);
    }
    if let Some(promise) = result.as_promise() {
        if let Err(code) = await_promise(ctx, state, &promise.clone(), "top-level await") {
            return outcome(code, None);
        }
    } else if let Some(exit) = result
        .as_object()
        .and_then(|o| o.get::<_, Option<i32>>("exit").ok().flatten())
    {
        return outcome(exit, None);
    }
    outcome(finish(ctx, state, &process), None)
}

/// Run the event loop dry, with Node's `beforeExit` (which may schedule more work)
/// and `exit` events; the exit code.
fn finish<'js>(ctx: &Ctx<'js>, state: &Shared, process: &Object<'js>) -> i32 {
    loop {
        if let Stop::Exit = event_loop::drive(ctx, state, None, false) {
            return state.exit_code.get().unwrap_or(1);
        }
        match internal_call::<bool>(ctx, state, "beforeExit") {
            Ok(true) if event_loop::has_work(ctx, state) => {}
            Ok(_) => break,
            Err(()) if state.exiting() => return state.exit_code.get().unwrap_or(1),
            Err(()) => {}
        }
    }
    if let Err(()) = internal_call::<i32>(ctx, state, "emitExit")
        && state.exiting()
    {
        return state.exit_code.get().unwrap_or(1);
    }
    state
        .exit_code
        .get()
        .unwrap_or_else(|| exit_code_of(process))
}

/// Call `internal[name]()`; an exception is reported as uncaught.
fn internal_call<'js, R: rquickjs::FromJs<'js>>(
    ctx: &Ctx<'js>,
    state: &Shared,
    name: &str,
) -> Result<R, ()> {
    let called = state
        .internal(ctx)
        .and_then(|internal| internal.get::<_, Function>(name))
        .and_then(|f| f.call::<_, R>(()));
    called.map_err(|_| {
        uncaught(ctx, state);
    })
}

/// `process.exitCode`, if the program set it to a number.
fn exit_code_of(process: &Object<'_>) -> i32 {
    match process.get::<_, Value>("exitCode") {
        Ok(v) => v.as_number().map_or(0, |n| n as i32),
        Err(_) => 0,
    }
}

/// Starts the run in a prepared context: its argv, environment and input;
/// returns the `process` object.
fn start<'js>(
    ctx: &Ctx<'js>,
    state: &Shared,
    native: Persistent<Object<'static>>,
    argv: &[String],
    main_name: &str,
    input: &Value<'js>,
) -> rquickjs::Result<Object<'js>> {
    let native = native.restore(ctx)?;
    natives::start_run(&native, state, argv, main_name)?;
    let internal = state.internal(ctx)?;
    internal.get::<_, Function>("startRun")?.call::<_, ()>(())?;
    ctx.globals().set("input", input.clone())?;
    internal.get("process")
}

/// Evaluate the main module and call its default export. `Ok` carries the value's
/// JSON; `Err` the exit code of a run that already ended.
fn evaluate_main<'js>(
    ctx: &Ctx<'js>,
    state: &Shared,
    name: &str,
    source: String,
    input: Value<'js>,
) -> Result<Option<String>, i32> {
    let module = Module::declare(ctx.clone(), name, source).map_err(|_| uncaught(ctx, state))?;
    let (module, promise) = module.eval().map_err(|_| uncaught(ctx, state))?;
    await_promise(ctx, state, &promise, "top-level await")?;

    let namespace = module.namespace().map_err(|_| uncaught(ctx, state))?;
    let default: Value = namespace.get("default").map_err(|_| uncaught(ctx, state))?;
    if default.is_undefined() {
        return Ok(None);
    }
    let mut value = match default.as_function() {
        Some(f) => call_default(ctx, state, f, input)?,
        None => default,
    };
    if let Some(promise) = value.as_promise() {
        let promise = promise.clone();
        value = await_promise(ctx, state, &promise, "default export")?;
    }
    if value.is_undefined() {
        return Ok(None);
    }
    match ctx.json_stringify(value) {
        Ok(Some(json)) => json.to_string().map(Some).map_err(|_| uncaught(ctx, state)),
        Ok(None) => Ok(None),
        Err(_) => {
            let err = ctx.catch();
            let detail = err
                .as_exception()
                .and_then(|e| e.message())
                .unwrap_or_default();
            let message = format!("the default export's value is not JSON-serializable: {detail}");
            report::fatal(ctx, state, report::make_error(ctx, &message));
            Err(1)
        }
    }
}

fn call_default<'js>(
    ctx: &Ctx<'js>,
    state: &Shared,
    f: &Function<'js>,
    input: Value<'js>,
) -> Result<Value<'js>, i32> {
    f.call((input,)).map_err(|_| uncaught(ctx, state))
}

/// Drive the event loop until `promise` settles; its value, or the exit code.
fn await_promise<'js>(
    ctx: &Ctx<'js>,
    state: &Shared,
    promise: &Promise<'js>,
    what: &str,
) -> Result<Value<'js>, i32> {
    // We handle this promise's rejection ourselves; a no-op handler keeps the rejection
    // tracker from reporting it a second time.
    if let Ok(then) = promise.get::<_, Function>("then") {
        let noop = Function::new(ctx.clone(), || ());
        if let Ok(noop) = noop {
            let _ = then.call::<_, Value>((
                rquickjs::function::This(promise.clone()),
                Value::new_undefined(ctx.clone()),
                noop,
            ));
        }
    }
    match event_loop::drive(ctx, state, Some(promise), true) {
        Stop::Exit => return Err(state.exit_code.get().unwrap_or(1)),
        Stop::Stalled => {
            let message = format!(
                "Warning: Detected unsettled {what}: the promise can never settle (nothing is pending)\n"
            );
            crate::output::write_str(crate::output::Stream::Stderr, &message);
            return Err(13);
        }
        Stop::Done => {}
    }
    match promise.state() {
        PromiseState::Resolved => promise
            .result::<Value>()
            .and_then(Result::ok)
            .ok_or_else(|| uncaught(ctx, state)),
        _ => {
            let reason = match promise.result::<Value>() {
                Some(Err(_)) => ctx.catch(),
                _ => Value::new_undefined(ctx.clone()),
            };
            report::fatal(ctx, state, reason);
            Err(state.exit_code.get().unwrap_or(1))
        }
    }
}

/// Report the pending exception (unless the run is exiting) and give the exit code.
fn uncaught(ctx: &Ctx<'_>, state: &Shared) -> i32 {
    let err = ctx.catch();
    report::fatal(ctx, state, err);
    state.exit_code.get().unwrap_or(1)
}
