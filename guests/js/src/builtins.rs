//! The JavaScript half of the guest: the bootstrap and the Node-compatible modules
//! from `js/*.js`, compiled to QuickJS bytecode by `build.rs` and embedded. Modules
//! are instantiated on first use, so a run only pays for what it touches.
//!
//! Every file except the bootstrap is a CommonJS-style body, wrapped (see `wrap.rs`)
//! as `function (exports, require, module, native)`; `require` is the internal one of
//! `bootstrap.js` and only reaches these files.

use rquickjs::{Ctx, Error, Exception, Function, Object, Result, Value, qjs};

use crate::modules_ws::json_string;
use crate::wrap;

/// The bytecode of each file of `wrap::FILES` (the table is written by build.rs).
const BYTECODE: &[(&str, &[u8])] = include!(concat!(env!("OUT_DIR"), "/bytecode.rs"));

/// Run the compiled script `name`, which evaluates to its wrapper function.
fn load<'js>(ctx: &Ctx<'js>, name: &str) -> Result<Function<'js>> {
    let Some((_, bytes)) = BYTECODE.iter().find(|(n, _)| *n == name) else {
        return Err(Exception::throw_internal(
            ctx,
            &format!("no built-in module '{name}'"),
        ));
    };
    let raw = ctx.as_raw().as_ptr();
    // SAFETY: the bytes were written by JS_WriteObject of the same QuickJS version
    // (build.rs); JS_EvalFunction takes ownership of the function object.
    let value = unsafe {
        let func = qjs::JS_ReadObject(
            raw,
            bytes.as_ptr(),
            bytes.len() as _,
            qjs::JS_READ_OBJ_BYTECODE as i32,
        );
        if qjs::JS_VALUE_GET_TAG(func) == qjs::JS_TAG_EXCEPTION {
            return Err(Error::Exception);
        }
        let result = qjs::JS_EvalFunction(raw, func);
        if qjs::JS_VALUE_GET_TAG(result) == qjs::JS_TAG_EXCEPTION {
            return Err(Error::Exception);
        }
        Value::from_raw(ctx.clone(), result)
    };
    value.into_function().ok_or_else(|| {
        Exception::throw_internal(ctx, &format!("built-in '{name}' is not a function"))
    })
}

/// The bootstrap function, `function (native)`.
pub fn bootstrap<'js>(ctx: &Ctx<'js>) -> Result<Function<'js>> {
    load(ctx, "bootstrap")
}

/// `native.compile(name)`: the wrapper function of the internal module `name`.
pub fn compile<'js>(ctx: &Ctx<'js>, name: &str) -> Result<Function<'js>> {
    if name == "bootstrap" || !wrap::FILES.contains(&name) {
        return Err(Exception::throw_internal(
            ctx,
            &format!("no built-in module '{name}'"),
        ));
    }
    load(ctx, name)
}

/// Import specifiers of the built-in ES modules, and the internal module behind each.
/// The `node:` prefix is optional, as in Node.
const ES_MODULES: &[(&str, &str)] = &[
    ("assert", "assert"),
    ("assert/strict", "assert/strict"),
    ("buffer", "buffer"),
    ("child_process", "child_process"),
    ("events", "events"),
    ("fs", "fs"),
    ("fs/promises", "fs/promises"),
    ("module", "cjs"),
    ("path", "path"),
    ("path/posix", "path"),
    ("process", "process"),
    ("test", "test"),
    ("readline", "readline"),
    ("readline/promises", "readline_promises"),
    ("stream", "stream"),
    ("stream/promises", "stream_promises"),
    ("string_decoder", "string_decoder"),
    ("util", "util"),
    ("crypto", "crypto"),
    ("os", "os"),
    ("querystring", "querystring"),
    ("timers", "timers"),
    ("tty", "tty"),
    ("timers/promises", "timers_promises"),
    ("url", "url"),
    ("zlib", "zlib"),
];

/// The canonical `node:` name for an import specifier of a built-in module.
pub fn canonical_name(specifier: &str) -> Option<String> {
    let bare = specifier.strip_prefix("node:").unwrap_or(specifier);
    ES_MODULES
        .iter()
        .find(|(name, _)| *name == bare)
        .map(|(name, _)| format!("node:{name}"))
}

/// The internal module behind the public name `specifier` (with or without `node:`).
pub fn internal_name(specifier: &str) -> Option<&'static str> {
    let bare = specifier.strip_prefix("node:").unwrap_or(specifier);
    ES_MODULES
        .iter()
        .find(|(name, _)| *name == bare)
        .map(|(_, target)| *target)
}

/// The public names without `node:` (Node's `builtinModules`).
pub fn public_names() -> Vec<&'static str> {
    ES_MODULES.iter().map(|(name, _)| *name).collect()
}

/// The public specifiers, for error messages.
pub fn names() -> Vec<String> {
    ES_MODULES
        .iter()
        .map(|(name, _)| format!("node:{name}"))
        .collect()
}

fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
}

/// The source of the ES module `node:<name>`: the internal module's exports, as the
/// default export and as named exports.
pub fn module_source<'js>(
    ctx: &Ctx<'js>,
    internal: &Object<'js>,
    canonical: &str,
) -> Result<String> {
    let bare = canonical.trim_start_matches("node:");
    let target = ES_MODULES
        .iter()
        .find(|(n, _)| *n == bare)
        .map_or(bare, |(_, t)| t);
    let require: Function = internal.get("require")?;
    let exports: Object = require.call((target,))?;
    let mut src = format!(
        "const __m = globalThis[Symbol.for('computer.internal')].require({});\nexport default __m;\n",
        json_string(target)
    );
    // Aliased exports, so that a key that is a reserved word still works.
    for (i, key) in exports.keys::<String>().enumerate() {
        let key = key?;
        if is_identifier(&key) && key != "default" {
            src.push_str(&format!(
                "const __e{i} = __m.{key};\nexport {{ __e{i} as {key} }};\n"
            ));
        }
    }
    let _ = ctx;
    Ok(src)
}
