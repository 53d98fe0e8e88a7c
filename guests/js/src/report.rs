//! Reporting what ends a run badly: uncaught exceptions, unhandled rejections, and
//! errors of the run itself. Everything goes to stderr in Node's shape (`Error: msg`
//! and the stack), and the run's exit code becomes 1.

use rquickjs::{Ctx, Exception, Function, Value};

use crate::output::{self, Stream};
use crate::state::Shared;

/// Print `err` as uncaught and end the run with exit code 1. Does nothing once the run
/// is already ending (e.g. the exception is `process.exit`'s own).
pub fn fatal<'js>(ctx: &Ctx<'js>, state: &Shared, err: Value<'js>) {
    if state.exiting() {
        return;
    }
    if process_handles(ctx, state, "uncaughtException", &err, None) {
        return;
    }
    print_uncaught(ctx, state, &err);
    state.request_exit(1);
}

/// Hand `event` (`uncaughtException`, `unhandledRejection`) to the program's own
/// `process.on` listeners, as Node does; false when it has none. A listener that
/// throws ends the run with its error.
fn process_handles<'js>(
    ctx: &Ctx<'js>,
    state: &Shared,
    event: &str,
    err: &Value<'js>,
    promise: Option<Value<'js>>,
) -> bool {
    let Ok(handle) = state
        .internal(ctx)
        .and_then(|internal| internal.get::<_, Function>("processHandles"))
    else {
        return false;
    };
    let promise = promise.unwrap_or_else(|| Value::new_undefined(ctx.clone()));
    match handle.call::<_, bool>((event, err.clone(), promise)) {
        Ok(handled) => handled,
        Err(_) => {
            let thrown = ctx.catch();
            if !state.exiting() {
                print_uncaught(ctx, state, &thrown);
                state.request_exit(7);
            }
            true
        }
    }
}

/// Write `err` to stderr as Node prints an uncaught exception.
pub fn print_uncaught<'js>(ctx: &Ctx<'js>, state: &Shared, err: &Value<'js>) {
    explain_missing_export(ctx, state, err);
    let text = state
        .internal(ctx)
        .and_then(|internal| internal.get::<_, Function>("formatUncaught"))
        .and_then(|format| format.call::<_, String>((err.clone(),)))
        .unwrap_or_else(|_| {
            // Formatting can fail too (e.g. out of memory): fall back to what Rust can read.
            let _ = ctx.catch();
            fallback_text(err)
        });
    output::write_str(
        Stream::Stderr,
        &format!("{}\n", text.trim_end_matches('\n')),
    );
}

fn fallback_text(err: &Value<'_>) -> String {
    if let Some(ex) = err.as_exception() {
        let name: String = ex.get("name").unwrap_or_else(|_| "Error".into());
        let message = ex.message().unwrap_or_default();
        let stack = ex.stack().unwrap_or_default();
        return format!("{name}: {message}\n{stack}");
    }
    match err.as_string().and_then(|s| s.to_string().ok()) {
        Some(s) => format!("Uncaught '{s}'"),
        None => "Uncaught exception".to_string(),
    }
}

/// QuickJS says "Could not find export 'x' in module 'm'" for a bad named import;
/// for a `ws:` module, list what it does export, since the agent cannot see it.
fn explain_missing_export<'js>(ctx: &Ctx<'js>, state: &Shared, err: &Value<'js>) {
    let Some(ex) = err.as_exception() else { return };
    let Some(message) = ex.message() else { return };
    let Some(rest) = message.strip_prefix("Could not find export '") else {
        return;
    };
    let Some((export, rest)) = rest.split_once("' in module '") else {
        return;
    };
    let module = rest.trim_end_matches('\'');
    if module.starts_with('/') && is_commonjs(ctx, state, module) {
        let text = format!(
            "Named export '{export}' not found. The requested module '{module}' is a CommonJS module, which may not support all module.exports as named exports.\nCommonJS modules can always be imported via the default export, for example using:\n\nimport pkg from '{module}';\nconst {{ {export} }} = pkg;\n"
        );
        let _ = ex.set("message", text);
        return;
    }
    let mut text = format!("The module '{module}' does not provide an export named '{export}'");
    if let Some(name) = module.strip_prefix("ws:")
        && let Some(exports) = state.ws_exports.borrow().get(name)
    {
        if exports.is_empty() {
            text.push_str("; it exports no functions");
        } else {
            text.push_str(&format!("; it exports: {}", exports.join(", ")));
        }
    }
    let _ = ex.set("message", text);
}

/// Whether the file `path` is loaded as CommonJS (js/esm.js decides).
fn is_commonjs(ctx: &Ctx<'_>, state: &Shared, path: &str) -> bool {
    let format = state
        .internal(ctx)
        .and_then(|i| i.get::<_, Function>("require"))
        .and_then(|require| require.call::<_, rquickjs::Object>(("esm",)))
        .and_then(|esm| esm.get::<_, Function>("format"))
        .and_then(|f| f.call::<_, String>((path,)));
    match format {
        Ok(f) => f == "commonjs",
        Err(_) => {
            let _ = ctx.catch();
            false
        }
    }
}

/// After a macrotask: if a rejected promise is still unhandled, report it as Node does
/// (uncaught, exit code 1). Returns whether the run is over.
pub fn check_unhandled_rejections<'js>(ctx: &Ctx<'js>, state: &Shared) -> bool {
    let first = {
        let mut rejections = state.rejections.borrow_mut();
        if rejections.is_empty() {
            return false;
        }
        let first = rejections.remove(0);
        rejections.clear();
        first
    };
    let reason = first
        .1
        .restore(ctx)
        .unwrap_or_else(|_| Value::new_undefined(ctx.clone()));
    let promise = first.0.restore(ctx).ok();
    if process_handles(ctx, state, "unhandledRejection", &reason, promise) {
        return state.exiting();
    }
    fatal(ctx, state, reason);
    true
}

/// Track promise rejections (the runtime's rejection tracker): remember unhandled
/// ones, forget those that got a handler later.
pub fn track_rejection<'js>(
    ctx: Ctx<'js>,
    state: &Shared,
    promise: Value<'js>,
    reason: Value<'js>,
    handled: bool,
) {
    let mut rejections = state.rejections.borrow_mut();
    if handled {
        rejections.retain(|(p, _)| {
            p.clone()
                .restore(&ctx)
                .map(|p| p != promise)
                .unwrap_or(false)
        });
    } else {
        rejections.push((
            rquickjs::Persistent::save(&ctx, promise),
            rquickjs::Persistent::save(&ctx, reason),
        ));
    }
}

/// Report an error of the run itself (not of the program), e.g. bad input JSON.
pub fn run_error(message: &str) {
    output::write_str(Stream::Stderr, &format!("Error: {message}\n"));
}

/// An Error object with `message`, for values that must be reported as errors.
pub fn make_error<'js>(ctx: &Ctx<'js>, message: &str) -> Value<'js> {
    Exception::from_message(ctx.clone(), message)
        .map(|e| e.into_value())
        .unwrap_or_else(|_| Value::new_undefined(ctx.clone()))
}
