//! Exit codes for wasip1 modules. wasmtime's preview1 command adapter turns
//! `proc_exit(n)` into `wasi:cli/exit.exit(err)` for every `n` other than 0,
//! which the host can only read as 1; pandoc says 21 for an unknown reader,
//! 22 for an unknown writer, 83 for a Lua filter's error. So the module's
//! `proc_exit` import is routed to a second adapter of our own, a few
//! instructions over `wasi:cli/exit.exit-with-code` (wasi:cli 0.2.12, which
//! our linker provides), and the code reaches `$?` as the program gave it.
//!
//! The rest of the module is copied section by section, untouched: only
//! the import section is written anew, with one import's module renamed.

use std::sync::OnceLock;

use wasm_encoder::reencode::{Reencode, RoundtripReencoder};
use wasm_encoder::{
    CodeSection, ExportKind, ExportSection, Function, FunctionSection, ImportSection, Instruction,
    Module, RawSection, TypeSection, ValType,
};
use wasmparser::{Parser, Payload};

use super::PREVIEW1;

/// The import module name our adapter is known by.
pub(crate) const ADAPTER_NAME: &str = "computer_wasip1_exit";

/// The WIT of what the adapter imports: the exit interface as our linker
/// provides it (the same text as `wit/deps/cli/cli.wit`'s).
const EXIT_WIT: &str = r#"
package wasi:cli@0.2.12;

@since(version = 0.2.0)
interface exit {
  @since(version = 0.2.0)
  exit: func(status: result);
  @since(version = 0.2.12)
  exit-with-code: func(status-code: u8);
}

world proc-exit {
  import exit;
}
"#;

/// `module` with its `wasi_snapshot_preview1.proc_exit` import taken from
/// [`ADAPTER_NAME`] instead, or `None` when it does not import `proc_exit`
/// (it then never exits with a code, and needs no second adapter).
pub(crate) fn route_proc_exit(module: &[u8]) -> Result<Option<Vec<u8>>, String> {
    let mut out = Module::new();
    let mut routed = false;
    for payload in Parser::new(0).parse_all(module) {
        let payload = payload.map_err(|e| format!("it is not a valid WebAssembly module: {e}"))?;
        let Some((id, range)) = payload.as_section() else {
            continue;
        };
        let Payload::ImportSection(section) = payload else {
            out.section(&RawSection {
                id,
                data: &module[range],
            });
            continue;
        };
        let mut imports = ImportSection::new();
        for import in section.into_imports() {
            let import = import.map_err(|e| format!("its imports do not parse: {e}"))?;
            let from = if import.module == PREVIEW1 && import.name == "proc_exit" {
                routed = true;
                ADAPTER_NAME
            } else {
                import.module
            };
            let ty = RoundtripReencoder
                .entity_type(import.ty)
                .map_err(|e| format!("its imports do not re-encode: {e}"))?;
            imports.import(from, import.name, ty);
        }
        out.section(&imports);
    }
    Ok(routed.then(|| out.finish()))
}

/// The adapter: one function, `proc_exit(code)`, calling
/// `exit-with-code(code & 0xff)` (POSIX keeps the low 8 bits too), with the
/// `component-type` section that tells wit-component what it imports.
pub(crate) fn adapter() -> &'static [u8] {
    static ADAPTER: OnceLock<Vec<u8>> = OnceLock::new();
    ADAPTER.get_or_init(|| build_adapter().expect("the exit adapter's WIT is ours and valid"))
}

fn build_adapter() -> Result<Vec<u8>, String> {
    let mut types = TypeSection::new();
    types.ty().function([ValType::I32], []);
    let mut imports = ImportSection::new();
    imports.import(
        "wasi:cli/exit@0.2.12",
        "exit-with-code",
        wasm_encoder::EntityType::Function(0),
    );
    let mut functions = FunctionSection::new();
    functions.function(0);
    let mut exports = ExportSection::new();
    exports.export("proc_exit", ExportKind::Func, 1);
    let mut body = Function::new([]);
    body.instruction(&Instruction::LocalGet(0))
        .instruction(&Instruction::I32Const(0xff))
        .instruction(&Instruction::I32And)
        .instruction(&Instruction::Call(0))
        .instruction(&Instruction::Unreachable)
        .instruction(&Instruction::End);
    let mut code = CodeSection::new();
    code.function(&body);
    let mut module = Module::new();
    module
        .section(&types)
        .section(&imports)
        .section(&functions)
        .section(&exports)
        .section(&code);
    let mut bytes = module.finish();

    let mut resolve = wit_parser::Resolve::default();
    let package = resolve
        .push_str("exit.wit", EXIT_WIT)
        .map_err(|e| format!("{e:#}"))?;
    let world = resolve
        .select_world(&[package], Some("proc-exit"))
        .map_err(|e| format!("{e:#}"))?;
    wit_component::embed_component_metadata(
        &mut bytes,
        &resolve,
        world,
        wit_component::StringEncoding::UTF8,
    )
    .map_err(|e| format!("{e:#}"))?;
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::{ADAPTER_NAME, adapter, route_proc_exit};

    /// A module importing `fd_write` and `proc_exit`.
    fn module() -> Vec<u8> {
        use wasm_encoder::*;
        let mut types = TypeSection::new();
        types.ty().function([ValType::I32], []);
        types.ty().function([ValType::I32; 4], [ValType::I32]);
        let mut imports = ImportSection::new();
        imports.import(
            "wasi_snapshot_preview1",
            "fd_write",
            EntityType::Function(1),
        );
        imports.import(
            "wasi_snapshot_preview1",
            "proc_exit",
            EntityType::Function(0),
        );
        let mut m = Module::new();
        m.section(&types).section(&imports);
        m.finish()
    }

    #[test]
    fn only_proc_exit_is_routed_to_our_adapter() {
        let routed = route_proc_exit(&module())
            .unwrap()
            .expect("it imports proc_exit");
        let mut seen = Vec::new();
        for payload in wasmparser::Parser::new(0).parse_all(&routed) {
            if let wasmparser::Payload::ImportSection(s) = payload.unwrap() {
                for i in s.into_imports() {
                    let i = i.unwrap();
                    seen.push((i.module.to_owned(), i.name.to_owned()));
                }
            }
        }
        assert_eq!(
            seen,
            [
                ("wasi_snapshot_preview1".to_owned(), "fd_write".to_owned()),
                (ADAPTER_NAME.to_owned(), "proc_exit".to_owned()),
            ]
        );
    }

    #[test]
    fn a_module_without_proc_exit_is_left_alone() {
        let m = wasm_encoder::Module::new().finish();
        assert!(route_proc_exit(&m).unwrap().is_none());
    }

    #[test]
    fn the_adapter_is_a_valid_module() {
        wasmparser::Validator::new()
            .validate_all(adapter())
            .unwrap();
    }
}
