//! Component values -> JSON.

use serde_json::{Map as JsonMap, Number, Value};
use wasmtime::component::Val;

use super::JsonResult;

fn float(f: f64) -> Value {
    Number::from_f64(f).map_or(Value::Null, Value::Number)
}

/// Converts a component value to JSON. Fails only on values that cannot
/// cross JSON (resources, futures, streams), which loading refuses.
pub(crate) fn to_json(v: &Val) -> JsonResult<Value> {
    Ok(match v {
        Val::Bool(b) => Value::Bool(*b),
        Val::S8(n) => (*n).into(),
        Val::U8(n) => (*n).into(),
        Val::S16(n) => (*n).into(),
        Val::U16(n) => (*n).into(),
        Val::S32(n) => (*n).into(),
        Val::U32(n) => (*n).into(),
        Val::S64(n) => (*n).into(),
        Val::U64(n) => (*n).into(),
        // Through its shortest decimal form, so 0.1f32 is 0.1, not 0.10000000149011612.
        Val::Float32(f) => float(f.to_string().parse::<f64>().unwrap_or(f64::NAN)),
        Val::Float64(f) => float(*f),
        Val::Char(c) => Value::String(c.to_string()),
        Val::String(s) => Value::String(s.clone()),
        Val::List(items) | Val::Tuple(items) | Val::FixedLengthList(items) => {
            Value::Array(items.iter().map(to_json).collect::<Result<_, _>>()?)
        }
        Val::Map(pairs) => map(pairs)?,
        Val::Record(fields) => {
            let mut obj = JsonMap::new();
            for (name, item) in fields {
                obj.insert(name.clone(), to_json(item)?);
            }
            Value::Object(obj)
        }
        Val::Variant(name, None) => Value::String(name.clone()),
        Val::Variant(name, Some(payload)) => single(name, to_json(payload)?),
        Val::Enum(name) => Value::String(name.clone()),
        Val::Option(None) => Value::Null,
        Val::Option(Some(inner)) => to_json(inner)?,
        Val::Result(r) => result(r)?,
        Val::Flags(names) => Value::Array(names.iter().cloned().map(Value::String).collect()),
        Val::Resource(_) => return Err("a resource handle cannot be returned as JSON".into()),
        Val::Future(_) => return Err("a future cannot be returned as JSON".into()),
        Val::Stream(_) => return Err("a stream cannot be returned as JSON".into()),
        Val::ErrorContext(_) => return Err("an error-context cannot be returned as JSON".into()),
    })
}

/// An object with one entry.
fn single(key: &str, value: Value) -> Value {
    let mut obj = JsonMap::new();
    obj.insert(key.to_owned(), value);
    Value::Object(obj)
}

/// An object when every key is a string, else an array of `[key, value]`
/// pairs.
fn map(pairs: &[(Val, Val)]) -> JsonResult<Value> {
    if pairs.iter().all(|(k, _)| matches!(k, Val::String(_))) {
        let mut obj = JsonMap::new();
        for (k, item) in pairs {
            if let Val::String(k) = k {
                obj.insert(k.clone(), to_json(item)?);
            }
        }
        Ok(Value::Object(obj))
    } else {
        Ok(Value::Array(
            pairs
                .iter()
                .map(|(k, item)| Ok(Value::Array(vec![to_json(k)?, to_json(item)?])))
                .collect::<JsonResult<_>>()?,
        ))
    }
}

/// `{"ok": payload}` or `{"err": payload}` (`null` without a payload).
fn result(r: &Result<Option<Box<Val>>, Option<Box<Val>>>) -> JsonResult<Value> {
    let (key, payload) = match r {
        Ok(p) => ("ok", p),
        Err(p) => ("err", p),
    };
    let payload = match payload {
        Some(p) => to_json(p)?,
        None => Value::Null,
    };
    Ok(single(key, payload))
}
