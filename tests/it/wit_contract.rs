//! The WIT contract between the host and its guests: `wit/` must parse as the
//! package `computer:workspace@0.1.0`, with the worlds, interfaces, functions,
//! record fields and enum cases that the host and the guests implement, and
//! with every item documented.

use std::collections::BTreeSet;
use std::path::PathBuf;

use wit_parser::{
    Docs, InterfaceId, PackageId, Resolve, Type, TypeDefKind, WorldId, WorldItem, WorldKey,
};

const FS_FUNCTIONS: &[&str] = &[
    "read",
    "write",
    "append",
    "truncate",
    "mkdir",
    "rm",
    "rename",
    "copy",
    "stat",
    "lstat",
    "readdir",
    "symlink",
    "link",
    "readlink",
    "chmod",
    "set-mtime",
    "realpath",
    "find",
    "grep",
    "edit",
    "rev",
];

fn wit_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../wit")
}

fn load() -> (Resolve, PackageId) {
    let mut resolve = Resolve::new();
    let dir = wit_dir();
    let (pkg, _sources) = resolve
        .push_dir(&dir)
        .unwrap_or_else(|e| panic!("{} does not parse: {e:?}", dir.display()));
    (resolve, pkg)
}

fn interface(resolve: &Resolve, pkg: PackageId, name: &str) -> InterfaceId {
    *resolve.packages[pkg]
        .interfaces
        .get(name)
        .unwrap_or_else(|| panic!("interface `{name}` is missing"))
}

fn world(resolve: &Resolve, pkg: PackageId, name: &str) -> WorldId {
    *resolve.packages[pkg]
        .worlds
        .get(name)
        .unwrap_or_else(|| panic!("world `{name}` is missing"))
}

fn names<'a>(iter: impl IntoIterator<Item = &'a String>) -> BTreeSet<String> {
    iter.into_iter().cloned().collect()
}

fn expected(list: &[&str]) -> BTreeSet<String> {
    list.iter().map(|s| s.to_string()).collect()
}

fn function_names(resolve: &Resolve, iface: InterfaceId) -> BTreeSet<String> {
    names(resolve.interfaces[iface].functions.keys())
}

/// The interfaces a world imports, as `ns:pkg/name@version` strings.
fn imported_interfaces(resolve: &Resolve, world: WorldId) -> BTreeSet<String> {
    resolve.worlds[world]
        .imports
        .values()
        .filter_map(|item| match item {
            WorldItem::Interface { id, .. } => resolve.id_of(*id),
            _ => None,
        })
        .collect()
}

/// The field names of a record type defined in an interface, in order.
fn record_fields(resolve: &Resolve, iface: InterfaceId, name: &str) -> Vec<String> {
    let id = resolve.interfaces[iface]
        .types
        .get(name)
        .unwrap_or_else(|| panic!("type `{name}` is missing"));
    match &resolve.types[*id].kind {
        TypeDefKind::Record(r) => r.fields.iter().map(|f| f.name.clone()).collect(),
        other => panic!("`{name}` should be a record, is {other:?}"),
    }
}

/// The field names of a record type that a world defines, in order.
fn world_record_fields(resolve: &Resolve, world: WorldId, name: &str) -> Vec<String> {
    let item = resolve.worlds[world]
        .imports
        .get(&WorldKey::Name(name.to_string()))
        .unwrap_or_else(|| panic!("world type `{name}` is missing"));
    let WorldItem::Type { id, .. } = item else {
        panic!("world item `{name}` should be a type");
    };
    match &resolve.types[*id].kind {
        TypeDefKind::Record(r) => r.fields.iter().map(|f| f.name.clone()).collect(),
        other => panic!("`{name}` should be a record, is {other:?}"),
    }
}

fn case_names(resolve: &Resolve, iface: InterfaceId, name: &str) -> Vec<String> {
    let id = resolve.interfaces[iface]
        .types
        .get(name)
        .unwrap_or_else(|| panic!("type `{name}` is missing"));
    match &resolve.types[*id].kind {
        TypeDefKind::Enum(e) => e.cases.iter().map(|c| c.name.clone()).collect(),
        TypeDefKind::Variant(v) => v.cases.iter().map(|c| c.name.clone()).collect(),
        other => panic!("`{name}` should be an enum or variant, is {other:?}"),
    }
}

fn strings(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

fn documented(docs: &Docs) -> bool {
    docs.contents
        .as_deref()
        .is_some_and(|s| !s.trim().is_empty())
}

#[test]
fn package_is_computer_workspace_0_1_0() {
    let (resolve, pkg) = load();
    assert_eq!(
        resolve.packages[pkg].name.to_string(),
        "computer:workspace@0.1.0"
    );
    for name in ["runner", "module"] {
        world(&resolve, pkg, name);
    }
    for name in ["fs", "modules", "call-context", "interrupt"] {
        interface(&resolve, pkg, name);
    }
}

#[test]
fn fs_has_every_function() {
    let (resolve, pkg) = load();
    let fs = interface(&resolve, pkg, "fs");
    assert_eq!(function_names(&resolve, fs), expected(FS_FUNCTIONS));

    // Every fs function returns `result<_, fs-error>`.
    let fs_error = resolve.interfaces[fs].types["fs-error"];
    for (name, func) in &resolve.interfaces[fs].functions {
        let Some(Type::Id(id)) = func.result else {
            panic!("fs `{name}` must return a result");
        };
        match &resolve.types[id].kind {
            TypeDefKind::Result(r) => {
                assert_eq!(r.err, Some(Type::Id(fs_error)), "fs `{name}` error type")
            }
            other => panic!("fs `{name}` must return a result, returns {other:?}"),
        }
    }
}

#[test]
fn fs_types_have_the_agreed_shape() {
    let (resolve, pkg) = load();
    let fs = interface(&resolve, pkg, "fs");
    let codes = case_names(&resolve, fs, "error-code");
    for code in [
        "enoent",
        "eexist",
        "enotdir",
        "eisdir",
        "enotempty",
        "einval",
        "eloop",
        "erofs",
        "eperm",
        "efbig",
        "enametoolong",
        "eacces",
        "eio",
        "enospc",
    ] {
        assert!(codes.iter().any(|c| c == code), "error-code lacks `{code}`");
    }
    assert_eq!(
        case_names(&resolve, fs, "node-kind"),
        strings(&["file", "directory", "symlink"])
    );
    let records: &[(&str, &[&str])] = &[
        ("fs-error", &["code", "path", "message"]),
        (
            "node-stat",
            &["name", "kind", "mode", "size", "mtime-ns", "ino"],
        ),
        ("write-options", &["mode", "exclusive", "create-parents"]),
        ("find-entry", &["path", "kind"]),
        (
            "grep-options",
            &[
                "regex",
                "ignore-case",
                "context",
                "include",
                "offset",
                "limit",
            ],
        ),
        (
            "grep-match",
            &["path", "line-number", "line", "before", "after"],
        ),
        ("text-edit", &["old", "new"]),
        ("edit-result", &["diff", "applied"]),
    ];
    for (name, fields) in records {
        assert_eq!(record_fields(&resolve, fs, name), strings(fields), "{name}");
    }
}

#[test]
fn runner_world_imports_workspace_and_exports_run() {
    let (resolve, pkg) = load();
    let runner = world(&resolve, pkg, "runner");
    let imports = imported_interfaces(&resolve, runner);
    for name in [
        "computer:workspace/fs@0.1.0",
        "computer:workspace/modules@0.1.0",
        "wasi:cli/environment@0.2.12",
        "wasi:cli/stdin@0.2.12",
        "wasi:cli/stdout@0.2.12",
        "wasi:cli/stderr@0.2.12",
        "wasi:cli/exit@0.2.12",
        "wasi:clocks/monotonic-clock@0.2.12",
        "wasi:clocks/wall-clock@0.2.12",
        "wasi:random/random@0.2.12",
        "wasi:random/insecure@0.2.12",
        "wasi:random/insecure-seed@0.2.12",
    ] {
        assert!(imports.contains(name), "runner does not import {name}");
    }
    for denied in ["wasi:filesystem/", "wasi:sockets/", "wasi:http/"] {
        assert!(
            !imports.iter().any(|i| i.starts_with(denied)),
            "runner must not import {denied}*: {imports:?}"
        );
    }

    let exports = &resolve.worlds[runner].exports;
    assert_eq!(exports.len(), 1, "runner exports exactly `run`");
    let run = exports
        .get(&WorldKey::Name("run".to_string()))
        .expect("runner exports `run`");
    let WorldItem::Function(run) = run else {
        panic!("`run` should be a function");
    };
    let params: Vec<&str> = run.params.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(params, ["request"]);
    assert!(run.result.is_some(), "`run` returns a run-outcome");

    assert_eq!(
        world_record_fields(&resolve, runner, "run-request"),
        strings(&["source", "argv", "cwd", "input-json"])
    );
    assert_eq!(
        world_record_fields(&resolve, runner, "run-outcome"),
        strings(&["exit-code", "value-json"])
    );
}

#[test]
fn modules_interface_is_complete() {
    let (resolve, pkg) = load();
    let modules = interface(&resolve, pkg, "modules");
    assert_eq!(
        function_names(&resolve, modules),
        expected(&["list-modules", "list-functions", "call"])
    );
    assert_eq!(
        record_fields(&resolve, modules, "function-info"),
        strings(&["name", "params", "result", "docs"])
    );
    assert_eq!(
        record_fields(&resolve, modules, "param-info"),
        strings(&["name", "type-desc"])
    );
    assert_eq!(
        case_names(&resolve, modules, "module-error"),
        strings(&[
            "not-found",
            "bad-arguments",
            "rejected",
            "failed",
            "may-have-taken-effect",
            "error-value",
        ])
    );
}

#[test]
fn module_world_imports_context_and_interrupt() {
    let (resolve, pkg) = load();
    let module = world(&resolve, pkg, "module");
    let imports = imported_interfaces(&resolve, module);
    for name in [
        "computer:workspace/call-context@0.1.0",
        "computer:workspace/interrupt@0.1.0",
        "wasi:http/outgoing-handler@0.2.12",
        "wasi:cli/stdout@0.2.12",
        "wasi:cli/stderr@0.2.12",
        "wasi:clocks/monotonic-clock@0.2.12",
        "wasi:clocks/wall-clock@0.2.12",
        "wasi:random/random@0.2.12",
    ] {
        assert!(imports.contains(name), "module does not import {name}");
    }
    assert!(
        !imports.contains("computer:workspace/fs@0.1.0"),
        "modules get no workspace filesystem"
    );
    assert!(
        resolve.worlds[module].exports.is_empty(),
        "the module world exports nothing; an author's world adds one interface"
    );

    let ctx = interface(&resolve, pkg, "call-context");
    assert_eq!(
        function_names(&resolve, ctx),
        expected(&["call-id", "unsafe-to-repeat", "config"])
    );
    let interrupt = interface(&resolve, pkg, "interrupt");
    assert_eq!(
        function_names(&resolve, interrupt),
        expected(&["interrupt"])
    );
    assert_eq!(
        record_fields(&resolve, interrupt, "rejection"),
        strings(&["reason", "value-json"])
    );
}

#[test]
fn every_item_is_documented() {
    let (resolve, pkg) = load();
    let mut missing = Vec::new();
    for (iname, &iid) in &resolve.packages[pkg].interfaces {
        let iface = &resolve.interfaces[iid];
        if !documented(&iface.docs) {
            missing.push(format!("interface {iname}"));
        }
        for (fname, func) in &iface.functions {
            if !documented(&func.docs) {
                missing.push(format!("{iname}.{fname}"));
            }
        }
        for (tname, &tid) in &iface.types {
            let def = &resolve.types[tid];
            if !documented(&def.docs) {
                missing.push(format!("{iname}.{tname}"));
            }
            missing.extend(undocumented_members(&def.kind, &format!("{iname}.{tname}")));
        }
    }
    for (wname, &wid) in &resolve.packages[pkg].worlds {
        let world = &resolve.worlds[wid];
        if !documented(&world.docs) {
            missing.push(format!("world {wname}"));
        }
        for (key, item) in world.imports.iter().chain(world.exports.iter()) {
            let label = format!("world {wname}: {}", resolve.name_world_key(key));
            match item {
                WorldItem::Function(f) if !documented(&f.docs) => missing.push(label),
                WorldItem::Type { id, .. } => {
                    // Only types the world defines itself (not those it pulls
                    // in from interfaces).
                    let def = &resolve.types[*id];
                    if matches!(def.owner, wit_parser::TypeOwner::World(w) if w == wid) {
                        if !documented(&def.docs) {
                            missing.push(label.clone());
                        }
                        missing.extend(undocumented_members(&def.kind, &label));
                    }
                }
                _ => {}
            }
        }
    }
    assert!(missing.is_empty(), "undocumented WIT items: {missing:#?}");
}

fn undocumented_members(kind: &TypeDefKind, owner: &str) -> Vec<String> {
    match kind {
        TypeDefKind::Record(r) => r
            .fields
            .iter()
            .filter(|f| !documented(&f.docs))
            .map(|f| format!("{owner}.{}", f.name))
            .collect(),
        TypeDefKind::Enum(e) => e
            .cases
            .iter()
            .filter(|c| !documented(&c.docs))
            .map(|c| format!("{owner}.{}", c.name))
            .collect(),
        TypeDefKind::Variant(v) => v
            .cases
            .iter()
            .filter(|c| !documented(&c.docs))
            .map(|c| format!("{owner}.{}", c.name))
            .collect(),
        TypeDefKind::Flags(f) => f
            .flags
            .iter()
            .filter(|c| !documented(&c.docs))
            .map(|c| format!("{owner}.{}", c.name))
            .collect(),
        _ => Vec::new(),
    }
}
