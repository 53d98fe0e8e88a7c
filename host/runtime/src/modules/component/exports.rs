//! What a module component exports: exactly one interface, of sync
//! functions whose parameters and result can cross JSON.

use wasmtime::Engine;
use wasmtime::component::types::{self, ComponentItem};
use wasmtime::component::{Component, ComponentExportIndex, Type};

use super::{Func, bad};
use crate::error::ExecError;
use crate::host::modules::{FunctionInfo, ParamInfo};
use crate::modules::component_json;

/// The one exported interface and its functions, sorted by name.
pub(super) fn read_exports(
    engine: &Engine,
    component: &Component,
    name: &str,
) -> Result<(String, Vec<Func>), ExecError> {
    let (interface, inst) = the_interface(engine, component, name)?;
    let iface_index = component
        .get_export_index(None, &interface)
        .ok_or_else(|| bad(name, format!("cannot find the export {interface}")))?;
    let mut funcs = Vec::new();
    for (fname, ext) in inst.exports(engine) {
        let f = match ext.ty {
            ComponentItem::ComponentFunc(f) => f,
            ComponentItem::Resource(_) => {
                return Err(bad(
                    name,
                    format!(
                        "{interface} exports the resource {fname}; resources cannot cross JSON, so modules cannot export them"
                    ),
                ));
            }
            ComponentItem::Type(_) => continue,
            _ => {
                return Err(bad(
                    name,
                    format!("{interface} exports {fname}, which is not a function"),
                ));
            }
        };
        let export = (component, &iface_index);
        funcs.push(read_function(name, &interface, fname, &f, export)?);
    }
    funcs.sort_by(|a, b| a.info.name.cmp(&b.info.name));
    Ok((interface, funcs))
}

/// The component's one exported interface; anything else it exports is an
/// error.
fn the_interface(
    engine: &Engine,
    component: &Component,
    name: &str,
) -> Result<(String, types::ComponentInstance), ExecError> {
    let ty = component.component_type();
    let mut interfaces = Vec::new();
    let mut others = Vec::new();
    for (export, ext) in ty.exports(engine) {
        match ext.ty {
            ComponentItem::ComponentInstance(inst) => interfaces.push((export.to_owned(), inst)),
            // World-level type exports carry no behaviour.
            ComponentItem::Type(_) => {}
            _ => others.push(export.to_owned()),
        }
    }
    if !others.is_empty() {
        return Err(bad(
            name,
            format!(
                "a module exports exactly one interface and nothing else, but it also exports {}",
                others.join(", ")
            ),
        ));
    }
    match interfaces.len() {
        1 => Ok(interfaces.pop().expect("one interface")),
        0 => Err(bad(
            name,
            "it exports no interface; a module exports exactly one (e.g. `export github;` in its world)",
        )),
        _ => {
            let names: Vec<&str> = interfaces.iter().map(|(n, _)| n.as_str()).collect();
            Err(bad(
                name,
                format!(
                    "it exports {} interfaces ({}); a module exports exactly one",
                    names.len(),
                    names.join(", ")
                ),
            ))
        }
    }
}

/// One exported function, checked: sync, at most one result, and types
/// that cross JSON.
fn read_function(
    name: &str,
    interface: &str,
    fname: &str,
    f: &types::ComponentFunc,
    (component, iface_index): (&Component, &ComponentExportIndex),
) -> Result<Func, ExecError> {
    if f.async_() {
        return Err(bad(
            name,
            format!("{interface}.{fname} is an async function; modules export sync functions"),
        ));
    }
    let mut params = Vec::new();
    for (pname, pty) in f.params() {
        component_json::check_supported(&pty).map_err(|what| {
            bad(
                name,
                format!(
                    "parameter {pname} of {fname} contains {what}, which cannot cross JSON; module functions take and return plain values"
                ),
            )
        })?;
        params.push((pname.to_owned(), pty));
    }
    let results: Vec<Type> = f.results().collect();
    if results.len() > 1 {
        return Err(bad(
            name,
            format!("{fname} returns several values; return one (e.g. a record or a tuple)"),
        ));
    }
    let result = results.into_iter().next();
    if let Some(rty) = &result {
        component_json::check_supported(rty).map_err(|what| {
            bad(
                name,
                format!(
                    "the result of {fname} contains {what}, which cannot cross JSON; module functions take and return plain values"
                ),
            )
        })?;
    }
    let index = component
        .get_export_index(Some(iface_index), fname)
        .ok_or_else(|| bad(name, format!("cannot find the export {interface}.{fname}")))?;
    let info = FunctionInfo {
        name: fname.to_owned(),
        params: params
            .iter()
            .map(|(n, t)| ParamInfo {
                name: n.clone(),
                type_desc: component_json::describe(t),
            })
            .collect(),
        result: result.as_ref().map(component_json::describe),
        docs: String::new(),
    };
    Ok(Func {
        info,
        params,
        result,
        index,
    })
}
