//! `native.module`: what the CommonJS loader (`js/cjs.js`) needs from Rust. Module
//! resolution probes many paths, so `kind` answers without building an exception for
//! every miss; `compile` turns a wrapped module body into a function whose stack frames
//! carry the file's name.

use rquickjs::context::EvalOptions;
use rquickjs::promise::PromiseState;
use rquickjs::{Ctx, Exception, Module, Object, Promise, Result, Value};

use crate::builtins;
use crate::computer::workspace::fs::{self, ErrorCode, NodeKind};
use crate::fs_native;
use crate::natives::set_fn;
use crate::state::Shared;

pub fn create<'js>(ctx: &Ctx<'js>, state: &Shared) -> Result<Object<'js>> {
    let obj = Object::new(ctx.clone())?;
    // "file", "directory", or null when nothing is there (symlinks followed).
    set_fn(
        &obj,
        "kind",
        |ctx: Ctx<'js>, path: String| -> Result<Value<'js>> {
            match fs::stat(&path) {
                Ok(st) => {
                    let name = match st.kind {
                        NodeKind::Directory => "directory",
                        _ => "file",
                    };
                    Ok(rquickjs::String::from_str(ctx, name)?.into_value())
                }
                Err(e)
                    if matches!(
                        e.code,
                        ErrorCode::Enoent
                            | ErrorCode::Enotdir
                            | ErrorCode::Einval
                            | ErrorCode::Eloop
                    ) =>
                {
                    Ok(Value::new_null(ctx))
                }
                Err(e) => Err(fs_native::throw(&ctx, e)),
            }
        },
    )?;
    // A file as text, as Node reads module sources: UTF-8, a leading BOM dropped.
    set_fn(
        &obj,
        "readText",
        |ctx: Ctx<'js>, path: String| -> Result<String> {
            let bytes = fs_native::read_all(&path).map_err(|e| fs_native::throw(&ctx, e))?;
            let text = String::from_utf8_lossy(&bytes);
            Ok(text.strip_prefix('\u{feff}').unwrap_or(&text).to_owned())
        },
    )?;
    // Evaluate `source` as a sloppy-mode global script named `filename`.
    set_fn(
        &obj,
        "compile",
        |ctx: Ctx<'js>, source: String, filename: String| -> Result<Value<'js>> {
            let mut options = EvalOptions::default();
            options.global = true;
            options.strict = false;
            options.filename = Some(filename);
            ctx.eval_with_options(source, options)
        },
    )?;
    // The internal module behind a built-in's public name (`node:fs`, `path/posix`).
    set_fn(
        &obj,
        "builtin",
        |ctx: Ctx<'js>, name: String| -> Result<Value<'js>> {
            match builtins::internal_name(&name) {
                Some(target) => Ok(rquickjs::String::from_str(ctx, target)?.into_value()),
                None => Ok(Value::new_undefined(ctx)),
            }
        },
    )?;
    set_fn(&obj, "builtinNames", builtins::public_names)?;
    // `require()` of an ES module (Node 20.19+): load and evaluate it now and give its
    // namespace. QuickJS settles a module's evaluation through its job queue, so the
    // queue runs here; a module still pending after that has a top-level await.
    let s = state.clone();
    set_fn(
        &obj,
        "importSync",
        move |ctx: Ctx<'js>, path: String| -> Result<Value<'js>> {
            let promise = Module::import(&ctx, path.clone())?;
            if promise.state() == PromiseState::Pending
                && let Err(err) = crate::event_loop::run_jobs(&ctx, &s)
            {
                return Err(ctx.throw(err));
            }
            match promise.state() {
                PromiseState::Resolved => promise
                    .result::<Value>()
                    .unwrap_or_else(|| Ok(Value::new_undefined(ctx.clone()))),
                PromiseState::Rejected => match promise.result::<Value>() {
                    Some(Err(e)) => Err(e),
                    _ => Err(Exception::throw_message(&ctx, "the module failed to load")),
                },
                PromiseState::Pending => {
                    let err = Exception::from_message(
                        ctx.clone(),
                        &format!(
                            "require() cannot be used on an ESM graph with top-level await. Use import() instead. To see where the top-level await comes from, use --experimental-print-required-tla.\n  From {path}"
                        ),
                    )?;
                    err.set("code", "ERR_REQUIRE_ASYNC_MODULE")?;
                    Err(ctx.throw(err.into_value()))
                }
            }
        },
    )?;
    // Parse `source` as an ES module without running it (`node --check`).
    set_fn(
        &obj,
        "checkModule",
        |ctx: Ctx<'js>, source: String, name: String| -> Result<()> {
            Module::declare(ctx, name, source).map(|_| ())
        },
    )?;
    // Evaluate `source` as the ES module `name` (`node --input-type=module -e`): the
    // promise of its evaluation.
    let s = state.clone();
    set_fn(
        &obj,
        "evalModule",
        move |ctx: Ctx<'js>, source: String, name: String| -> Result<Promise<'js>> {
            let module = Module::declare(ctx.clone(), name.clone(), source)?;
            crate::loader::fill_meta(&ctx, &s, &module, &name)?;
            module.eval().map(|(_, promise)| promise)
        },
    )?;
    Ok(obj)
}
