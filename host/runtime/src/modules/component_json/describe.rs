//! Types as people read them (WIT-like syntax), and the check that a type
//! can cross JSON at all.

use wasmtime::component::Type;

use super::JsonResult;

/// WIT-like syntax for a type, with named types spelled out:
/// `list<string>`, `record { title: string, draft: bool }`.
pub(crate) fn describe(ty: &Type) -> String {
    let mut out = String::new();
    describe_into(ty, &mut out);
    out
}

/// The name of a type that has no parts, if `ty` is one.
fn simple_name(ty: &Type) -> Option<&'static str> {
    Some(match ty {
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
        _ => return None,
    })
}

fn describe_into(ty: &Type, out: &mut String) {
    if let Some(simple) = simple_name(ty) {
        out.push_str(simple);
        return;
    }
    match ty {
        Type::List(l) => generic(out, "list", &[l.ty()]),
        Type::FixedLengthList(l) => {
            out.push_str("list<");
            describe_into(&l.ty(), out);
            out.push_str(&format!(", {}>", l.len()));
        }
        Type::Map(m) => generic(out, "map", &[m.key(), m.value()]),
        Type::Record(r) => {
            out.push_str("record { ");
            separated(out, r.fields(), |out, f| {
                out.push_str(f.name);
                out.push_str(": ");
                describe_into(&f.ty, out);
            });
            out.push_str(" }");
        }
        Type::Tuple(t) => generic(out, "tuple", &t.types().collect::<Vec<_>>()),
        Type::Variant(v) => {
            out.push_str("variant { ");
            separated(out, v.cases(), |out, c| {
                out.push_str(c.name);
                if let Some(t) = &c.ty {
                    out.push('(');
                    describe_into(t, out);
                    out.push(')');
                }
            });
            out.push_str(" }");
        }
        Type::Enum(e) => names(out, "enum", e.names()),
        Type::Flags(f) => names(out, "flags", f.names()),
        Type::Option(o) => generic(out, "option", &[o.ty()]),
        Type::Result(r) => describe_result(out, r.ok(), r.err()),
        Type::Future(f) => optional_generic(out, "future", f.ty()),
        Type::Stream(s) => optional_generic(out, "stream", s.ty()),
        _ => out.push('?'),
    }
}

/// `name<a, b>`.
fn generic(out: &mut String, name: &str, params: &[Type]) {
    out.push_str(name);
    out.push('<');
    separated(out, params.iter(), |out, t| describe_into(t, out));
    out.push('>');
}

/// `name` or `name<t>`.
fn optional_generic(out: &mut String, name: &str, param: Option<Type>) {
    match param {
        Some(t) => generic(out, name, &[t]),
        None => out.push_str(name),
    }
}

/// `kind { a, b }`.
fn names<'a>(out: &mut String, kind: &str, names: impl Iterator<Item = &'a str>) {
    out.push_str(kind);
    out.push_str(" { ");
    out.push_str(&names.collect::<Vec<_>>().join(", "));
    out.push_str(" }");
}

/// `result`, `result<ok>`, `result<_, err>` or `result<ok, err>`.
fn describe_result(out: &mut String, ok: Option<Type>, err: Option<Type>) {
    out.push_str("result");
    match (ok, err) {
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

/// Writes each item with `write`, separated by `, `.
fn separated<T>(out: &mut String, items: impl Iterator<Item = T>, write: impl Fn(&mut String, T)) {
    for (i, item) in items.enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        write(out, item);
    }
}

/// `Err` names the first part of `ty` that cannot cross JSON (a resource,
/// `future`, `stream` or `error-context`).
pub(crate) fn check_supported(ty: &Type) -> JsonResult<()> {
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
