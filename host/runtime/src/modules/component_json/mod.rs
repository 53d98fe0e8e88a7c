//! JSON <-> component values, driven by the component's own types.
//!
//! The mapping is the one `wit/README.md` documents: records are objects
//! with kebab-case keys, lists and tuples arrays, `option` is `null` or the
//! value, `result` is `{"ok": ..}` / `{"err": ..}`, enums are strings,
//! variants `{"case": payload}` (or `"case"` without a payload), flags
//! arrays of names, numbers numbers, `char` and `string` strings.
//! Resources, `future`, `stream` and `error-context` cannot cross JSON: a
//! module whose functions use them is refused when it is loaded.

mod describe;
mod from_json;
mod to_json;

use serde_json::Value;
use wasmtime::component::Type;

pub(crate) use describe::{check_supported, describe};
pub(crate) use from_json::from_json;
pub(crate) use to_json::to_json;

/// Why a value cannot cross between JSON and a component value, said
/// for people (callers prefix the function it is about).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub(crate) struct JsonError(String);

impl From<&str> for JsonError {
    fn from(s: &str) -> Self {
        JsonError(s.to_owned())
    }
}

pub(crate) type JsonResult<T> = Result<T, JsonError>;

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

    fn fail<T>(&self, what: impl std::fmt::Display) -> JsonResult<T> {
        Err(JsonError(format!("argument {}: {what}", self.render())))
    }

    fn expected<T>(&self, ty: &Type, got: &Value) -> JsonResult<T> {
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

#[cfg(test)]
mod tests {
    use wasmtime::component::Val;

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
