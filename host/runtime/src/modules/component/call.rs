//! One call of a module function: JSON arguments to component values, a
//! fresh instance to run it in, and the result back to JSON.

use serde_json::{Map as JsonMap, Value};
use wasmtime::component::{Type, Val};

use super::log::LogStream;
use super::state::new_store;
use super::{ComponentModule, Func};
use crate::error::one_line;
use crate::host::modules::ModuleCallError;
use crate::modules::call_context::CallContext;
use crate::modules::component_json::{self, JsonPath};

impl Func {
    /// `name: type, ...`, for error messages.
    fn signature(&self) -> String {
        self.info
            .params
            .iter()
            .map(|p| format!("{}: {}", p.name, p.type_desc))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The JSON argument of each parameter, if given: from a positional
    /// array, `null` for no parameters, or an object keyed by parameter
    /// name (for more than one parameter).
    fn slots<'a>(
        &self,
        label: &str,
        args: &'a Value,
    ) -> Result<Vec<Option<&'a Value>>, ModuleCallError> {
        let n = self.params.len();
        let mut slots: Vec<Option<&Value>> = vec![None; n];
        match args {
            Value::Array(items) => {
                if items.len() > n {
                    return Err(ModuleCallError::BadArguments(format!(
                        "{label}: takes {n} argument{} ({}), got {}",
                        if n == 1 { "" } else { "s" },
                        self.signature(),
                        items.len()
                    )));
                }
                for (slot, item) in slots.iter_mut().zip(items) {
                    *slot = Some(item);
                }
            }
            Value::Null if n == 0 => {}
            Value::Object(obj) if n > 1 => self.named_slots(label, obj, &mut slots)?,
            _ => {
                return Err(ModuleCallError::BadArguments(format!(
                    "{label}: arguments must be a JSON array ({}), got {}",
                    self.signature(),
                    match args {
                        Value::Object(_) => "an object".to_owned(),
                        other => other.to_string(),
                    }
                )));
            }
        }
        Ok(slots)
    }

    /// Fills `slots` from an object keyed by parameter name (kebab-case or
    /// camelCase); other keys are an error.
    fn named_slots<'a>(
        &self,
        label: &str,
        obj: &'a JsonMap<String, Value>,
        slots: &mut [Option<&'a Value>],
    ) -> Result<(), ModuleCallError> {
        let names: Vec<&str> = self.params.iter().map(|(p, _)| p.as_str()).collect();
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
                self.signature()
            )));
        }
        for (slot, name) in slots.iter_mut().zip(&names) {
            *slot = obj
                .get(*name)
                .or_else(|| obj.get(&component_json::camel_case(name)));
        }
        Ok(())
    }
}

impl ComponentModule {
    fn label(&self, func: &Func) -> String {
        format!("{}.{}", self.inner.name, func.info.name)
    }

    /// Converts the JSON arguments of `func`: a positional array (trailing
    /// `option` parameters may be left out), or, for a function of more
    /// than one parameter, an object keyed by parameter name.
    pub(super) fn arguments(&self, func: &Func, args: &Value) -> Result<Vec<Val>, ModuleCallError> {
        let label = self.label(func);
        let slots = func.slots(&label, args)?;
        let mut vals = Vec::with_capacity(slots.len());
        for ((pname, pty), slot) in func.params.iter().zip(slots) {
            let val = match slot {
                Some(v) => component_json::from_json(pty, v, &mut JsonPath::root(pname))
                    .map_err(|e| ModuleCallError::BadArguments(format!("{label}: {e}")))?,
                None if matches!(pty, Type::Option(_)) => Val::Option(None),
                None => {
                    return Err(ModuleCallError::BadArguments(format!(
                        "{label}: missing argument {pname} ({}); the parameters are: {}",
                        component_json::describe(pty),
                        func.signature()
                    )));
                }
            };
            vals.push(val);
        }
        Ok(vals)
    }

    /// The call's JSON value from the function's result: a top-level
    /// `result<T, E>` is unwrapped (`err` becomes `ErrorValue`).
    pub(super) fn result(&self, func: &Func, results: Vec<Val>) -> Result<Value, ModuleCallError> {
        let failed = |e: component_json::JsonError| {
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
    pub(super) fn run(
        &self,
        func: &Func,
        params: &[Val],
        ctx: &mut CallContext,
    ) -> Result<Vec<Val>, ModuleCallError> {
        let inner = &*self.inner;
        let label = self.label(func);
        let stdout = LogStream::new(inner.name.clone(), "stdout");
        let stderr = LogStream::new(inner.name.clone(), "stderr");
        // The caller's context, moved in for the call and back out after.
        let mut call_ctx = std::mem::replace(ctx, CallContext::detached(String::new(), "", ""));
        if call_ctx.config().is_empty() && !inner.config.is_empty() {
            call_ctx = call_ctx.with_config(inner.config.clone());
        }
        let mut store = new_store(inner, &self.limits, call_ctx, &stdout, &stderr);
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
            Err(e) => Err(state
                .stop
                .unwrap_or_else(|| self.failure(&label, state.timed_out, state.limiter.hit, &e))),
        }
    }

    /// Why a call that trapped without the host stopping it failed: it ran
    /// out of time or memory, it exited, or it trapped.
    fn failure(
        &self,
        label: &str,
        timed_out: bool,
        memory_hit: bool,
        e: &wasmtime::Error,
    ) -> ModuleCallError {
        let limits = &self.limits;
        if timed_out {
            ModuleCallError::Failed(format!("{label} timed out after {:?}", limits.timeout))
        } else if memory_hit {
            ModuleCallError::Failed(format!(
                "{label} exceeded its memory limit ({} MiB)",
                limits.memory_bytes >> 20
            ))
        } else if let Some(exit) = e.downcast_ref::<wasmtime_wasi::I32Exit>() {
            ModuleCallError::Failed(format!("{label} called exit({})", exit.0))
        } else {
            let what = match e.downcast_ref::<wasmtime::Trap>() {
                Some(t) => t.to_string(),
                None => one_line(e),
            };
            ModuleCallError::Failed(format!("{label} trapped: {what}"))
        }
    }
}
