//! JSON -> component values: one function per kind of type.

use serde_json::{Map as JsonMap, Value};
use wasmtime::component::types::{
    Enum, FixedLengthList, Flags, List, Map, Record, ResultType, Tuple, Variant,
};
use wasmtime::component::{Type, Val};

use super::{JsonPath, JsonResult, camel_case, describe, short_desc, show};

/// Converts `v` to a value of `ty`; `path` names the argument for errors.
pub(crate) fn from_json(ty: &Type, v: &Value, path: &mut JsonPath) -> JsonResult<Val> {
    macro_rules! int {
        ($variant:ident, $t:ty) => {
            int::<$t>(ty, v, path, <$t>::MIN.into(), <$t>::MAX.into()).map(Val::$variant)
        };
    }
    match ty {
        Type::Bool => match v {
            Value::Bool(b) => Ok(Val::Bool(*b)),
            _ => path.expected(ty, v),
        },
        Type::S8 => int!(S8, i8),
        Type::U8 => int!(U8, u8),
        Type::S16 => int!(S16, i16),
        Type::U16 => int!(U16, u16),
        Type::S32 => int!(S32, i32),
        Type::U32 => int!(U32, u32),
        Type::S64 => int!(S64, i64),
        Type::U64 => int!(U64, u64),
        Type::Float32 => float32(ty, v, path),
        Type::Float64 => match v {
            Value::Null => Ok(Val::Float64(f64::NAN)),
            Value::Number(n) => Ok(Val::Float64(n.as_f64().unwrap_or(f64::NAN))),
            _ => path.expected(ty, v),
        },
        Type::Char => char(ty, v, path),
        Type::String => match v {
            Value::String(s) => Ok(Val::String(s.clone())),
            _ => path.expected(ty, v),
        },
        Type::List(l) => list(ty, l, v, path),
        Type::FixedLengthList(l) => fixed_length_list(ty, l, v, path),
        Type::Map(m) => map(ty, m, v, path),
        Type::Record(r) => record(ty, r, v, path),
        Type::Tuple(t) => tuple(ty, t, v, path),
        Type::Variant(var) => variant(ty, var, v, path),
        Type::Enum(e) => enumeration(ty, e, v, path),
        Type::Flags(f) => flags(ty, f, v, path),
        Type::Option(o) => match v {
            Value::Null => Ok(Val::Option(None)),
            other => Ok(Val::Option(Some(Box::new(from_json(
                &o.ty(),
                other,
                path,
            )?)))),
        },
        Type::Result(r) => result(ty, r, v, path),
        Type::Own(_) | Type::Borrow(_) | Type::Future(_) | Type::Stream(_) | Type::ErrorContext => {
            path.fail(format!("{} cannot be passed as JSON", describe(ty)))
        }
    }
}

/// An integer JSON number (or a float with no fractional part).
fn integer(v: &Value) -> Option<i128> {
    let n = v.as_number()?;
    if let Some(i) = n.as_i64() {
        return Some(i.into());
    }
    if let Some(u) = n.as_u64() {
        return Some(u.into());
    }
    let f = n.as_f64()?;
    (f.is_finite() && f.fract() == 0.0 && f.abs() < 1.9e19).then_some(f as i128)
}

/// An integer of type `ty`, whose values are `min..=max`.
fn int<T: TryFrom<i128>>(
    ty: &Type,
    v: &Value,
    path: &JsonPath,
    min: i128,
    max: i128,
) -> JsonResult<T> {
    let Some(i) = integer(v) else {
        return path.expected(ty, v);
    };
    T::try_from(i).or_else(|_| {
        path.fail(format!(
            "{} is out of range for {} ({min}..={max})",
            show(v),
            describe(ty),
        ))
    })
}

fn float32(ty: &Type, v: &Value, path: &JsonPath) -> JsonResult<Val> {
    match v {
        Value::Null => Ok(Val::Float32(f32::NAN)),
        Value::Number(n) => {
            let f = n.as_f64().unwrap_or(f64::NAN);
            if f.is_finite() && (f as f32).is_infinite() {
                return path.fail(format!("{} is out of range for f32", show(v)));
            }
            Ok(Val::Float32(f as f32))
        }
        _ => path.expected(ty, v),
    }
}

fn char(ty: &Type, v: &Value, path: &JsonPath) -> JsonResult<Val> {
    let Some(s) = v.as_str() else {
        return path.expected(ty, v);
    };
    let mut chars = s.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => Ok(Val::Char(c)),
        _ => path.fail(format!(
            "expected char (a one-character string), got {}",
            show(v)
        )),
    }
}

/// The elements of an array, each converted to `elem`.
fn elements(elem: &Type, items: &[Value], path: &mut JsonPath) -> JsonResult<Vec<Val>> {
    let mut out = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        out.push(path.index(i, |p| from_json(elem, item, p))?);
    }
    Ok(out)
}

fn list(ty: &Type, l: &List, v: &Value, path: &mut JsonPath) -> JsonResult<Val> {
    let Value::Array(items) = v else {
        return path.expected(ty, v);
    };
    Ok(Val::List(elements(&l.ty(), items, path)?))
}

fn fixed_length_list(
    ty: &Type,
    l: &FixedLengthList,
    v: &Value,
    path: &mut JsonPath,
) -> JsonResult<Val> {
    let Value::Array(items) = v else {
        return path.expected(ty, v);
    };
    if items.len() != l.len() as usize {
        return path.fail(format!(
            "expected {} (an array of {} elements), got {}",
            describe(ty),
            l.len(),
            show(v)
        ));
    }
    Ok(Val::FixedLengthList(elements(&l.ty(), items, path)?))
}

/// A map from an object (string keys) or an array of `[key, value]` pairs.
fn map(ty: &Type, m: &Map, v: &Value, path: &mut JsonPath) -> JsonResult<Val> {
    let (kt, vt) = (m.key(), m.value());
    let mut out = Vec::new();
    match v {
        Value::Object(obj) => {
            for (k, item) in obj {
                let key = path.field(k, |p| from_json(&kt, &Value::String(k.clone()), p))?;
                let val = path.field(k, |p| from_json(&vt, item, p))?;
                out.push((key, val));
            }
        }
        Value::Array(pairs) => {
            for (i, pair) in pairs.iter().enumerate() {
                let Some([k, item]) = pair.as_array().map(Vec::as_slice) else {
                    return path.index(i, |p| {
                        p.fail(format!("expected a [key, value] pair, got {}", show(pair)))
                    });
                };
                let key = path.index(i, |p| p.index(0, |p| from_json(&kt, k, p)))?;
                let val = path.index(i, |p| p.index(1, |p| from_json(&vt, item, p)))?;
                out.push((key, val));
            }
        }
        _ => return path.expected(ty, v),
    }
    Ok(Val::Map(out))
}

/// Looks `name` up in an object by its kebab-case name or its camelCase form.
fn lookup<'a>(obj: &'a JsonMap<String, Value>, name: &str) -> Option<&'a Value> {
    obj.get(name).or_else(|| obj.get(&camel_case(name)))
}

/// Keys of `obj` that are none of `names` (in either spelling).
fn unknown_keys<'a>(obj: &'a JsonMap<String, Value>, names: &[&str]) -> Vec<&'a str> {
    obj.keys()
        .filter(|k| !names.iter().any(|n| *k == n || **k == camel_case(n)))
        .map(String::as_str)
        .collect()
}

/// A record from an object; missing `option` fields are `none`.
fn record(ty: &Type, r: &Record, v: &Value, path: &mut JsonPath) -> JsonResult<Val> {
    let Value::Object(obj) = v else {
        return path.expected(ty, v);
    };
    let names: Vec<&str> = r.fields().map(|f| f.name).collect();
    let unknown = unknown_keys(obj, &names);
    if !unknown.is_empty() {
        return path.fail(format!(
            "unknown field {}; the record's fields are: {}",
            unknown.join(", "),
            names.join(", ")
        ));
    }
    let mut out = Vec::with_capacity(names.len());
    for f in r.fields() {
        let val = match lookup(obj, f.name) {
            Some(item) => path.field(f.name, |p| from_json(&f.ty, item, p))?,
            None if matches!(f.ty, Type::Option(_)) => Val::Option(None),
            None => {
                return path.fail(format!("missing field {} ({})", f.name, short_desc(&f.ty)));
            }
        };
        out.push((f.name.to_owned(), val));
    }
    Ok(Val::Record(out))
}

fn tuple(ty: &Type, t: &Tuple, v: &Value, path: &mut JsonPath) -> JsonResult<Val> {
    let Value::Array(items) = v else {
        return path.expected(ty, v);
    };
    if items.len() != t.types().len() {
        return path.fail(format!(
            "expected {} (an array of {} elements), got {}",
            short_desc(ty),
            t.types().len(),
            show(v)
        ));
    }
    let mut out = Vec::with_capacity(items.len());
    for (i, (elem, item)) in t.types().zip(items).enumerate() {
        out.push(path.index(i, |p| from_json(&elem, item, p))?);
    }
    Ok(Val::Tuple(out))
}

/// A variant from `"case"` or `{"case": payload}`.
fn variant(ty: &Type, var: &Variant, v: &Value, path: &mut JsonPath) -> JsonResult<Val> {
    let (name, payload) = match v {
        Value::String(s) => (s.as_str(), None),
        Value::Object(obj) if obj.len() == 1 => {
            let (k, p) = obj.iter().next().expect("one entry");
            (k.as_str(), Some(p))
        }
        _ => {
            return path.fail(format!(
                "expected {} ({{\"case\": payload}} or \"case\"), got {}",
                short_desc(ty),
                show(v)
            ));
        }
    };
    let Some(case) = var.cases().find(|c| c.name == name) else {
        let names: Vec<&str> = var.cases().map(|c| c.name).collect();
        return path.fail(format!(
            "unknown case {:?}; the cases are: {}",
            name,
            names.join(", ")
        ));
    };
    let payload = match (&case.ty, payload) {
        (None, None | Some(Value::Null)) => None,
        (None, Some(p)) => {
            return path.fail(format!(
                "case {} has no payload, got {}",
                case.name,
                show(p)
            ));
        }
        (Some(t), None) => {
            return path.fail(format!(
                "case {} needs a payload of type {}: write {{\"{}\": ...}}",
                case.name,
                short_desc(t),
                case.name
            ));
        }
        (Some(t), Some(p)) => Some(Box::new(path.field(case.name, |pp| from_json(t, p, pp))?)),
    };
    Ok(Val::Variant(case.name.to_owned(), payload))
}

fn enumeration(ty: &Type, e: &Enum, v: &Value, path: &JsonPath) -> JsonResult<Val> {
    let Some(s) = v.as_str() else {
        return path.expected(ty, v);
    };
    if !e.names().any(|n| n == s) {
        return path.fail(format!(
            "unknown case {:?}; the cases are: {}",
            s,
            e.names().collect::<Vec<_>>().join(", ")
        ));
    }
    Ok(Val::Enum(s.to_owned()))
}

/// Flags from an array of their names (repeats allowed, kept once).
fn flags(ty: &Type, f: &Flags, v: &Value, path: &mut JsonPath) -> JsonResult<Val> {
    let Value::Array(items) = v else {
        return path.expected(ty, v);
    };
    let mut set: Vec<String> = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let Some(s) = item.as_str().filter(|s| f.names().any(|n| n == *s)) else {
            return path.index(i, |p| {
                p.fail(format!(
                    "expected one of the flags {}, got {}",
                    f.names().collect::<Vec<_>>().join(", "),
                    show(item)
                ))
            });
        };
        if !set.iter().any(|x| x == s) {
            set.push(s.to_owned());
        }
    }
    Ok(Val::Flags(set))
}

/// A result from `{"ok": ..}` or `{"err": ..}`.
fn result(ty: &Type, r: &ResultType, v: &Value, path: &mut JsonPath) -> JsonResult<Val> {
    let entry = match v {
        Value::Object(obj) if obj.len() == 1 => obj.iter().next(),
        _ => None,
    };
    let Some((key, payload)) = entry.filter(|(k, _)| *k == "ok" || *k == "err") else {
        return path.fail(format!(
            "expected {} ({{\"ok\": ..}} or {{\"err\": ..}}), got {}",
            short_desc(ty),
            show(v)
        ));
    };
    let is_ok = key == "ok";
    let case_ty = if is_ok { r.ok() } else { r.err() };
    let payload = match case_ty {
        None if payload.is_null() => None,
        None => return path.fail(format!("{key} has no payload, got {}", show(payload))),
        Some(t) => Some(Box::new(path.field(key, |p| from_json(&t, payload, p))?)),
    };
    Ok(Val::Result(if is_ok { Ok(payload) } else { Err(payload) }))
}
