//! `ws:NAME` modules: an ES module synthesized from `modules.list-functions(NAME)`,
//! exporting each function under its camelCase name; calling one is a synchronous
//! `modules.call` with the arguments as a JSON array.

use rquickjs::{Ctx, Object, Result};

use crate::computer::workspace::modules::{self, ModuleError};
use crate::state::Shared;

/// `post-comment` -> `postComment`.
pub fn camel_case(kebab: &str) -> String {
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

/// WIT names are kebab-case ASCII; anything else could not be a JS export name, and is
/// never spliced into generated source.
fn is_wit_name(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_lowercase())
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        && !name.ends_with('-')
        && !name.contains("--")
}

fn case_name(err: &ModuleError) -> (&'static str, &str) {
    match err {
        ModuleError::NotFound(m) => ("not-found", m),
        ModuleError::BadArguments(m) => ("bad-arguments", m),
        ModuleError::Rejected(m) => ("rejected", m),
        ModuleError::Failed(m) => ("failed", m),
        ModuleError::MayHaveTakenEffect(m) => ("may-have-taken-effect", m),
        ModuleError::ErrorValue(m) => ("error-value", m),
    }
}

/// The source of the ES module for `ws:<module>`, or `None` if there is no such module.
pub fn module_source(state: &Shared, module: &str) -> std::result::Result<Option<String>, String> {
    let functions = match modules::list_functions(module) {
        Ok(f) => f,
        Err(ModuleError::NotFound(_)) => return Ok(None),
        Err(e) => {
            let (case, message) = case_name(&e);
            return Err(format!(
                "listing the functions of 'ws:{module}' failed ({case}): {message}"
            ));
        }
    };
    let module_lit = json_string(module);
    let mut src = format!(
        "const __fn = globalThis[Symbol.for('computer.internal')].wsFunction;\nconst __m = {module_lit};\n"
    );
    let mut names = Vec::new();
    for (i, f) in functions.iter().enumerate() {
        if !is_wit_name(&f.name) {
            continue;
        }
        let js = camel_case(&f.name);
        if js == "default" {
            continue;
        }
        src.push_str(&format!(
            "const __f{i} = __fn(__m, \"{}\", \"{js}\");\nexport {{ __f{i} as {js} }};\n",
            f.name
        ));
        names.push((i, js));
    }
    let fields: Vec<String> = names
        .iter()
        .map(|(i, js)| format!("{js}: __f{i}"))
        .collect();
    src.push_str(&format!(
        "export default Object.freeze({{ {} }});\n",
        fields.join(", ")
    ));
    state.ws_exports.borrow_mut().insert(
        module.to_string(),
        names.into_iter().map(|(_, js)| js).collect(),
    );
    Ok(Some(src))
}

/// `native.wsCall(module, function, argsJson)`: the JSON result, or a thrown
/// `{ wsError: case, message }` that `bootstrap.js` turns into an Error.
pub fn call<'js>(ctx: &Ctx<'js>, module: &str, function: &str, args_json: &str) -> Result<String> {
    match modules::call(module, function, args_json) {
        Ok(json) => Ok(json),
        Err(err) => {
            let (case, message) = case_name(&err);
            let obj = Object::new(ctx.clone())?;
            obj.set("wsError", case)?;
            obj.set("message", message)?;
            Err(ctx.throw(obj.into_value()))
        }
    }
}

/// A JS string literal for `text` (JSON strings are valid JS string literals, apart
/// from U+2028/9 which modern engines accept too).
pub fn json_string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 || c == '\u{2028}' || c == '\u{2029}' => {
                out.push_str(&format!("\\u{:04x}", c as u32))
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert_eq!(camel_case("post-comment"), "postComment");
        assert_eq!(camel_case("get-v2-data"), "getV2Data");
        assert!(is_wit_name("list-issues"));
        assert!(!is_wit_name("a\"b"));
    }
}
