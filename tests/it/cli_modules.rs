//! `computer modules add/ls/rm`, driven as a user would: components are
//! checked before they are stored, the registration persists in the
//! workspace, and `computer exec` can import what was added.

use std::path::PathBuf;
use std::process::Output;

use computer_tests::{
    Value, Ws, component_cache_dir, describe, json, one_json, parse_error_json, parse_error_line,
    run_command, text, workspace_root,
};

/// The runtime tests' module component, built by `scripts/build-guests.sh`.
fn test_module() -> PathBuf {
    let path =
        workspace_root().join("guests/target/wasm32-wasip2/release/computer_test_module.wasm");
    assert!(
        path.is_file(),
        "{} does not exist: run scripts/build-guests.sh",
        path.display()
    );
    path
}

/// `computer --workspace <db> ARGS...` with the component cache under the
/// target directory (loading a module compiles it).
fn run(ws: &Ws, args: &[&str]) -> Output {
    let mut cmd = ws.command(args);
    cmd.env("COMPUTER_CACHE_DIR", component_cache_dir());
    run_command(&mut cmd, b"")
}

fn ok(ws: &Ws, args: &[&str]) -> String {
    let out = run(ws, args);
    assert!(
        out.status.success() && out.stderr.is_empty(),
        "expected success\n{}",
        describe(args, &out)
    );
    text(&out.stdout)
}

fn json_ok(ws: &Ws, args: &[&str]) -> Value {
    let mut with = args.to_vec();
    with.push("--json");
    one_json(ok(ws, &with).as_bytes())
}

/// A command that must fail the same way plainly and with `--json`.
fn err(ws: &Ws, args: &[&str]) -> (String, String) {
    let out = run(ws, args);
    assert!(
        out.status.code() == Some(1) && out.stdout.is_empty(),
        "expected exit 1 with empty stdout\n{}",
        describe(args, &out)
    );
    let plain = parse_error_line(&out.stderr);
    let mut with = args.to_vec();
    with.push("--json");
    let out = run(ws, &with);
    assert!(
        out.status.code() == Some(1) && out.stderr.is_empty(),
        "expected exit 1 with empty stderr\n{}",
        describe(&with, &out)
    );
    assert_eq!(plain, parse_error_json(&one_json(&out.stdout)));
    plain
}

fn names(ls: &Value) -> Vec<String> {
    ls["modules"]
        .as_array()
        .expect("modules is an array")
        .iter()
        .map(|m| m["name"].as_str().expect("name").to_owned())
        .collect()
}

#[test]
fn add_ls_replace_rm() {
    let ws = Ws::new();
    let module = test_module();
    let path = module.to_str().unwrap();
    assert_eq!(
        names(&json_ok(&ws, &["modules", "ls"])),
        Vec::<String>::new()
    );
    assert_eq!(ok(&ws, &["modules", "ls"]), "");

    let out = ok(
        &ws,
        &[
            "modules",
            "add",
            "ws:kinds",
            path,
            "--config",
            "base_url=http://127.0.0.1:9",
            "--config",
            "api_token=hush",
            "--allow-host",
            "127.0.0.1:9",
        ],
    );
    assert!(
        out.starts_with("added ws:kinds (test:kinds/kinds, "),
        "{out}"
    );
    assert!(
        out.contains("  greet: func(name: string, punctuation: option<string>) -> string\n"),
        "{out}"
    );

    let ls = json_ok(&ws, &["modules", "ls"]);
    assert_eq!(names(&ls), ["ws:kinds"]);
    let m = &ls["modules"][0];
    assert_eq!(
        m["config"],
        json!([["base_url", "http://127.0.0.1:9"], ["api_token", "***"]]),
        "settings that look secret are not shown"
    );
    assert_eq!(m["allow_hosts"], json!(["127.0.0.1:9"]));
    assert_eq!(
        m["size"].as_u64(),
        Some(std::fs::metadata(&module).unwrap().len())
    );
    assert_eq!(m["sha256"].as_str().map(str::len), Some(64));
    let greet = m["functions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["name"] == "greet")
        .expect("greet is listed");
    assert_eq!(
        greet["params"],
        json!([{"name": "name", "type": "string"}, {"name": "punctuation", "type": "option<string>"}])
    );
    let plain = ok(&ws, &["modules", "ls"]);
    assert!(plain.starts_with("ws:kinds  sha256:"), "{plain}");
    assert!(
        plain.contains("  config: base_url=http://127.0.0.1:9 api_token=***\n"),
        "{plain}"
    );
    assert!(plain.contains("  allowed hosts: 127.0.0.1:9\n"), "{plain}");

    // Adding the same name again replaces it.
    let doc = json_ok(&ws, &["modules", "add", "ws:kinds", path]);
    assert_eq!(doc["replaced"], json!(true));
    assert_eq!(doc["module"]["config"], json!([]));
    json_ok(&ws, &["modules", "add", "ws:other", path]);
    assert_eq!(
        names(&json_ok(&ws, &["modules", "ls"])),
        ["ws:kinds", "ws:other"]
    );

    assert_eq!(
        ok(&ws, &["modules", "rm", "ws:kinds"]),
        "removed ws:kinds\n"
    );
    assert_eq!(names(&json_ok(&ws, &["modules", "ls"])), ["ws:other"]);
    let (code, msg) = err(&ws, &["modules", "rm", "ws:kinds"]);
    assert_eq!(code, "ENOENT");
    assert!(msg.contains("no module ws:kinds"), "{msg}");
}

#[test]
fn bad_components_and_arguments_are_refused_and_nothing_is_stored() {
    let ws = Ws::new();
    let module = test_module();
    let path = module.to_str().unwrap();

    let junk = ws.host("junk.wasm");
    std::fs::write(&junk, b"\0asm\x0d\0\x01\0 not really").unwrap();
    let (code, msg) = err(&ws, &["modules", "add", "ws:junk", junk.to_str().unwrap()]);
    assert_eq!(code, "EINVAL");
    assert!(
        msg.starts_with("module ws:junk cannot be used: not a valid WebAssembly component"),
        "{msg}"
    );

    // A runner guest is a component, but not of the module world.
    let js = computer_tests::js_guest_wasm();
    let (code, msg) = err(&ws, &["modules", "add", "ws:js", js.to_str().unwrap()]);
    assert_eq!(code, "EINVAL");
    assert!(msg.contains("exports exactly one interface"), "{msg}");

    let (code, msg) = err(&ws, &["modules", "add", "github", path]);
    assert_eq!(code, "EINVAL");
    assert!(msg.contains("^ws:[A-Za-z0-9][A-Za-z0-9._-]*$"), "{msg}");

    let (code, msg) = err(
        &ws,
        &["modules", "add", "ws:k", path, "--config", "novalue"],
    );
    assert_eq!(code, "EINVAL");
    assert!(msg.contains("expected KEY=VALUE"), "{msg}");

    let (code, msg) = err(
        &ws,
        &[
            "modules",
            "add",
            "ws:k",
            path,
            "--allow-host",
            "https://x.test/",
        ],
    );
    assert_eq!(code, "EINVAL");
    assert!(msg.contains("invalid allowed host"), "{msg}");

    let missing = ws.host("missing.wasm");
    let (code, _) = err(&ws, &["modules", "add", "ws:k", missing.to_str().unwrap()]);
    assert_eq!(code, "ENOENT");

    assert_eq!(
        names(&json_ok(&ws, &["modules", "ls"])),
        Vec::<String>::new()
    );
}

#[test]
fn exec_imports_the_workspace_modules() {
    let ws = Ws::new();
    let module = test_module();
    ok(
        &ws,
        &[
            "modules",
            "add",
            "ws:kinds",
            module.to_str().unwrap(),
            "--config",
            "k=v",
        ],
    );
    let out = ws.exec(
        &["import { greet, divide, context } from 'ws:kinds';\n\
             console.log(greet('Ann'), divide(8, 2), JSON.stringify(context()[1]));"],
        "",
    );
    assert_eq!(
        text(&out.stdout),
        "Hello, Ann! 4 [[\"k\",\"v\"]]\n",
        "{}",
        describe(&["exec"], &out)
    );
    assert!(out.status.success(), "{}", describe(&["exec"], &out));

    // After rm, the import fails and says so.
    ok(&ws, &["modules", "rm", "ws:kinds"]);
    let out = ws.exec(&["import { greet } from 'ws:kinds'; greet('x');"], "");
    assert_eq!(out.status.code(), Some(1), "{}", describe(&["exec"], &out));
    assert!(
        text(&out.stderr).contains("ws:kinds"),
        "{}",
        describe(&["exec"], &out)
    );
}
