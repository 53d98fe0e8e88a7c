//! JSON <-> component values, driven by the component's own types.
//!
//! The mapping is the one `wit/README.md` documents: records are objects
//! with kebab-case keys, lists and tuples arrays, `option` is `null` or the
//! value, `result` is `{"ok": ..}` / `{"err": ..}`, enums are strings,
//! variants `{"case": payload}` (or `"case"` without a payload), flags
//! arrays of names, numbers numbers, `char` and `string` strings.
//! Resources, `future`, `stream` and `error-context` cannot cross JSON: a
//! module whose functions use them is refused when it is loaded.

use serde_json::{Map as JsonMap, Number, Value};
use wasmtime::component::{Type, Val};

/// WIT-like syntax for a type, with named types spelled out:
/// `list<string>`, `record { title: string, draft: bool }`.
pub(crate) fn describe(ty: &Type) -> String {
    let mut out = String::new();
    describe_into(ty, &mut out);
    out
}

fn describe_into(ty: &Type, out: &mut String) {
    let simple = match ty {
        Type::Bool => "bool",
        Type::S8 => "s8",
        Type::U8 => "u8",
        Type::S16 => "s16",
        Type::U16 => "u16",
        Type::S32 => "s32",
        Type::U32 => "u32",
        Type::S64 => "s64",
        Type::U64 => "u64",
        Type::Float32 => "f32",
        Type::Float64 => "f64",
        Type::Char => "char",
        Type::String => "string",
        Type::ErrorContext => "error-context",
        Type::Own(_) => "own<resource>",
        Type::Borrow(_) => "borrow<resource>",
        _ => "",
    };
    if !simple.is_empty() {
        out.push_str(simple);
        return;
    }
    match ty {
        Type::List(l) => {
            out.push_str("list<");
            describe_into(&l.ty(), out);
            out.push('>');
        }
        Type::FixedLengthList(l) => {
            out.push_str("list<");
            describe_into(&l.ty(), out);
            out.push_str(&format!(", {}>", l.len()));
        }
        Type::Map(m) => {
            out.push_str("map<");
            describe_into(&m.key(), out);
            out.push_str(", ");
            describe_into(&m.value(), out);
            out.push('>');
        }
        Type::Record(r) => {
            out.push_str("record { ");
            for (i, f) in r.fields().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                out.push_str(f.name);
                out.push_str(": ");
                describe_into(&f.ty, out);
            }
            out.push_str(" }");
        }
        Type::Tuple(t) => {
            out.push_str("tuple<");
            for (i, t) in t.types().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                describe_into(&t, out);
            }
            out.push('>');
        }
        Type::Variant(v) => {
            out.push_str("variant { ");
            for (i, c) in v.cases().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                out.push_str(c.name);
                if let Some(t) = &c.ty {
                    out.push('(');
                    describe_into(t, out);
                    out.push(')');
                }
            }
            out.push_str(" }");
        }
        Type::Enum(e) => {
            out.push_str("enum { ");
            out.push_str(&e.names().collect::<Vec<_>>().join(", "));
            out.push_str(" }");
        }
        Type::Flags(f) => {
            out.push_str("flags { ");
            out.push_str(&f.names().collect::<Vec<_>>().join(", "));
            out.push_str(" }");
        }
        Type::Option(o) => {
            out.push_str("option<");
            describe_into(&o.ty(), out);
            out.push('>');
        }
        Type::Result(r) => {
            out.push_str("result");
            match (r.ok(), r.err()) {
                (None, None) => {}
                (Some(ok), None) => {
                    out.push('<');
                    describe_into(&ok, out);
                    out.push('>');
                }
                (ok, Some(err)) => {
                    out.push('<');
                    match ok {
                        Some(ok) => describe_into(&ok, out),
                        None => out.push('_'),
                    }
                    out.push_str(", ");
                    describe_into(&err, out);
                    out.push('>');
                }
            }
        }
        Type::Future(f) => {
            out.push_str("future");
            if let Some(t) = f.ty() {
                out.push('<');
                describe_into(&t, out);
                out.push('>');
            }
        }
        Type::Stream(s) => {
            out.push_str("stream");
            if let Some(t) = s.ty() {
                out.push('<');
                describe_into(&t, out);
                out.push('>');
            }
        }
        _ => out.push('?'),
    }
}

/// `Err` names the first part of `ty` that cannot cross JSON (a resource,
/// `future`, `stream` or `error-context`).
pub(crate) fn check_supported(ty: &Type) -> Result<(), String> {
    match ty {
        Type::Own(_) | Type::Borrow(_) => Err("a resource handle".into()),
        Type::Future(_) => Err("a future".into()),
        Type::Stream(_) => Err("a stream".into()),
        Type::ErrorContext => Err("an error-context".into()),
        Type::List(l) => check_supported(&l.ty()),
        Type::FixedLengthList(l) => check_supported(&l.ty()),
        Type::Map(m) => {
            check_supported(&m.key())?;
            check_supported(&m.value())
        }
        Type::Record(r) => r.fields().try_for_each(|f| check_supported(&f.ty)),
        Type::Tuple(t) => t.types().try_for_each(|t| check_supported(&t)),
        Type::Variant(v) => v
            .cases()
            .try_for_each(|c| c.ty.as_ref().map_or(Ok(()), check_supported)),
        Type::Option(o) => check_supported(&o.ty()),
        Type::Result(r) => {
            if let Some(t) = r.ok() {
                check_supported(&t)?;
            }
            if let Some(t) = r.err() {
                check_supported(&t)?;
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

/// Where in an argument a conversion failed: `opts.labels[2]`.
#[derive(Default)]
pub(crate) struct JsonPath(Vec<Seg>);

enum Seg {
    Field(String),
    Index(usize),
}

impl JsonPath {
    pub(crate) fn root(name: &str) -> Self {
        JsonPath(vec![Seg::Field(name.to_owned())])
    }

    fn render(&self) -> String {
        let mut s = String::new();
        for (i, seg) in self.0.iter().enumerate() {
            match seg {
                Seg::Field(f) if i == 0 => s.push_str(f),
                Seg::Field(f) => {
                    s.push('.');
                    s.push_str(f);
                }
                Seg::Index(n) => s.push_str(&format!("[{n}]")),
            }
        }
        s
    }

    fn field<T>(&mut self, name: &str, f: impl FnOnce(&mut Self) -> T) -> T {
        self.0.push(Seg::Field(name.to_owned()));
        let out = f(self);
        self.0.pop();
        out
    }

    fn index<T>(&mut self, n: usize, f: impl FnOnce(&mut Self) -> T) -> T {
        self.0.push(Seg::Index(n));
        let out = f(self);
        self.0.pop();
        out
    }

    fn fail<T>(&self, what: impl std::fmt::Display) -> Result<T, String> {
        Err(format!("argument {}: {what}", self.render()))
    }

    fn expected<T>(&self, ty: &Type, got: &Value) -> Result<T, String> {
        self.fail(format!("expected {}, got {}", short_desc(ty), show(got)))
    }
}

/// The type as error messages name it: the full description when short,
/// else its kind.
fn short_desc(ty: &Type) -> String {
    let full = describe(ty);
    if full.len() <= 80 {
        return full;
    }
    match ty {
        Type::Record(_) => "a record (an object)".into(),
        Type::Variant(_) => "a variant".into(),
        Type::Enum(_) => "an enum (a string)".into(),
        Type::Flags(_) => "flags (an array of strings)".into(),
        Type::Tuple(_) => "a tuple (an array)".into(),
        Type::List(_) => "a list (an array)".into(),
        _ => format!("{}...", &full[..full.floor_char_boundary(77)]),
    }
}

/// A JSON value as error messages show it: scalars as JSON, strings
/// shortened, arrays and objects by kind.
fn show(v: &Value) -> String {
    match v {
        Value::String(s) if s.chars().count() > 40 => {
            let cut: String = s.chars().take(37).collect();
            Value::String(format!("{cut}...")).to_string()
        }
        Value::Array(a) => format!("an array of {} elements", a.len()),
        Value::Object(_) => "an object".into(),
        other => other.to_string(),
    }
}

/// `line-number` -> `lineNumber`: the key JavaScript code naturally writes.
pub(crate) fn camel_case(kebab: &str) -> String {
    let mut out = String::with_capacity(kebab.len());
    let mut upper = false;
    for c in kebab.chars() {
        if c == '-' {
            upper = true;
        } else if upper {
            out.extend(c.to_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
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

/// Converts `v` to a value of `ty`; `path` names the argument for errors.
pub(crate) fn from_json(ty: &Type, v: &Value, path: &mut JsonPath) -> Result<Val, String> {
    macro_rules! int {
        ($variant:ident, $t:ty) => {{
            let Some(i) = integer(v) else {
                return path.expected(ty, v);
            };
            match <$t>::try_from(i) {
                Ok(n) => Val::$variant(n),
                Err(_) => {
                    return path.fail(format!(
                        "{} is out of range for {} ({}..={})",
                        show(v),
                        describe(ty),
                        <$t>::MIN,
                        <$t>::MAX
                    ));
                }
            }
        }};
    }
    Ok(match ty {
        Type::Bool => match v {
            Value::Bool(b) => Val::Bool(*b),
            _ => return path.expected(ty, v),
        },
        Type::S8 => int!(S8, i8),
        Type::U8 => int!(U8, u8),
        Type::S16 => int!(S16, i16),
        Type::U16 => int!(U16, u16),
        Type::S32 => int!(S32, i32),
        Type::U32 => int!(U32, u32),
        Type::S64 => int!(S64, i64),
        Type::U64 => int!(U64, u64),
        Type::Float32 => match v {
            Value::Null => Val::Float32(f32::NAN),
            Value::Number(n) => {
                let f = n.as_f64().unwrap_or(f64::NAN);
                if f.is_finite() && (f as f32).is_infinite() {
                    return path.fail(format!("{} is out of range for f32", show(v)));
                }
                Val::Float32(f as f32)
            }
            _ => return path.expected(ty, v),
        },
        Type::Float64 => match v {
            Value::Null => Val::Float64(f64::NAN),
            Value::Number(n) => Val::Float64(n.as_f64().unwrap_or(f64::NAN)),
            _ => return path.expected(ty, v),
        },
        Type::Char => match v.as_str() {
            Some(s) => {
                let mut chars = s.chars();
                match (chars.next(), chars.next()) {
                    (Some(c), None) => Val::Char(c),
                    _ => {
                        return path.fail(format!(
                            "expected char (a one-character string), got {}",
                            show(v)
                        ));
                    }
                }
            }
            None => return path.expected(ty, v),
        },
        Type::String => match v {
            Value::String(s) => Val::String(s.clone()),
            _ => return path.expected(ty, v),
        },
        Type::List(l) => {
            let Value::Array(items) = v else {
                return path.expected(ty, v);
            };
            let elem = l.ty();
            let mut out = Vec::with_capacity(items.len());
            for (i, item) in items.iter().enumerate() {
                out.push(path.index(i, |p| from_json(&elem, item, p))?);
            }
            Val::List(out)
        }
        Type::FixedLengthList(l) => {
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
            let elem = l.ty();
            let mut out = Vec::with_capacity(items.len());
            for (i, item) in items.iter().enumerate() {
                out.push(path.index(i, |p| from_json(&elem, item, p))?);
            }
            Val::FixedLengthList(out)
        }
        Type::Map(m) => {
            let (kt, vt) = (m.key(), m.value());
            let mut out = Vec::new();
            match v {
                Value::Object(obj) => {
                    for (k, item) in obj {
                        let key =
                            path.field(k, |p| from_json(&kt, &Value::String(k.clone()), p))?;
                        let val = path.field(k, |p| from_json(&vt, item, p))?;
                        out.push((key, val));
                    }
                }
                Value::Array(pairs) => {
                    for (i, pair) in pairs.iter().enumerate() {
                        let (k, item) = match pair.as_array().map(Vec::as_slice) {
                            Some([k, item]) => (k, item),
                            _ => {
                                return path.index(i, |p| {
                                    p.fail(format!(
                                        "expected a [key, value] pair, got {}",
                                        show(pair)
                                    ))
                                });
                            }
                        };
                        let key = path.index(i, |p| p.index(0, |p| from_json(&kt, k, p)))?;
                        let val = path.index(i, |p| p.index(1, |p| from_json(&vt, item, p)))?;
                        out.push((key, val));
                    }
                }
                _ => return path.expected(ty, v),
            }
            Val::Map(out)
        }
        Type::Record(r) => {
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
                        return path.fail(format!(
                            "missing field {} ({})",
                            f.name,
                            short_desc(&f.ty)
                        ));
                    }
                };
                out.push((f.name.to_owned(), val));
            }
            Val::Record(out)
        }
        Type::Tuple(t) => {
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
            Val::Tuple(out)
        }
        Type::Variant(var) => {
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
                (Some(t), Some(p)) => {
                    Some(Box::new(path.field(case.name, |pp| from_json(t, p, pp))?))
                }
            };
            Val::Variant(case.name.to_owned(), payload)
        }
        Type::Enum(e) => {
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
            Val::Enum(s.to_owned())
        }
        Type::Flags(f) => {
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
            Val::Flags(set)
        }
        Type::Option(o) => match v {
            Value::Null => Val::Option(None),
            other => Val::Option(Some(Box::new(from_json(&o.ty(), other, path)?))),
        },
        Type::Result(r) => {
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
            let (case_ty, is_ok) = if key == "ok" {
                (r.ok(), true)
            } else {
                (r.err(), false)
            };
            let payload = match case_ty {
                None if payload.is_null() => None,
                None => {
                    return path.fail(format!("{key} has no payload, got {}", show(payload)));
                }
                Some(t) => Some(Box::new(path.field(key, |p| from_json(&t, payload, p))?)),
            };
            Val::Result(if is_ok { Ok(payload) } else { Err(payload) })
        }
        Type::Own(_) | Type::Borrow(_) | Type::Future(_) | Type::Stream(_) | Type::ErrorContext => {
            return path.fail(format!("{} cannot be passed as JSON", describe(ty)));
        }
    })
}

fn float(f: f64) -> Value {
    Number::from_f64(f).map_or(Value::Null, Value::Number)
}

/// Converts a component value to JSON. Fails only on values that cannot
/// cross JSON (resources, futures, streams), which loading refuses.
pub(crate) fn to_json(v: &Val) -> Result<Value, String> {
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
        Val::Map(pairs) => {
            if pairs.iter().all(|(k, _)| matches!(k, Val::String(_))) {
                let mut obj = JsonMap::new();
                for (k, item) in pairs {
                    if let Val::String(k) = k {
                        obj.insert(k.clone(), to_json(item)?);
                    }
                }
                Value::Object(obj)
            } else {
                Value::Array(
                    pairs
                        .iter()
                        .map(|(k, item)| Ok(Value::Array(vec![to_json(k)?, to_json(item)?])))
                        .collect::<Result<_, String>>()?,
                )
            }
        }
        Val::Record(fields) => {
            let mut obj = JsonMap::new();
            for (name, item) in fields {
                obj.insert(name.clone(), to_json(item)?);
            }
            Value::Object(obj)
        }
        Val::Variant(name, None) => Value::String(name.clone()),
        Val::Variant(name, Some(payload)) => {
            let mut obj = JsonMap::new();
            obj.insert(name.clone(), to_json(payload)?);
            Value::Object(obj)
        }
        Val::Enum(name) => Value::String(name.clone()),
        Val::Option(None) => Value::Null,
        Val::Option(Some(inner)) => to_json(inner)?,
        Val::Result(r) => {
            let (key, payload) = match r {
                Ok(p) => ("ok", p),
                Err(p) => ("err", p),
            };
            let mut obj = JsonMap::new();
            obj.insert(
                key.to_owned(),
                match payload {
                    Some(p) => to_json(p)?,
                    None => Value::Null,
                },
            );
            Value::Object(obj)
        }
        Val::Flags(names) => Value::Array(names.iter().cloned().map(Value::String).collect()),
        Val::Resource(_) => return Err("a resource handle cannot be returned as JSON".into()),
        Val::Future(_) => return Err("a future cannot be returned as JSON".into()),
        Val::Stream(_) => return Err("a stream cannot be returned as JSON".into()),
        Val::ErrorContext(_) => return Err("an error-context cannot be returned as JSON".into()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn camel_case_of_kebab_names() {
        assert_eq!(camel_case("post-comment"), "postComment");
        assert_eq!(camel_case("line-number-2"), "lineNumber2");
        assert_eq!(camel_case("plain"), "plain");
    }

    #[test]
    fn show_shortens_long_strings_and_names_containers() {
        assert_eq!(show(&Value::String("x".into())), "\"x\"");
        assert_eq!(show(&serde_json::json!([1, 2])), "an array of 2 elements");
        assert_eq!(show(&serde_json::json!({"a": 1})), "an object");
        let long = "y".repeat(100);
        assert!(show(&Value::String(long)).ends_with("...\""));
    }

    #[test]
    fn scalars_to_json() {
        assert_eq!(to_json(&Val::Float32(0.1)).unwrap(), serde_json::json!(0.1));
        assert_eq!(to_json(&Val::Float64(f64::NAN)).unwrap(), Value::Null);
        assert_eq!(
            to_json(&Val::U64(u64::MAX)).unwrap(),
            serde_json::json!(u64::MAX)
        );
        assert_eq!(to_json(&Val::Char('é')).unwrap(), serde_json::json!("é"));
    }
}
