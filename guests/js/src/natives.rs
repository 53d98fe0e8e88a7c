//! The native object handed to the JS bootstrap (`native` in `js/bootstrap.js`): the
//! few things JavaScript cannot do by itself (output, clocks, randomness, timers,
//! stdin, encodings, exit) plus `native.fs` (see `fs_native.rs`) and `native.wsCall`.

use rquickjs::function::Opt;
use rquickjs::promise::PromiseState;
use rquickjs::{
    ArrayBuffer, BigInt, Ctx, Exception, Function, Object, Result, TypedArray, Value, qjs,
};

use crate::encoding::{self, Encoding};
use crate::output::{self, Stream};
use crate::state::Shared;
use crate::wasi::cli::{environment, stdin};
use crate::wasi::clocks::monotonic_clock;
use crate::wasi::random::random;
use crate::{
    builtins, child_native, event_loop, fs_native, http_native, modules_ws, paths, report,
};

/// Add a native function to `obj`.
pub fn set_fn<'js, P, F>(obj: &Object<'js>, name: &str, f: F) -> Result<()>
where
    F: rquickjs::function::IntoJsFunc<'js, P> + 'js,
{
    let func = Function::new(obj.ctx().clone(), f)?.with_name(name)?;
    obj.set(name, func)
}

/// The bytes of a string (UTF-8) or of a `Uint8Array` (including `Buffer`).
pub fn bytes_of<'js>(ctx: &Ctx<'js>, value: &Value<'js>) -> Result<Vec<u8>> {
    if let Some(s) = value.as_string() {
        return Ok(s.to_string()?.into_bytes());
    }
    if let Ok(array) = TypedArray::<u8>::from_value(value.clone()) {
        // SAFETY: the slice is copied before any JS can run again.
        return Ok(unsafe { array.as_bytes() }
            .map(<[u8]>::to_vec)
            .unwrap_or_default());
    }
    Err(Exception::throw_type(
        ctx,
        "expected a string or a Uint8Array",
    ))
}

fn encoding_arg(ctx: &Ctx<'_>, name: Opt<String>) -> Result<Encoding> {
    match name.0 {
        None => Ok(Encoding::Utf8),
        Some(n) => Encoding::parse(&n)
            .ok_or_else(|| Exception::throw_type(ctx, &format!("Unknown encoding: {n}"))),
    }
}

/// End the run with `code`: record it, then throw an exception that no `catch` or
/// `finally` can intercept, so no more JS runs (the interrupt handler backs this up).
pub fn exit_now(ctx: &Ctx<'_>, state: &Shared, code: i32) -> rquickjs::Error {
    state.request_exit(code);
    match Exception::from_message(ctx.clone(), "process.exit") {
        Ok(err) => {
            let value = err.into_value();
            // SAFETY: `value` is a live Error object of this context.
            unsafe { qjs::JS_SetUncatchableError(ctx.as_raw().as_ptr(), value.as_raw()) };
            ctx.throw(value)
        }
        Err(e) => e,
    }
}

/// xorshift64* over a seed from `wasi:random`, taken once per run on first use, so
/// `Math.random` is replayable and costs one host call at most.
fn next_random(state: &Shared) -> f64 {
    let mut x = match state.random_state.get() {
        Some(x) => x,
        None => random::get_random_u64() | 1,
    };
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    state.random_state.set(Some(x));
    let v = x.wrapping_mul(0x2545_F491_4F6C_DD1D);
    (v >> 11) as f64 / (1u64 << 53) as f64
}

pub fn create<'js>(ctx: &Ctx<'js>, state: &Shared) -> Result<Object<'js>> {
    let native = Object::new(ctx.clone())?;
    add_process(&native, state)?;
    add_clock_and_timers(&native, state)?;
    add_stdin_and_encoding(&native, state)?;
    add_runtime(&native)?;
    native.set("fs", fs_native::create(ctx, state)?)?;
    native.set("module", crate::module_native::create(ctx, state)?)?;
    native.set("child", child_native::create(ctx, state)?)?;
    native.set("http", http_native::create(ctx, state)?)?;
    native.set("crypto", crate::crypto_native::create(ctx, state)?)?;
    native.set("zlib", crate::zlib_native::create(ctx, state)?)?;
    Ok(native)
}

/// What the native object says about this run: its argv, the main module's
/// name and whether it is Node's command line. Set when the run starts (the
/// object may be older: see `run::prepare`).
pub fn start_run(
    native: &Object<'_>,
    state: &Shared,
    argv: &[String],
    main_name: &str,
) -> Result<()> {
    native.set("argv", argv.to_vec())?;
    native.set("mainModule", main_name)?;
    // The process facts every guest shares (`computer:workspace/process`).
    let who = crate::computer::workspace::process::get_identity();
    let identity = Object::new(native.ctx().clone())?;
    identity.set("pid", who.pid)?;
    identity.set("ppid", who.ppid)?;
    identity.set("uid", who.uid)?;
    identity.set("gid", who.gid)?;
    identity.set("user", who.user)?;
    identity.set("group", who.group)?;
    native.set("identity", identity)?;
    native.set("nodeMode", state.node_mode.get())
}

/// Output, exit, the environment and the working directory.
fn add_process<'js>(native: &Object<'js>, state: &Shared) -> Result<()> {
    set_fn(
        native,
        "write",
        |ctx: Ctx<'js>, fd: i32, data: Value<'js>| -> Result<()> {
            let bytes = bytes_of(&ctx, &data)?;
            output::write(Stream::from_fd(fd), &bytes);
            Ok(())
        },
    )?;
    let s = state.clone();
    set_fn(
        native,
        "exit",
        move |ctx: Ctx<'js>, code: i32| -> Result<()> { Err(exit_now(&ctx, &s, code)) },
    )?;
    let s = state.clone();
    set_fn(native, "uncaught", move |ctx: Ctx<'js>, err: Value<'js>| {
        report::fatal(&ctx, &s, err);
        Err::<(), _>(exit_now(&ctx, &s, 1))
    })?;

    set_fn(native, "env", |ctx: Ctx<'js>| -> Result<Object<'js>> {
        let env = Object::new(ctx)?;
        for (k, v) in environment::get_environment() {
            env.set(k, v)?;
        }
        Ok(env)
    })?;
    let s = state.clone();
    set_fn(native, "cwd", move || s.cwd())?;
    let s = state.clone();
    set_fn(
        native,
        "chdir",
        move |ctx: Ctx<'js>, dir: String| -> Result<()> {
            let target = paths::resolve(&s.cwd(), &dir);
            fs_native::require_directory(&ctx, &target)?;
            let target = if target.len() > 1 {
                target.trim_end_matches('/').to_string()
            } else {
                target
            };
            *s.cwd.borrow_mut() = target;
            Ok(())
        },
    )?;
    Ok(())
}

/// The monotonic clock, randomness and timers.
fn add_clock_and_timers<'js>(native: &Object<'js>, state: &Shared) -> Result<()> {
    set_fn(native, "monotonicNs", |ctx: Ctx<'js>| {
        BigInt::from_u64(ctx, monotonic_clock::now())
    })?;
    let s = state.clone();
    set_fn(native, "random", move || next_random(&s))?;
    set_fn(native, "randomBytes", |ctx: Ctx<'js>, n: u32| {
        ArrayBuffer::new(ctx, random::get_random_bytes(n as u64))
    })?;

    let s = state.clone();
    set_fn(
        native,
        "setTimer",
        move |ctx: Ctx<'js>, f: Function<'js>, delay: Opt<f64>, repeat: Opt<bool>| {
            event_loop::set_timer(
                &s,
                &ctx,
                f,
                delay.0.unwrap_or(0.0),
                repeat.0.unwrap_or(false),
            )
        },
    )?;
    let s = state.clone();
    set_fn(
        native,
        "setImmediate",
        move |ctx: Ctx<'js>, f: Function<'js>| event_loop::set_immediate(&s, &ctx, f),
    )?;
    let s = state.clone();
    set_fn(native, "queueIo", move |ctx: Ctx<'js>, f: Function<'js>| {
        event_loop::queue_io(&s, &ctx, f)
    })?;
    let s = state.clone();
    set_fn(native, "refTimer", move |id: f64, keeps_alive: bool| {
        event_loop::set_ref(&s, id as u32, keeps_alive)
    })?;
    let s = state.clone();
    set_fn(native, "ticksQueued", move || s.ticks_pending.set(true))?;
    let s = state.clone();
    set_fn(native, "clearTimer", move |id: Value<'js>| {
        if let Some(id) = id.as_number() {
            event_loop::clear_timer(&s, id as u32);
        }
    })?;
    Ok(())
}

/// `stdinRead`, and the text encodings: `encode`, `decode`, `isBase64`, `isUtf8`.
fn add_stdin_and_encoding<'js>(native: &Object<'js>, state: &Shared) -> Result<()> {
    let s = state.clone();
    set_fn(
        native,
        "stdinRead",
        move |ctx: Ctx<'js>, max: Opt<u32>| -> Result<Value<'js>> {
            match read_stdin(&s, max.0.unwrap_or(65536) as u64) {
                Some(chunk) => Ok(ArrayBuffer::new(ctx, chunk)?.into_value()),
                None => Ok(Value::new_null(ctx)),
            }
        },
    )?;

    set_fn(
        native,
        "encode",
        |ctx: Ctx<'js>, text: String, enc: Opt<String>| -> Result<ArrayBuffer<'js>> {
            let enc = encoding_arg(&ctx, enc)?;
            ArrayBuffer::new(ctx, encoding::encode_str(&text, enc))
        },
    )?;
    set_fn(
        native,
        "decode",
        |ctx: Ctx<'js>, data: Value<'js>, enc: Opt<String>| -> Result<String> {
            let enc = encoding_arg(&ctx, enc)?;
            Ok(encoding::decode(&bytes_of(&ctx, &data)?, enc))
        },
    )?;
    set_fn(native, "isBase64", |text: String| {
        encoding::is_valid_base64(&text.encode_utf16().collect::<Vec<u16>>())
    })?;

    set_fn(
        native,
        "isUtf8",
        |ctx: Ctx<'js>, data: Value<'js>| -> Result<bool> {
            Ok(std::str::from_utf8(&bytes_of(&ctx, &data)?).is_ok())
        },
    )?;
    Ok(())
}

/// Promise inspection, built-in module compilation and workspace module calls.
fn add_runtime<'js>(native: &Object<'js>) -> Result<()> {
    // [state, value] of a promise, for util.inspect.
    set_fn(
        native,
        "promiseInfo",
        |ctx: Ctx<'js>, value: Value<'js>| -> Result<Value<'js>> {
            let Some(promise) = value.as_promise() else {
                return Ok(Value::new_null(ctx));
            };
            let (state, result) = match promise.state() {
                PromiseState::Pending => ("pending", Value::new_undefined(ctx.clone())),
                PromiseState::Resolved => (
                    "fulfilled",
                    promise
                        .result::<Value>()
                        .and_then(Result::ok)
                        .unwrap_or_else(|| Value::new_undefined(ctx.clone())),
                ),
                PromiseState::Rejected => {
                    let reason = match promise.result::<Value>() {
                        Some(Err(_)) => ctx.catch(),
                        _ => Value::new_undefined(ctx.clone()),
                    };
                    ("rejected", reason)
                }
            };
            let pair = rquickjs::Array::new(ctx.clone())?;
            pair.set(0, state)?;
            pair.set(1, result)?;
            Ok(pair.into_value())
        },
    )?;
    // util.types.isProxy: only the engine can tell.
    // SAFETY: reads the tag of a live value.
    set_fn(native, "isProxy", |value: Value<'js>| unsafe {
        qjs::JS_IsProxy(value.as_raw())
    })?;
    set_fn(native, "compile", |ctx: Ctx<'js>, name: String| {
        builtins::compile(&ctx, &name)
    })?;
    set_fn(
        native,
        "wsCall",
        |ctx: Ctx<'js>, module: String, function: String, args: String| {
            modules_ws::call(&ctx, &module, &function, &args)
        },
    )?;
    Ok(())
}

/// Read up to `max` bytes of stdin, blocking; `None` at its end.
pub fn read_stdin(state: &Shared, max: u64) -> Option<Vec<u8>> {
    if state.stdin_done.get() {
        return None;
    }
    let stream = stdin::get_stdin();
    loop {
        match stream.blocking_read(max) {
            // An empty read is allowed before data arrives; keep waiting.
            Ok(chunk) if chunk.is_empty() => continue,
            Ok(chunk) => return Some(chunk),
            Err(_) => {
                state.stdin_done.set(true);
                return None;
            }
        }
    }
}

/// All of stdin that is left (for `fs.readFileSync(0)`).
pub fn read_stdin_all(state: &Shared) -> Vec<u8> {
    let mut all = Vec::new();
    while let Some(chunk) = read_stdin(state, 1 << 16) {
        all.extend_from_slice(&chunk);
    }
    all
}
