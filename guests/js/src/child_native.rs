//! `native.child`: command invocations over `computer:workspace/commands`, for
//! `node:child_process` (`js/child_process.js`).
//!
//! A command runs only inside `invocation.next`, so the async forms are driven by
//! the JS event loop calling `next` one event at a time (or `poll-next`, when the
//! program has other work and its children run beside it), and the sync forms run
//! to the end here in one call.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use rquickjs::function::Opt;
use rquickjs::{Array, ArrayBuffer, Ctx, Exception, Object, Result, Value};

use crate::computer::workspace::commands::{
    self, Event, Invocation, InvocationRequest, StartError,
};
use crate::natives::{bytes_of, set_fn};
use crate::output::{self, Stream};
use crate::state::Shared;

/// The live invocations of a run, by the id JS holds. Dropping one stops its command.
#[derive(Default)]
struct Table {
    next_id: u32,
    live: HashMap<u32, Invocation>,
}

type Invocations = Rc<RefCell<Table>>;

/// What the JS side passes to start a command.
struct Spec {
    name: String,
    argv: Vec<String>,
    env: Vec<(String, String)>,
    cwd: String,
}

impl Spec {
    fn from_js(name: String, argv: Vec<String>, env: Array<'_>, cwd: String) -> Result<Spec> {
        let mut pairs = Vec::with_capacity(env.len());
        for pair in env.iter::<Vec<String>>() {
            let mut pair = pair?.into_iter();
            if let (Some(k), Some(v)) = (pair.next(), pair.next()) {
                pairs.push((k, v));
            }
        }
        Ok(Spec {
            name,
            argv,
            env: pairs,
            cwd,
        })
    }

    fn start(&self) -> std::result::Result<Invocation, StartError> {
        Invocation::start(&InvocationRequest {
            name: self.name.clone(),
            argv: self.argv.clone(),
            env: self.env.clone(),
            cwd: self.cwd.clone(),
        })
    }
}

/// A start error as `{error, message}` for JS: `not-found` becomes node's ENOENT there.
fn start_error<'js>(ctx: &Ctx<'js>, e: StartError) -> Result<Value<'js>> {
    let (kind, message) = match e {
        StartError::NotFound => ("not-found", String::new()),
        StartError::TooDeep(n) => (
            "too-deep",
            format!("commands running commands went deeper than the host allows ({n})"),
        ),
        StartError::Failed(m) => ("failed", m),
    };
    let obj = Object::new(ctx.clone())?;
    obj.set("error", kind)?;
    obj.set("message", message)?;
    Ok(obj.into_value())
}

pub fn create<'js>(ctx: &Ctx<'js>, state: &Shared) -> Result<Object<'js>> {
    let child = Object::new(ctx.clone())?;
    let table: Invocations = Rc::default();
    add_async(&child, &table, state)?;
    add_sync(&child)?;
    set_fn(&child, "list", || {
        commands::list_commands()
            .into_iter()
            .map(|c| c.name)
            .collect::<Vec<String>>()
    })?;
    Ok(child)
}

/// `start`, `next`, `pollNext`, `feed`, `drop`: one invocation driven step by
/// step; `othersPending`: whether the event loop has work besides children.
fn add_async<'js>(child: &Object<'js>, table: &Invocations, state: &Shared) -> Result<()> {
    let t = table.clone();
    set_fn(
        child,
        "start",
        move |ctx: Ctx<'js>, name: String, argv: Vec<String>, env: Array<'js>, cwd: String| {
            let spec = Spec::from_js(name, argv, env, cwd)?;
            match spec.start() {
                Ok(inv) => {
                    let mut t = t.borrow_mut();
                    t.next_id = t.next_id.wrapping_add(1).max(1);
                    let id = t.next_id;
                    t.live.insert(id, inv);
                    Ok(Value::new_int(ctx, id as i32))
                }
                Err(e) => start_error(&ctx, e),
            }
        },
    )?;
    let t = table.clone();
    set_fn(child, "next", move |ctx: Ctx<'js>, id: u32| {
        let event = {
            let t = t.borrow();
            let Some(inv) = t.live.get(&id) else {
                return Err(Exception::throw_internal(&ctx, "no such invocation"));
            };
            inv.next()
        };
        event_object(&ctx, event)
    })?;
    let t = table.clone();
    set_fn(
        child,
        "pollNext",
        move |ctx: Ctx<'js>, id: u32, wait_ms: u32| {
            let event = {
                let t = t.borrow();
                let Some(inv) = t.live.get(&id) else {
                    return Err(Exception::throw_internal(&ctx, "no such invocation"));
                };
                inv.poll_next(wait_ms)
            };
            match event {
                Some(event) => event_object(&ctx, event),
                None => Ok(Value::new_null(ctx)),
            }
        },
    )?;
    let s = state.clone();
    set_fn(child, "othersPending", move || !s.timers.borrow().is_idle())?;
    let t = table.clone();
    set_fn(
        child,
        "feed",
        move |ctx: Ctx<'js>, id: u32, data: Value<'js>| -> Result<()> {
            let bytes = bytes_of(&ctx, &data)?;
            if let Some(inv) = t.borrow().live.get(&id) {
                inv.feed(&bytes);
            }
            Ok(())
        },
    )?;
    let t = table.clone();
    set_fn(child, "drop", move |id: u32| {
        t.borrow_mut().live.remove(&id);
    })?;
    Ok(())
}

/// `{type, data}`: `stdout`/`stderr` with an ArrayBuffer, `stdin`, `exit` with the code.
fn event_object<'js>(ctx: &Ctx<'js>, event: Event) -> Result<Value<'js>> {
    let obj = Object::new(ctx.clone())?;
    match event {
        Event::Stdout(b) => {
            obj.set("type", "stdout")?;
            obj.set("data", ArrayBuffer::new(ctx.clone(), b)?)?;
        }
        Event::Stderr(b) => {
            obj.set("type", "stderr")?;
            obj.set("data", ArrayBuffer::new(ctx.clone(), b)?)?;
        }
        Event::StdinWanted => obj.set("type", "stdin")?,
        Event::Exited(code) => {
            obj.set("type", "exit")?;
            obj.set("data", code)?;
        }
    }
    Ok(obj.into_value())
}

/// Where one output stream of a synchronous run goes.
#[derive(Clone, Copy, PartialEq)]
enum Sink {
    Pipe,
    Inherit,
    Ignore,
}

impl Sink {
    fn parse(s: &str) -> Sink {
        match s {
            "inherit" => Sink::Inherit,
            "ignore" => Sink::Ignore,
            _ => Sink::Pipe,
        }
    }

    fn take(self, buf: &mut Vec<u8>, data: &[u8], stream: Stream) {
        match self {
            Sink::Pipe => buf.extend_from_slice(data),
            Sink::Inherit => output::write(stream, data),
            Sink::Ignore => {}
        }
    }
}

/// `runSync(name, argv, env, cwd, input, stdout, stderr)`: runs the command to its
/// end, feeding `input` (then end of input; `null` input with `stdin: 'inherit'` is
/// not forwarded, the child just sees its end). Returns `{status, stdout, stderr}`
/// or a start error.
fn add_sync<'js>(child: &Object<'js>) -> Result<()> {
    set_fn(
        child,
        "runSync",
        |ctx: Ctx<'js>,
         spec: Array<'js>,
         input: Value<'js>,
         out_sink: String,
         err_sink: String,
         max_buffer: Opt<f64>| {
            let spec = Spec::from_js(spec.get(0)?, spec.get(1)?, spec.get(2)?, spec.get(3)?)?;
            let input = if input.is_null() || input.is_undefined() {
                Vec::new()
            } else {
                bytes_of(&ctx, &input)?
            };
            let inv = match spec.start() {
                Ok(inv) => inv,
                Err(e) => return start_error(&ctx, e),
            };
            let limit = max_buffer.0.filter(|m| m.is_finite()).map(|m| m as usize);
            let (out, err, status) = run_to_end(
                &inv,
                &input,
                (Sink::parse(&out_sink), Sink::parse(&err_sink)),
                limit,
            );
            drop(inv);
            let obj = Object::new(ctx.clone())?;
            match status {
                Some(code) => obj.set("status", code)?,
                None => obj.set("overflow", true)?,
            }
            obj.set("stdout", ArrayBuffer::new(ctx.clone(), out)?)?;
            obj.set("stderr", ArrayBuffer::new(ctx.clone(), err)?)?;
            Ok(obj.into_value())
        },
    )
}

/// Drive `inv` to its exit; `None` as the status when a piped stream went past
/// `limit` (node's maxBuffer), which stops the command.
fn run_to_end(
    inv: &Invocation,
    input: &[u8],
    (out_sink, err_sink): (Sink, Sink),
    limit: Option<usize>,
) -> (Vec<u8>, Vec<u8>, Option<i32>) {
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let mut fed = false;
    loop {
        match inv.next() {
            Event::Stdout(b) => out_sink.take(&mut out, &b, Stream::Stdout),
            Event::Stderr(b) => err_sink.take(&mut err, &b, Stream::Stderr),
            Event::StdinWanted => {
                // All the input at once, then its end.
                if !fed && !input.is_empty() {
                    inv.feed(input);
                } else {
                    inv.feed(&[]);
                }
                fed = true;
            }
            Event::Exited(code) => return (out, err, Some(code)),
        }
        if limit.is_some_and(|l| out.len() > l || err.len() > l) {
            return (out, err, None);
        }
    }
}
