//! Module resolution and loading.
//!
//! Resolution (`Resolver`), as Node's ESM resolution:
//! - `node:fs`, `fs`, ... (see `builtins::ES_MODULES`) -> `node:<name>`;
//! - `ws:NAME` -> itself (existence is checked when it loads);
//! - a specifier starting with `/`, `./` or `../` (or `.`/`..`, or a `file://` URL) ->
//!   joined onto the importing module's directory, `.`/`..` resolved; then the first
//!   that is a file of: the path itself, `<path>.js`, `<path>.mjs`, `<path>/index.js`,
//!   `<path>/index.mjs` (more lenient than Node, which wants the exact file);
//! - anything else is a package (or a package.json `imports` name), resolved by
//!   `js/esm.js` from `node_modules` with the `import` condition.
//!
//! Loading (`Loader`) reads files through the WIT `fs` import: a `.json` file becomes a
//! module whose default export is the parsed JSON, a CommonJS file (`.cjs`, or `.js`
//! where package.json says so) a facade over its `module.exports`. It synthesizes `node:`
//! modules from the internal CommonJS-style modules, and `ws:` modules from
//! `modules.list-functions`. Every file module gets `import.meta.url`, `filename`,
//! `dirname` and `resolve`.

use rquickjs::loader::{ImportAttributes, Loader, Resolver};
use rquickjs::module::Declared;
use rquickjs::{Ctx, Error, Exception, Function, Module, Object, Result};

use crate::computer::workspace::fs::{self, ErrorCode, NodeKind};
use crate::modules_ws::json_string;
use crate::state::Shared;
use crate::{builtins, fs_native, modules_ws, paths};

/// Suffixes tried, in order, for a relative or absolute specifier.
const CANDIDATES: &[&str] = &["", ".js", ".mjs", "/index.js", "/index.mjs"];

pub struct WorkspaceResolver {
    pub state: Shared,
}

pub struct WorkspaceLoader {
    pub state: Shared,
}

/// Throw an Error with Node's `code` for a module that cannot be found.
fn not_found(ctx: &Ctx<'_>, message: String) -> Error {
    match Exception::from_message(ctx.clone(), &message) {
        Ok(err) => {
            let _ = err.set("code", "ERR_MODULE_NOT_FOUND");
            ctx.throw(err.into_value())
        }
        Err(e) => e,
    }
}

fn is_path_specifier(name: &str) -> bool {
    name.starts_with('/')
        || name.starts_with("./")
        || name.starts_with("../")
        || name == "."
        || name == ".."
}

impl Resolver for WorkspaceResolver {
    fn resolve<'js>(
        &mut self,
        ctx: &Ctx<'js>,
        base: &str,
        name: &str,
        _: Option<ImportAttributes<'js>>,
    ) -> Result<String> {
        if let Some(canonical) = builtins::canonical_name(name) {
            return Ok(canonical);
        }
        if name.starts_with("ws:") {
            return Ok(name.to_string());
        }
        let decoded;
        let name = match name.strip_prefix("file://") {
            Some(path) => {
                decoded = paths::percent_decode(path);
                decoded.as_str()
            }
            None => name,
        };
        if name.starts_with("node:") {
            return Err(not_found(
                ctx,
                format!(
                    "No such built-in module: {name} (available: {})",
                    builtins::names().join(", ")
                ),
            ));
        }
        if !is_path_specifier(name) {
            return esm_call(ctx, &self.state, "resolve", (name, base));
        }
        // Built-in and ws: modules have no directory; their relative imports would be
        // relative to the current directory.
        let dir = if base.starts_with('/') {
            paths::dirname(base).to_string()
        } else {
            self.state.cwd()
        };
        let path = paths::resolve(&dir, name);
        let path = if path.len() > 1 {
            path.trim_end_matches('/')
        } else {
            &path
        };
        for suffix in CANDIDATES {
            let candidate = format!("{path}{suffix}");
            match fs::stat(&candidate) {
                Ok(st) if st.kind == NodeKind::File => return Ok(candidate),
                Ok(_) => {}
                Err(e)
                    if matches!(
                        e.code,
                        ErrorCode::Enoent | ErrorCode::Enotdir | ErrorCode::Einval
                    ) => {}
                Err(e) => return Err(fs_native::throw(ctx, e)),
            }
        }
        let shown = if path == name {
            format!("'{name}'")
        } else {
            format!("'{name}' ({path})")
        };
        Err(not_found(
            ctx,
            format!("Cannot find module {shown} imported from {base}"),
        ))
    }
}

impl Loader for WorkspaceLoader {
    fn load<'js>(
        &mut self,
        ctx: &Ctx<'js>,
        name: &str,
        _: Option<ImportAttributes<'js>>,
    ) -> Result<Module<'js, Declared>> {
        let source = if name.starts_with("node:") {
            let internal = self.state.internal(ctx)?;
            builtins::module_source(ctx, &internal, name)?
        } else if let Some(module) = name.strip_prefix("ws:") {
            match modules_ws::module_source(&self.state, module) {
                Ok(Some(src)) => src,
                Ok(None) => {
                    return Err(not_found(
                        ctx,
                        format!(
                            "Cannot find module '{name}': no module named '{module}' is registered"
                        ),
                    ));
                }
                Err(message) => return Err(Exception::throw_message(ctx, &message)),
            }
        } else {
            let format: String = esm_call(ctx, &self.state, "format", (name,))?;
            let source = match format.as_str() {
                "commonjs" => esm_call(ctx, &self.state, "cjsFacade", (name,))?,
                _ => {
                    let bytes = fs_native::read_all(name).map_err(|e| fs_native::throw(ctx, e))?;
                    let text = String::from_utf8(bytes).map_err(|_| {
                        Exception::throw_syntax(
                            ctx,
                            &format!("{name}: the file is not valid UTF-8"),
                        )
                    })?;
                    let text = text.strip_prefix('\u{feff}').unwrap_or(&text).to_owned();
                    if format == "json" {
                        format!("export default JSON.parse({});\n", json_string(&text))
                    } else {
                        text
                    }
                }
            };
            let module = Module::declare(ctx.clone(), name, source)?;
            fill_meta(ctx, &self.state, &module, name)?;
            return Ok(module);
        };
        Module::declare(ctx.clone(), name, source)
    }
}

/// Call `fname` of the internal `esm` module (js/esm.js).
fn esm_call<'js, A, R>(ctx: &Ctx<'js>, state: &Shared, fname: &str, args: A) -> Result<R>
where
    A: rquickjs::function::IntoArgs<'js>,
    R: rquickjs::FromJs<'js>,
{
    let require: Function = state.internal(ctx)?.get("require")?;
    let esm: Object = require.call(("esm",))?;
    let f: Function = esm.get(fname)?;
    f.call(args)
}

/// `import.meta` of the module at `path`: `url`, `filename`, `dirname`, `resolve`.
pub fn fill_meta<'js>(
    ctx: &Ctx<'js>,
    state: &Shared,
    module: &Module<'js, Declared>,
    path: &str,
) -> Result<()> {
    let meta = module.meta()?;
    esm_call(ctx, state, "fillMeta", (meta, path))
}
