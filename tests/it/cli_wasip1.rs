//! wasip1 command modules through `computer commands add` and `computer
//! run`: a C program built with clang-19 and Debian's wasi-libc (a core
//! module, `tests/fixtures/wasip1-c/probe.c`) is
//! adapted, compiled once, and prints what its native build prints; modules
//! that need what we do not offer are refused with that thing's name.

use std::path::{Path, PathBuf};
use std::process::Output;

use computer_tests::{Ws, component_cache_dir, describe, run_command, text, workspace_root};
use wasm_encoder::{
    BlockType, CodeSection, EntityType, ExportKind, ExportSection, Function, FunctionSection,
    ImportSection, Instruction, MemorySection, MemoryType, Module, TypeSection, ValType,
};

/// The probe's module and its native build, from `scripts/build-wasi-programs.sh`.
fn probe() -> (PathBuf, PathBuf) {
    let dir = std::env::var_os("COMPUTER_WASI_PROGRAMS_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace_root().join("target/wasi-programs"))
        .join("bin");
    let (module, native) = (dir.join("wasip1_probe.wasm"), dir.join("wasip1_probe"));
    for p in [&module, &native] {
        assert!(
            p.is_file(),
            "{} does not exist: run scripts/build-wasi-programs.sh",
            p.display()
        );
    }
    (module, native)
}

fn run_in(ws: &Ws, cache: &Path, args: &[&str]) -> Output {
    let mut cmd = ws.command(args);
    cmd.env("COMPUTER_CACHE_DIR", cache);
    run_command(&mut cmd, b"")
}

fn ok_in(ws: &Ws, cache: &Path, args: &[&str]) -> Output {
    let out = run_in(ws, cache, args);
    assert!(out.status.success(), "{}", describe(args, &out));
    out
}

#[test]
fn a_c_module_runs_as_its_native_build_does() {
    let (module, native) = probe();
    let ws = Ws::new();
    let cache = component_cache_dir();
    ok_in(
        &ws,
        &cache,
        &["commands", "add", "probe", module.to_str().unwrap()],
    );
    ok_in(&ws, &cache, &["fs", "mkdir", "-p", "/out"]);
    // A heap that grows while files are written: the adapter's allocations
    // must not land inside malloc's.
    let ours = ok_in(&ws, &cache, &["run", "probe", "heap", "/out", "60"]);
    let host = tempfile::tempdir().unwrap();
    let theirs = std::process::Command::new(&native)
        .args(["heap", host.path().to_str().unwrap(), "60"])
        .output()
        .unwrap();
    assert!(theirs.status.success());
    assert_eq!(text(&ours.stdout), text(&theirs.stdout));
    let listed = ok_in(&ws, &cache, &["exec", "ls /out | wc -l"]);
    assert_eq!(text(&listed.stdout).trim(), "60");

    let args = ok_in(&ws, &cache, &["run", "probe", "args", "a b", "-x", "ü"]);
    assert_eq!(text(&args.stdout), "a b\n-x\nü\n");
    // `proc_exit` goes through our own adapter to `exit-with-code`: the
    // code is the program's (wasmtime's adapter alone would say 1), also
    // through the shell's `$?`.
    for code in ["3", "0", "1", "200"] {
        let exit = run_in(&ws, &cache, &["run", "probe", "exit", code]);
        let want = code.parse::<i32>().unwrap();
        assert_eq!(
            exit.status.code(),
            Some(want),
            "{}",
            describe(&["run"], &exit)
        );
    }
    let status = ok_in(&ws, &cache, &["exec", "probe exit 42; echo $?"]);
    assert_eq!(text(&status.stdout), "42\n");
    // From a script, in a pipeline.
    let piped = ok_in(
        &ws,
        &cache,
        &[
            "exec",
            "printf 'one\\ntwo\\n' > /in.txt; probe cat /in.txt | wc -l",
        ],
    );
    assert_eq!(text(&piped.stdout).trim(), "2");
}

#[test]
fn a_module_is_adapted_and_compiled_once_per_digest() {
    let (module, _) = probe();
    let cache = tempfile::tempdir().unwrap();
    let first = Ws::new();
    let added = ok_in(
        &first,
        cache.path(),
        &["commands", "add", "p", module.to_str().unwrap()],
    );
    assert!(
        text(&added.stderr).contains("compiling"),
        "the first registration compiles: {}",
        text(&added.stderr)
    );
    // Another workspace, another name, the same bytes: nothing to compile.
    let second = Ws::new();
    let again = ok_in(
        &second,
        cache.path(),
        &["commands", "add", "q", module.to_str().unwrap()],
    );
    let ran = ok_in(&second, cache.path(), &["run", "q", "args", "cached"]);
    assert_eq!(text(&ran.stdout), "cached\n");
    for out in [&again, &ran] {
        assert!(
            !text(&out.stderr).contains("compiling"),
            "compiled again: {}",
            text(&out.stderr)
        );
    }
}

/// A core module: `imports` (module, name, entity), one memory (shared or
/// not) unless one is imported, and the exports named, each a function of
/// type `() -> ()` whose body may use the legacy `try`.
struct Spec<'a> {
    imports: Vec<(&'a str, &'a str, EntityType)>,
    shared_memory: bool,
    exports: &'a [&'a str],
    legacy_try: bool,
}

impl Spec<'_> {
    fn encode(&self) -> Vec<u8> {
        let mut types = TypeSection::new();
        types.ty().function([], []);
        types.ty().function([ValType::I32], [ValType::I32]);
        types.ty().function([ValType::I32; 4], [ValType::I32]);
        let mut imports = ImportSection::new();
        let mut imported_funcs = 0;
        let mut imported_memory = false;
        for (module, name, ty) in &self.imports {
            imports.import(module, name, *ty);
            imported_funcs += u32::from(matches!(ty, EntityType::Function(_)));
            imported_memory |= matches!(ty, EntityType::Memory(_));
        }
        let mut functions = FunctionSection::new();
        let mut code = CodeSection::new();
        let mut exports = ExportSection::new();
        for (i, name) in self.exports.iter().enumerate() {
            functions.function(0);
            let mut body = Function::new([]);
            if self.legacy_try {
                body.instruction(&Instruction::Try(BlockType::Empty));
                body.instruction(&Instruction::CatchAll);
                body.instruction(&Instruction::End);
            }
            body.instruction(&Instruction::End);
            code.function(&body);
            exports.export(name, ExportKind::Func, imported_funcs + i as u32);
        }
        let mut module = Module::new();
        module.section(&types).section(&imports).section(&functions);
        if !imported_memory {
            let mut memories = MemorySection::new();
            memories.memory(memory(self.shared_memory));
            module.section(&memories);
            exports.export("memory", ExportKind::Memory, 0);
        }
        module.section(&exports).section(&code);
        module.finish()
    }
}

fn memory(shared: bool) -> MemoryType {
    MemoryType {
        minimum: 1,
        maximum: shared.then_some(2),
        memory64: false,
        shared,
        page_size_log2: None,
    }
}

#[test]
fn modules_needing_what_we_do_not_offer_are_refused_by_name() {
    let fd_write = (
        "wasi_snapshot_preview1",
        "fd_write",
        EntityType::Function(2),
    );
    let plain = |imports, exports, legacy_try| Spec {
        imports,
        shared_memory: false,
        exports,
        legacy_try,
    };
    let cases: Vec<(&str, Spec<'_>, &str)> = vec![
        (
            "shared memory",
            Spec {
                shared_memory: true,
                ..plain(vec![fd_write], &["_start"], false)
            },
            "needs threads",
        ),
        (
            "imported shared memory",
            plain(
                vec![("env", "memory", EntityType::Memory(memory(true)))],
                &["_start"],
                false,
            ),
            "needs threads",
        ),
        (
            "wasi-threads",
            plain(
                vec![("wasi", "thread-spawn", EntityType::Function(1))],
                &["_start"],
                false,
            ),
            "`wasi`.`thread-spawn`",
        ),
        (
            "an unknown import",
            plain(
                vec![("env", "js_eval", EntityType::Function(1))],
                &["_start"],
                false,
            ),
            "imports `env`.`js_eval`, which this runtime does not provide",
        ),
        (
            "an unknown wasip1 function",
            plain(
                vec![(
                    "wasi_snapshot_preview1",
                    "no_such_call",
                    EntityType::Function(1),
                )],
                &["_start"],
                false,
            ),
            "`wasi_snapshot_preview1`.`no_such_call`",
        ),
        (
            "a reactor",
            plain(vec![fd_write], &["_initialize"], false),
            "reactor",
        ),
        (
            "a library",
            plain(vec![fd_write], &["f"], false),
            "exports no `_start`",
        ),
        (
            "legacy exceptions",
            plain(vec![fd_write], &["_start"], true),
            "--translate-to-exnref",
        ),
    ];
    let ws = Ws::new();
    let dir = tempfile::tempdir().unwrap();
    let cache = component_cache_dir();
    for (what, spec, message) in cases {
        let path = dir.path().join("m.wasm");
        std::fs::write(&path, spec.encode()).unwrap();
        let args = ["commands", "add", "m", path.to_str().unwrap()];
        let out = run_in(&ws, &cache, &args);
        assert_eq!(
            out.status.code(),
            Some(1),
            "{what}: {}",
            describe(&args, &out)
        );
        let stderr = text(&out.stderr);
        assert!(stderr.contains(message), "{what}: {stderr}");
        assert!(!stderr.contains("panicked"), "{what}: {stderr}");
    }
    // A minimal valid command is accepted, so the cases above fail for
    // their own reason.
    let path = dir.path().join("ok.wasm");
    std::fs::write(&path, plain(vec![fd_write], &["_start"], false).encode()).unwrap();
    ok_in(
        &ws,
        &cache,
        &["commands", "add", "m", path.to_str().unwrap()],
    );
    let out = ok_in(&ws, &cache, &["run", "m"]);
    assert_eq!(text(&out.stdout), "");
}
