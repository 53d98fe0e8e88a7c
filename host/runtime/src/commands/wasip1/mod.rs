//! wasip1 command modules: a core module that exports `_start` and imports
//! `wasi_snapshot_preview1` (what clang + wasi-libc, `wasm32-wasip1` Rust,
//! GHC and most toolchains emit) becomes a `wasi:cli/command` component with
//! wasmtime's own preview1 command adapter (the crate that wasmtime 48
//! ships, so the adapter matches the WASI our linker provides).
//!
//! Before adapting, the module's imports, exports and memories are read, so
//! that what we cannot run is refused with its name (threads, an import we
//! do not provide, a reactor) rather than with an encoder's or a
//! validator's dump.

mod exit_codes;

use std::collections::HashSet;
use std::sync::OnceLock;

use wasi_preview1_component_adapter_provider::{
    WASI_SNAPSHOT_PREVIEW1_ADAPTER_NAME as PREVIEW1, WASI_SNAPSHOT_PREVIEW1_COMMAND_ADAPTER,
};
use wasmparser::{Parser, Payload, TypeRef};

/// Goes into the compile cache's key of an adapted module, so that a new
/// adapter (a wasmtime upgrade) adapts and compiles again.
pub(crate) const ADAPTER_ID: &str =
    "wasi-preview1-command-adapter 48.0.8, proc_exit over exit-with-code 1";

/// True for a core module's preamble (`\0asm`, version 1); a component's
/// differs in its version and layer bytes.
pub(crate) fn is_core_module(bytes: &[u8]) -> bool {
    bytes.len() >= 8 && bytes[..4] == *b"\0asm" && bytes[4..8] == [1, 0, 0, 0]
}

/// The component made of the wasip1 command module `module`, or why it
/// cannot be one (a sentence for the person who registers it).
pub(crate) fn adapt(engine: &wasmtime::Engine, module: &[u8]) -> Result<Vec<u8>, String> {
    inspect(module)?;
    // Validated first, with the engine's features: a feature we lack is then
    // named in seconds, not after a compile of minutes (pandoc.wasm).
    wasmtime::Module::validate(engine, module).map_err(|e| explain(&format!("{e:#}")))?;
    // `proc_exit` from our own adapter, so exit codes other than 0 and 1
    // survive (`exit_codes`).
    let routed = exit_codes::route_proc_exit(module)?;
    // A module without `cabi_realloc` (C programs) gets one from the
    // encoder that takes fresh pages with `memory.grow`, so the adapter's
    // state never sits inside the program's heap.
    let encoded = wit_component::ComponentEncoder::default()
        .module(routed.as_deref().unwrap_or(module))
        .and_then(|e| e.adapter(PREVIEW1, WASI_SNAPSHOT_PREVIEW1_COMMAND_ADAPTER))
        .and_then(|e| match routed {
            Some(_) => e.adapter(exit_codes::ADAPTER_NAME, exit_codes::adapter()),
            None => Ok(e),
        })
        // wasmtime validates it when it compiles it: once is enough for 58 MB.
        .map(|e| e.validate(false))
        .and_then(|mut e| e.encode());
    encoded.map_err(|e| explain(&format!("{e:#}")))
}

/// Turns a validator's message into what to do about it, where we know.
pub(crate) fn explain(message: &str) -> String {
    if message.contains("legacy_exceptions") {
        return "it uses the legacy exception-handling encoding (try/catch/delegate), \
                which wasmtime does not run; translate it to the standard exceptions \
                proposal (exnref) first: `wasm-opt --all-features --translate-to-exnref \
                in.wasm -o out.wasm` (wasm-opt is in npm's `binaryen`)"
            .to_owned();
    }
    if message.contains("threads") || message.contains("shared") && message.contains("memor") {
        return format!("it needs threads, which this runtime does not offer ({message})");
    }
    format!("it cannot be made a command component: {message}")
}

/// What the module asks for, checked against what we offer.
fn inspect(module: &[u8]) -> Result<(), String> {
    let mut start = false;
    let mut initialize = false;
    for payload in Parser::new(0).parse_all(module) {
        let payload = payload.map_err(|e| format!("it is not a valid WebAssembly module: {e}"))?;
        match payload {
            Payload::ImportSection(section) => {
                for import in section.into_imports() {
                    let import = import.map_err(|e| format!("its imports do not parse: {e}"))?;
                    check_import(import.module, import.name, &import.ty)?;
                }
            }
            Payload::MemorySection(section) => {
                for memory in section {
                    let memory = memory.map_err(|e| format!("its memories do not parse: {e}"))?;
                    if memory.shared {
                        return Err(needs_threads("it defines a shared memory"));
                    }
                }
            }
            Payload::ExportSection(section) => {
                for export in section {
                    let export = export.map_err(|e| format!("its exports do not parse: {e}"))?;
                    start |= export.name == "_start";
                    initialize |= export.name == "_initialize";
                }
            }
            _ => {}
        }
    }
    if start {
        return Ok(());
    }
    Err(if initialize {
        "it is a wasip1 reactor (it exports `_initialize`, not `_start`): a library \
         to call into, not a command to run"
            .to_owned()
    } else {
        "it exports no `_start`: a wasip1 command module starts there (a library or \
         reactor cannot be run as a command)"
            .to_owned()
    })
}

fn check_import(module: &str, name: &str, ty: &TypeRef) -> Result<(), String> {
    if let TypeRef::Memory(memory) = ty
        && memory.shared
    {
        return Err(needs_threads(&format!(
            "it imports a shared memory (`{module}`.`{name}`)"
        )));
    }
    if module == "wasi" && name == "thread-spawn" {
        return Err(needs_threads(
            "it imports `wasi`.`thread-spawn` (the wasi-threads proposal)",
        ));
    }
    if module == PREVIEW1 {
        if adapter_functions().contains(name) {
            return Ok(());
        }
        return Err(format!(
            "it imports `{PREVIEW1}`.`{name}`, which is not a wasip1 function this \
             runtime provides"
        ));
    }
    Err(format!(
        "it imports `{module}`.`{name}`, which this runtime does not provide \
         (a wasip1 command may import only `{PREVIEW1}`)"
    ))
}

fn needs_threads(what: &str) -> String {
    format!(
        "{what}: it needs threads (shared memory and wasi-threads), which this runtime \
         does not offer; build it without threads (e.g. for `wasm32-wasip1`, not \
         `wasm32-wasip1-threads`)"
    )
}

/// The wasip1 functions the command adapter implements (its exports).
fn adapter_functions() -> &'static HashSet<String> {
    static NAMES: OnceLock<HashSet<String>> = OnceLock::new();
    NAMES.get_or_init(|| {
        let mut names = HashSet::new();
        for payload in Parser::new(0).parse_all(WASI_SNAPSHOT_PREVIEW1_COMMAND_ADAPTER) {
            if let Ok(Payload::ExportSection(section)) = payload {
                names.extend(section.into_iter().flatten().map(|e| e.name.to_owned()));
            }
        }
        names
    })
}

#[cfg(test)]
mod tests {
    use super::{adapter_functions, explain, is_core_module};

    #[test]
    fn the_adapter_provides_the_usual_wasip1_functions() {
        for name in [
            "fd_write",
            "path_open",
            "proc_exit",
            "args_get",
            "fd_readdir",
        ] {
            assert!(adapter_functions().contains(name), "{name}");
        }
    }

    #[test]
    fn preambles_are_told_apart() {
        assert!(is_core_module(b"\0asm\x01\x00\x00\x00rest"));
        assert!(!is_core_module(b"\0asm\x0d\x00\x01\x00rest"));
        assert!(!is_core_module(b"\0asm"));
    }

    #[test]
    fn legacy_exceptions_name_the_fix() {
        let m = explain("legacy_exceptions feature required for try instruction");
        assert!(m.contains("--translate-to-exnref"), "{m}");
        assert!(m.contains("binaryen"), "{m}");
    }
}
