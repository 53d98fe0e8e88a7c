//! Module components through the public API: loading and refusing
//! components, the function list with WIT-like types, JSON <-> component
//! values of every kind in both directions, errors that name the function
//! and the argument, the call context (call id, config, interrupts,
//! unsafe-to-repeat), limits, outgoing HTTP allowed and denied, and the
//! `ws:github` example end to end against a local HTTP server.
//!
//! The components are built by `scripts/build-guests.sh`:
//! `tests/fixtures/test-module` (every value kind, ways to fail) and
//! `examples/github-module`.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, Once};
use std::time::{Duration, Instant};

use computer_runtime::{
    Answer, CallContext, ComponentModule, ExecError, ExecOptions, HostModule, JS_GUEST,
    ModuleCallError, ModuleLimits, RunStatus, Runtime, RuntimeConfig,
};
use computer_store::{NewModule, Workspace};
use serde_json::{Value, json};

// ------------------------------------------------------------------ helpers

fn cache_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("component-cache")
}

fn runtime() -> Runtime {
    // The engine is per process, sized by the first runtime: give every
    // test the defaults.
    static FIRST: Once = Once::new();
    let config = || RuntimeConfig {
        cache_dir: Some(cache_dir()),
        ..Default::default()
    };
    FIRST.call_once(|| {
        Runtime::new(config()).expect("creating the first runtime");
    });
    Runtime::new(config()).expect("creating a runtime")
}

/// A component built by `scripts/build-guests.sh` (or `$VAR`).
fn built(var: &str, file: &str) -> Vec<u8> {
    let path = std::env::var_os(var).map(PathBuf::from).unwrap_or_else(|| {
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../../guests/target/wasm32-wasip2/release")
            .join(file)
    });
    std::fs::read(&path).unwrap_or_else(|e| {
        panic!(
            "cannot read {} ({e}): run scripts/build-guests.sh to build the module components",
            path.display()
        )
    })
}

fn test_module_bytes() -> &'static [u8] {
    static BYTES: std::sync::OnceLock<Vec<u8>> = std::sync::OnceLock::new();
    BYTES.get_or_init(|| built("COMPUTER_TEST_MODULE_WASM", "computer_test_module.wasm"))
}

fn github_bytes() -> &'static [u8] {
    static BYTES: std::sync::OnceLock<Vec<u8>> = std::sync::OnceLock::new();
    BYTES.get_or_init(|| built("COMPUTER_GITHUB_MODULE_WASM", "github_module.wasm"))
}

fn kinds() -> ComponentModule {
    kinds_with(vec![("k".into(), "v".into()), ("a".into(), "b".into())])
}

fn kinds_with(config: Vec<(String, String)>) -> ComponentModule {
    ComponentModule::load(&runtime(), "ws:kinds", test_module_bytes(), config, vec![])
        .unwrap_or_else(|e| panic!("loading the test module: {e}"))
}

fn ctx(function: &str) -> CallContext {
    CallContext::detached("call-1", "kinds", function)
}

fn call(m: &ComponentModule, function: &str, args: Value) -> Result<Value, ModuleCallError> {
    m.call(function, args, &mut ctx(function))
}

fn ok(m: &ComponentModule, function: &str, args: Value) -> Value {
    call(m, function, args).unwrap_or_else(|e| panic!("{function} failed: {e:?}"))
}

/// The message of a `BadArguments` error.
fn bad_args(m: &ComponentModule, function: &str, args: Value) -> String {
    match call(m, function, args.clone()) {
        Err(ModuleCallError::BadArguments(msg)) => msg,
        other => panic!("{function}({args}): expected BadArguments, got {other:?}"),
    }
}

fn failed(r: Result<Value, ModuleCallError>) -> String {
    match r {
        Err(ModuleCallError::Failed(msg)) => msg,
        other => panic!("expected Failed, got {other:?}"),
    }
}

fn bad_module(r: Result<ComponentModule, ExecError>) -> String {
    match r {
        Err(ExecError::BadModule { reason, .. }) => reason,
        Err(other) => panic!("expected BadModule, got {other:?}"),
        Ok(m) => panic!("expected BadModule, loaded {}", m.name()),
    }
}

/// A value of the `everything` record, as JSON.
fn everything() -> Value {
    json!({
        "flag": true,
        "v-u8": 255, "v-s8": -128, "v-u16": 65535, "v-s16": -32768,
        "v-u32": 4294967295u64, "v-s32": -2147483648i64,
        "v-u64": u64::MAX, "v-s64": i64::MIN,
        "v-f32": 0.5, "v-f64": 1e300,
        "letter": "é",
        "text": "hello \"world\"\n",
        "bytes": [0, 1, 255],
        "pair": ["a", 7],
        "maybe": {"x": 1, "y": -2, "label": "p"},
        "outcome": {"err": "bad"},
        "bare": {"ok": null},
        "hue": "green",
        "form": {"circle": 2.5},
        "access": ["read", "exec"],
        "points": [null, {"x": 3, "y": 4, "label": null}],
    })
}

// ------------------------------------------------------------ loading

#[test]
fn the_function_list_has_wit_like_types() {
    let m = kinds();
    assert_eq!(m.name(), "ws:kinds");
    assert_eq!(m.interface(), "test:kinds/kinds");
    let fns = m.functions();
    let names: Vec<&str> = fns.iter().map(|f| f.name.as_str()).collect();
    let mut sorted = names.clone();
    sorted.sort();
    assert_eq!(names, sorted, "sorted by name");
    for expected in [
        "add",
        "ask",
        "echo",
        "echo-point",
        "greet",
        "nothing",
        "ok-unit",
    ] {
        assert!(
            names.contains(&expected),
            "{expected} missing from {names:?}"
        );
    }
    let f = |name: &str| fns.iter().find(|f| f.name == name).expect(name).clone();
    let sig = |name: &str| {
        let f = f(name);
        let params: Vec<String> = f
            .params
            .iter()
            .map(|p| format!("{}: {}", p.name, p.type_desc))
            .collect();
        (params.join(", "), f.result)
    };
    assert_eq!(
        sig("greet"),
        (
            "name: string, punctuation: option<string>".into(),
            Some("string".into())
        )
    );
    assert_eq!(
        sig("divide"),
        ("a: u32, b: u32".into(), Some("result<u32, string>".into()))
    );
    assert_eq!(
        sig("fail-unit"),
        (
            "hue: enum { red, green, blue }".into(),
            Some("result<_, enum { red, green, blue }>".into())
        )
    );
    assert_eq!(
        sig("ok-unit"),
        ("".into(), Some("result<_, string>".into()))
    );
    assert_eq!(sig("nothing"), ("".into(), None));
    assert_eq!(
        sig("context"),
        (
            "".into(),
            Some("tuple<string, list<tuple<string, string>>>".into())
        )
    );
    assert_eq!(
        sig("echo-point").0,
        "p: record { x: s32, y: s32, label: option<string> }"
    );
    let echo = f("echo").params[0].type_desc.clone();
    for part in [
        "record { flag: bool, v-u8: u8, v-s8: s8, v-u16: u16, v-s16: s16, v-u32: u32, v-s32: s32, v-u64: u64, v-s64: s64, v-f32: f32, v-f64: f64, letter: char, text: string, bytes: list<u8>, pair: tuple<string, u32>,",
        "maybe: option<record { x: s32, y: s32, label: option<string> }>",
        "outcome: result<u32, string>, bare: result, hue: enum { red, green, blue }",
        "form: variant { circle(f64), square(u32), empty }",
        "access: flags { read, write, exec }",
        "points: list<option<record { x: s32, y: s32, label: option<string> }>> }",
    ] {
        assert!(echo.contains(part), "{part:?} not in {echo:?}");
    }
}

#[test]
fn bad_names_and_bad_components_are_refused_at_load() {
    let rt = runtime();
    for name in ["kinds", "ws:", "ws:-x", "ws:a/b", "ws:a b"] {
        let reason = bad_module(ComponentModule::load(
            &rt,
            name,
            test_module_bytes(),
            vec![],
            vec![],
        ));
        assert!(
            reason.contains("^ws:[A-Za-z0-9]") || reason.contains("must start with ws:"),
            "{name}: {reason}"
        );
    }
    let reason = bad_module(ComponentModule::load(
        &rt,
        "ws:junk",
        b"not wasm at all",
        vec![],
        vec![],
    ));
    assert!(
        reason.contains("not a valid WebAssembly component"),
        "{reason}"
    );

    let reason = bad_module(ComponentModule::load(
        &rt,
        "ws:kinds",
        test_module_bytes(),
        vec![],
        vec!["http://example.com/x".into()],
    ));
    assert!(reason.contains("invalid allowed host"), "{reason}");

    // A runner guest is not a module: it exports a function, not an interface.
    if let Some(js) = JS_GUEST {
        let err = ComponentModule::load(&rt, "ws:js", js, vec![], vec![]);
        let reason = bad_module(err);
        assert!(reason.contains("exports exactly one interface"), "{reason}");
    }
}

#[test]
fn a_module_registers_under_its_name_and_is_listed() {
    let rt = runtime();
    rt.register_module_component("ws:kinds", test_module_bytes(), vec![], vec![])
        .expect("register");
    assert_eq!(rt.modules().names(), vec!["ws:kinds".to_owned()]);
    let mut c = ctx("add");
    assert_eq!(
        rt.modules().call("kinds", "add", json!([2, 3]), &mut c),
        Ok(json!(5))
    );
    let err = rt
        .register_module_component("github", test_module_bytes(), vec![], vec![])
        .unwrap_err();
    assert!(matches!(err, ExecError::BadModule { .. }), "{err:?}");
}

#[test]
fn workspace_modules_are_registered_from_the_store() {
    let ws = Workspace::in_memory().unwrap();
    let rt = runtime();
    assert_eq!(rt.register_workspace_modules(&ws).unwrap(), 0);
    let config = vec![("repo".to_owned(), "o/r".to_owned())];
    ws.modules()
        .add(&NewModule {
            name: "ws:kinds",
            component: test_module_bytes(),
            config: &config,
            allow_hosts: &[],
            functions: json!([]),
        })
        .unwrap();
    assert_eq!(rt.register_workspace_modules(&ws).unwrap(), 1);
    assert_eq!(rt.modules().names(), vec!["ws:kinds".to_owned()]);
    let mut c = CallContext::detached("id-9", "kinds", "context");
    assert_eq!(
        rt.modules().call("kinds", "context", json!([]), &mut c),
        Ok(json!(["id-9", [["repo", "o/r"]]])),
        "the stored config reaches the module"
    );

    // A broken stored module is an error naming it, not a silent skip.
    ws.modules()
        .add(&NewModule {
            name: "ws:broken",
            component: b"\0asm junk",
            config: &[],
            allow_hosts: &[],
            functions: json!([]),
        })
        .unwrap();
    match runtime().register_workspace_modules(&ws) {
        Err(ExecError::BadModule { name, .. }) => assert_eq!(name, "ws:broken"),
        other => panic!("expected BadModule, got {other:?}"),
    }
}

// ------------------------------------------------------------ values

#[test]
fn every_value_kind_round_trips_through_json() {
    let m = kinds();
    let value = everything();
    assert_eq!(ok(&m, "echo", json!([value])), value);

    // The other cases of each kind, and defaults: a missing option field is none.
    let mut other = everything();
    other["maybe"] = json!({"x": 0, "y": 0});
    other["outcome"] = json!({"ok": 42});
    other["bare"] = json!({"err": null});
    other["form"] = json!("empty");
    other["access"] = json!([]);
    other["points"] = json!([]);
    other["v-f32"] = json!(0.1);
    other["v-f64"] = json!(-0.0);
    let out = ok(&m, "echo", json!([other]));
    assert_eq!(out["maybe"], json!({"x": 0, "y": 0, "label": null}));
    assert_eq!(out["outcome"], json!({"ok": 42}));
    assert_eq!(out["bare"], json!({"err": null}));
    assert_eq!(out["form"], json!("empty"));
    assert_eq!(out["access"], json!([]));
    assert_eq!(
        out["v-f32"],
        json!(0.1),
        "f32 keeps its shortest decimal form"
    );

    other["form"] = json!({"square": 9});
    other["access"] = json!(["exec", "read", "exec"]);
    other["maybe"] = Value::Null;
    let out = ok(&m, "echo", json!([other]));
    assert_eq!(out["form"], json!({"square": 9}));
    assert_eq!(
        out["access"],
        json!(["read", "exec"]),
        "flags in declaration order, once"
    );
    assert_eq!(out["maybe"], Value::Null);

    // NaN has no JSON: null in, null out.
    other["v-f64"] = Value::Null;
    assert_eq!(ok(&m, "echo", json!([other]))["v-f64"], Value::Null);

    // Integral floats are integers; camelCase keys are accepted for kebab fields.
    let mut camel = serde_json::Map::new();
    for (k, v) in everything().as_object().unwrap() {
        let key = k.replace("v-", "v");
        let key = match key.as_str() {
            "vu8" => "vU8".to_owned(),
            _ => k.clone(),
        };
        camel.insert(key, v.clone());
    }
    camel.insert("v-u16".into(), json!(7.0));
    let out = ok(&m, "echo", json!([camel]));
    assert_eq!(out["v-u8"], json!(255));
    assert_eq!(out["v-u16"], json!(7));
}

#[test]
fn integers_are_range_checked() {
    let m = kinds();
    for (field, bad, ty) in [
        ("v-u8", json!(256), "u8"),
        ("v-u8", json!(-1), "u8"),
        ("v-s8", json!(128), "s8"),
        ("v-u16", json!(65536), "u16"),
        ("v-s16", json!(-32769), "s16"),
        ("v-u32", json!(4294967296u64), "u32"),
        ("v-s32", json!(2147483648u64), "s32"),
        ("v-u64", json!(-1), "u64"),
        ("v-s64", json!(u64::MAX), "s64"),
    ] {
        let mut v = everything();
        v[field] = bad.clone();
        let msg = bad_args(&m, "echo", json!([v]));
        assert_eq!(
            msg.split(" (").next().unwrap(),
            format!("ws:kinds.echo: argument value.{field}: {bad} is out of range for {ty}"),
            "{msg}"
        );
    }
    let mut v = everything();
    v["v-u32"] = json!(1.5);
    assert_eq!(
        bad_args(&m, "echo", json!([v])),
        "ws:kinds.echo: argument value.v-u32: expected u32, got 1.5"
    );
    assert_eq!(
        ok(&m, "add", json!([i64::MAX, 0])),
        json!(i64::MAX),
        "the full s64 range"
    );
}

#[test]
fn a_wrong_shape_names_the_function_and_the_argument() {
    let m = kinds();
    let cases: Vec<(&str, Value, &str)> = vec![
        (
            "add",
            json!(["x", 1]),
            "ws:kinds.add: argument a: expected s64, got \"x\"",
        ),
        (
            "add",
            json!([1, null]),
            "ws:kinds.add: argument b: expected s64, got null",
        ),
        (
            "greet",
            json!([7]),
            "ws:kinds.greet: argument name: expected string, got 7",
        ),
        (
            "greet",
            json!(["a", 3]),
            "ws:kinds.greet: argument punctuation: expected string, got 3",
        ),
        (
            "echo-point",
            json!([[1, 2]]),
            "ws:kinds.echo-point: argument p: expected record { x: s32, y: s32, label: option<string> }, got an array of 2 elements",
        ),
        (
            "echo-point",
            json!([{"x": 1}]),
            "ws:kinds.echo-point: argument p: missing field y (s32)",
        ),
        (
            "echo-point",
            json!([{"x": 1, "y": 2, "z": 3}]),
            "ws:kinds.echo-point: argument p: unknown field z; the record's fields are: x, y, label",
        ),
        (
            "echo-point",
            json!([{"x": 1, "y": "2"}]),
            "ws:kinds.echo-point: argument p.y: expected s32, got \"2\"",
        ),
        (
            "fail-unit",
            json!(["purple"]),
            "ws:kinds.fail-unit: argument hue: unknown case \"purple\"; the cases are: red, green, blue",
        ),
        (
            "add",
            json!([1, 2, 3]),
            "ws:kinds.add: takes 2 arguments (a: s64, b: s64), got 3",
        ),
        (
            "add",
            json!([1]),
            "ws:kinds.add: missing argument b (s64); the parameters are: a: s64, b: s64",
        ),
        (
            "add",
            json!("1, 2"),
            "ws:kinds.add: arguments must be a JSON array (a: s64, b: s64), got \"1, 2\"",
        ),
        (
            "echo-point",
            json!({"p": {"x": 1, "y": 2}}),
            "ws:kinds.echo-point: arguments must be a JSON array (p: record { x: s32, y: s32, label: option<string> }), got an object",
        ),
        (
            "greet",
            json!({"name": "a", "loud": true}),
            "ws:kinds.greet: unknown argument loud; the parameters are: name: string, punctuation: option<string>",
        ),
    ];
    for (function, args, expected) in cases {
        assert_eq!(
            bad_args(&m, function, args.clone()),
            expected,
            "{function}({args})"
        );
    }

    // Deeper paths: list index, tuple element, variant payload, flags, char.
    let deep: Vec<(&str, Value, &str)> = vec![
        (
            "points",
            json!([null, {"x": 1, "y": true}]),
            "argument value.points[1].y: expected s32, got true",
        ),
        (
            "pair",
            json!(["a", "b"]),
            "argument value.pair[1]: expected u32, got \"b\"",
        ),
        (
            "pair",
            json!(["a"]),
            "argument value.pair: expected tuple<string, u32> (an array of 2 elements), got an array of 1 elements",
        ),
        (
            "form",
            json!({"circle": "big"}),
            "argument value.form.circle: expected f64, got \"big\"",
        ),
        (
            "form",
            json!("circle"),
            "argument value.form: case circle needs a payload of type f64: write {\"circle\": ...}",
        ),
        (
            "form",
            json!({"empty": 1}),
            "argument value.form: case empty has no payload, got 1",
        ),
        (
            "form",
            json!({"cube": 1}),
            "argument value.form: unknown case \"cube\"; the cases are: circle, square, empty",
        ),
        (
            "access",
            json!(["read", "fly"]),
            "argument value.access[1]: expected one of the flags read, write, exec, got \"fly\"",
        ),
        (
            "letter",
            json!("ab"),
            "argument value.letter: expected char (a one-character string), got \"ab\"",
        ),
        (
            "outcome",
            json!({"maybe": 1}),
            "argument value.outcome: expected result<u32, string> ({\"ok\": ..} or {\"err\": ..}), got an object",
        ),
        (
            "outcome",
            json!({"ok": "x"}),
            "argument value.outcome.ok: expected u32, got \"x\"",
        ),
        (
            "bare",
            json!({"ok": 1}),
            "argument value.bare: ok has no payload, got 1",
        ),
        (
            "bytes",
            json!("AAE="),
            "argument value.bytes: expected list<u8>, got \"AAE=\"",
        ),
        (
            "flag",
            json!("true"),
            "argument value.flag: expected bool, got \"true\"",
        ),
    ];
    for (field, bad, expected) in deep {
        let mut v = everything();
        v[field] = bad.clone();
        assert_eq!(
            bad_args(&m, "echo", json!([v])),
            format!("ws:kinds.echo: {expected}"),
            "{field} = {bad}"
        );
    }
}

#[test]
fn arguments_may_be_named_and_trailing_options_left_out() {
    let m = kinds();
    assert_eq!(ok(&m, "greet", json!(["Ann"])), json!("Hello, Ann!"));
    assert_eq!(ok(&m, "greet", json!(["Ann", null])), json!("Hello, Ann!"));
    assert_eq!(ok(&m, "greet", json!(["Ann", "?"])), json!("Hello, Ann?"));
    assert_eq!(ok(&m, "greet", json!({"name": "Bo"})), json!("Hello, Bo!"));
    assert_eq!(
        ok(&m, "greet", json!({"punctuation": ".", "name": "Cy"})),
        json!("Hello, Cy.")
    );
    assert_eq!(ok(&m, "add", json!({"a": 40, "b": 2})), json!(42));
    assert_eq!(ok(&m, "nothing", json!([])), Value::Null);
    assert_eq!(ok(&m, "nothing", Value::Null), Value::Null);
}

#[test]
fn a_top_level_result_is_unwrapped() {
    let m = kinds();
    assert_eq!(ok(&m, "divide", json!([7, 2])), json!(3));
    assert_eq!(
        call(&m, "divide", json!([1, 0])),
        Err(ModuleCallError::ErrorValue(json!(
            "cannot divide 1 by zero"
        )))
    );
    assert_eq!(
        call(&m, "fail-unit", json!(["blue"])),
        Err(ModuleCallError::ErrorValue(json!("blue")))
    );
    assert_eq!(ok(&m, "ok-unit", json!([])), Value::Null);
    match call(&m, "nope", json!([])) {
        Err(ModuleCallError::NotFound(msg)) => {
            assert!(msg.starts_with("module ws:kinds has no function nope; it exports: add, ask, ask-twice, boom, context, divide, echo, echo-point,"), "{msg}");
        }
        other => panic!("expected NotFound, got {other:?}"),
    }
}

// ------------------------------------------------------------ call context

#[test]
fn the_module_sees_the_call_id_and_its_config_in_order() {
    let m = kinds();
    let mut c = CallContext::detached("run-7/call-3", "kinds", "context");
    assert_eq!(
        m.call("context", json!([]), &mut c),
        Ok(json!(["run-7/call-3", [["k", "v"], ["a", "b"]]]))
    );
    assert_eq!(c.call_id(), "run-7/call-3", "the context is handed back");
    // A context that carries its own config wins over the registered one.
    let mut c = CallContext::detached("c", "kinds", "context")
        .with_config(Arc::new(vec![("x".into(), "y".into())]));
    assert_eq!(
        m.call("context", json!([]), &mut c),
        Ok(json!(["c", [["x", "y"]]]))
    );
}

#[test]
fn an_interrupt_outside_a_durable_run_fails_clearly() {
    let m = kinds();
    let mut c = ctx("ask");
    let msg = failed(m.call("ask", json!(["{\"q\":1}"]), &mut c));
    assert!(
        msg.contains("ws:kinds.ask needs an approval, but this run is not durable"),
        "{msg}"
    );
    assert_eq!(
        c.call_id(),
        "call-1",
        "the context is handed back after the trap"
    );
    assert!(!c.parked());
}

#[test]
fn interrupts_are_approved_rejected_or_park_the_call() {
    let m = kinds();
    // Approved: the module gets the answer's JSON.
    let mut c = CallContext::with_answers(
        "c1",
        "kinds",
        "ask",
        vec![Answer::Approved(json!({"approved": true}))],
    );
    assert_eq!(
        m.call("ask", json!(["{\"q\":1}"]), &mut c),
        Ok(json!("{\"approved\":true}"))
    );
    assert!(!c.parked());

    // Rejected: the module gets the reason and the value.
    let mut c = CallContext::with_answers(
        "c2",
        "kinds",
        "ask",
        vec![Answer::Rejected {
            reason: "not today".into(),
            value: Some(json!({"retry": false})),
        }],
    );
    assert_eq!(
        m.call("ask", json!(["{}"]), &mut c),
        Err(ModuleCallError::ErrorValue(json!(
            "not today | {\"retry\":false}"
        )))
    );

    // No answer yet: the call is stopped and reports Parked.
    let mut c = CallContext::with_answers("c3", "kinds", "ask", vec![]);
    assert_eq!(
        m.call("ask", json!(["{}"]), &mut c),
        Err(ModuleCallError::Parked)
    );
    assert!(c.parked(), "the context knows it parked");
    assert_eq!(c.call_id(), "c3");

    // Several interrupts are answered in turn.
    let one = vec![Answer::Approved(json!(1))];
    let mut c = CallContext::with_answers("c4", "kinds", "ask-twice", one.clone());
    assert_eq!(
        m.call("ask-twice", json!([]), &mut c),
        Err(ModuleCallError::Parked)
    );
    let two = vec![Answer::Approved(json!(1)), Answer::Approved(json!("two"))];
    let mut c = CallContext::with_answers("c4", "kinds", "ask-twice", two);
    assert_eq!(
        m.call("ask-twice", json!([]), &mut c),
        Ok(json!(["1", "\"two\""]))
    );

    // The payload must be JSON.
    let mut c = CallContext::with_answers("c5", "kinds", "ask", one.clone());
    let msg = failed(m.call("ask", json!(["not json"]), &mut c));
    assert!(msg.contains("the interrupt payload is not JSON"), "{msg}");

    // Asking after unsafe-to-repeat fails the call.
    let mut c = CallContext::with_answers("c6", "kinds", "unsafe-then-ask", one);
    let msg = failed(m.call("unsafe-then-ask", json!([]), &mut c));
    assert!(msg.contains("after unsafe_to_repeat"), "{msg}");
}

// ------------------------------------------------------------ failures and limits

#[test]
fn traps_timeouts_and_memory_fail_the_call_not_the_module() {
    let limits = ModuleLimits {
        timeout: Duration::from_millis(300),
        memory_bytes: 32 << 20,
    };
    let m = kinds().with_limits(limits);
    let msg = failed(call(&m, "boom", json!([])));
    assert!(msg.starts_with("ws:kinds.boom trapped:"), "{msg}");

    let started = Instant::now();
    let msg = failed(call(&m, "spin", json!([])));
    assert!(msg.contains("ws:kinds.spin timed out after 300ms"), "{msg}");
    assert!(started.elapsed() < Duration::from_secs(10));

    let msg = failed(call(&m, "hog", json!([])));
    assert!(
        msg.contains("ws:kinds.hog exceeded its memory limit (32 MiB)"),
        "{msg}"
    );

    // Each call has a fresh instance: the module still works.
    assert_eq!(ok(&m, "add", json!([1, 1])), json!(2));
    // Output goes to the log, not to the result.
    assert_eq!(ok(&m, "log", json!(["hi"])), Value::Null);
    assert!(ok(&m, "now", json!([])).as_u64().unwrap() > 1_600_000_000);
}

// ------------------------------------------------------------ HTTP

/// One request the test server received.
#[derive(Debug, Clone)]
struct Received {
    head: String,
    body: String,
}

/// An HTTP server on 127.0.0.1 that answers every request with `status`
/// and `body`, and records what it received.
struct Server {
    port: u16,
    received: Arc<Mutex<Vec<Received>>>,
    stop: Arc<AtomicBool>,
}

impl Server {
    fn start(status: u16, body: &str) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1:0");
        listener.set_nonblocking(true).unwrap();
        let port = listener.local_addr().unwrap().port();
        let received = Arc::new(Mutex::new(Vec::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let (rec, stopping, body) = (received.clone(), stop.clone(), body.to_owned());
        std::thread::spawn(move || {
            while !stopping.load(Ordering::SeqCst) {
                match listener.accept() {
                    Ok((stream, _)) => serve(stream, status, &body, &rec),
                    Err(_) => std::thread::sleep(Duration::from_millis(5)),
                }
            }
        });
        Server {
            port,
            received,
            stop,
        }
    }

    fn received(&self) -> Vec<Received> {
        self.received.lock().unwrap().clone()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
    }
}

/// Reads one request, records it (before answering, so a caller that got
/// the answer sees the record), and answers.
fn serve(stream: TcpStream, status: u16, body: &str, rec: &Mutex<Vec<Received>>) {
    let _ = serve_one(stream, status, body, rec);
}

fn serve_one(
    mut stream: TcpStream,
    status: u16,
    body: &str,
    rec: &Mutex<Vec<Received>>,
) -> Option<()> {
    stream.set_nonblocking(false).ok()?;
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .ok()?;
    let mut buf = Vec::new();
    let mut chunk = [0u8; 4096];
    let head_end = loop {
        let n = stream.read(&mut chunk).ok()?;
        if n == 0 {
            return None;
        }
        buf.extend_from_slice(&chunk[..n]);
        if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break i + 4;
        }
    };
    let head = String::from_utf8_lossy(&buf[..head_end]).into_owned();
    let length = head
        .lines()
        .find_map(|l| {
            let (k, v) = l.split_once(':')?;
            k.eq_ignore_ascii_case("content-length")
                .then(|| v.trim().parse::<usize>().ok())?
        })
        .unwrap_or(0);
    while buf.len() < head_end + length {
        let n = stream.read(&mut chunk).ok()?;
        if n == 0 {
            break;
        }
        buf.extend_from_slice(&chunk[..n]);
    }
    let req_body = String::from_utf8_lossy(&buf[head_end..]).into_owned();
    let reply = format!(
        "HTTP/1.1 {status} Whatever\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    );
    rec.lock().unwrap().push(Received {
        head,
        body: req_body,
    });
    stream.write_all(reply.as_bytes()).ok()
}

fn github(port: u16, allow: Vec<String>) -> ComponentModule {
    let config = vec![
        ("base_url".to_owned(), format!("http://127.0.0.1:{port}")),
        ("repo".to_owned(), "octo/cat".to_owned()),
    ];
    ComponentModule::load(&runtime(), "ws:github", github_bytes(), config, allow)
        .unwrap_or_else(|e| panic!("loading the github example: {e}"))
}

fn approved(call_id: &str) -> CallContext {
    CallContext::with_answers(
        call_id,
        "github",
        "post-comment",
        vec![Answer::Approved(json!({"approved": true}))],
    )
}

fn header<'a>(head: &'a str, name: &str) -> Option<&'a str> {
    head.lines().find_map(|l| {
        let (k, v) = l.split_once(':')?;
        k.trim().eq_ignore_ascii_case(name).then(|| v.trim())
    })
}

#[test]
fn github_posts_an_approved_comment_with_the_call_id_as_idempotency_key() {
    let server = Server::start(
        201,
        r#"{"id": 1, "html_url": "https://github.test/octo/cat/issues/7#c1"}"#,
    );
    let m = github(server.port, vec![format!("127.0.0.1:{}", server.port)]);
    let info = m.functions();
    assert_eq!(info.len(), 1);
    assert_eq!(info[0].name, "post-comment");
    assert_eq!(
        info[0]
            .params
            .iter()
            .map(|p| format!("{}: {}", p.name, p.type_desc))
            .collect::<Vec<_>>(),
        ["issue: u32", "body: string"]
    );
    assert_eq!(info[0].result.as_deref(), Some("result<string, string>"));

    let mut c = approved("run-1:4");
    let r = m.call("post-comment", json!([7, "LGTM"]), &mut c);
    assert_eq!(r, Ok(json!("https://github.test/octo/cat/issues/7#c1")));
    let got = server.received();
    assert_eq!(got.len(), 1, "{got:?}");
    assert!(
        got[0]
            .head
            .starts_with("POST /repos/octo/cat/issues/7/comments HTTP/1.1\r\n"),
        "{}",
        got[0].head
    );
    assert_eq!(header(&got[0].head, "idempotency-key"), Some("run-1:4"));
    assert_eq!(
        serde_json::from_str::<Value>(&got[0].body).unwrap(),
        json!({"body": "LGTM"})
    );
}

#[test]
fn github_reports_rejections_parks_and_server_errors() {
    let server = Server::start(422, r#"{"message": "Validation Failed"}"#);
    let m = github(server.port, vec![format!("127.0.0.1:{}", server.port)]);

    let mut c = CallContext::with_answers(
        "r",
        "github",
        "post-comment",
        vec![Answer::Rejected {
            reason: "too rude".into(),
            value: None,
        }],
    );
    assert_eq!(
        m.call("post-comment", json!([7, "x"]), &mut c),
        Err(ModuleCallError::ErrorValue(json!("too rude")))
    );
    let mut c = CallContext::with_answers(
        "r",
        "github",
        "post-comment",
        vec![Answer::Approved(json!({"approved": false}))],
    );
    match m.call("post-comment", json!([7, "x"]), &mut c) {
        Err(ModuleCallError::ErrorValue(v)) => {
            assert!(v.as_str().unwrap().contains("not approved"), "{v}")
        }
        other => panic!("{other:?}"),
    }
    let mut c = CallContext::with_answers("p", "github", "post-comment", vec![]);
    assert_eq!(
        m.call("post-comment", json!([7, "x"]), &mut c),
        Err(ModuleCallError::Parked)
    );
    assert!(
        server.received().is_empty(),
        "nothing is sent before approval"
    );

    let mut c = approved("e");
    match m.call("post-comment", json!([7, "x"]), &mut c) {
        Err(ModuleCallError::ErrorValue(v)) => {
            let v = v.as_str().unwrap().to_owned();
            assert!(v.contains("answered 422"), "{v}");
            assert!(v.contains("Validation Failed"), "{v}");
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(server.received().len(), 1);
}

#[test]
fn http_to_hosts_not_allowed_is_denied() {
    let server = Server::start(201, r#"{"html_url": "u"}"#);
    let other_port = if server.port == 65535 {
        1
    } else {
        server.port + 1
    };
    for allow in [
        vec![],
        vec![format!("127.0.0.1:{other_port}")],
        vec!["localhost".to_owned(), "example.com".to_owned()],
    ] {
        let m = github(server.port, allow.clone());
        let mut c = approved("d");
        match m.call("post-comment", json!([1, "x"]), &mut c) {
            Err(ModuleCallError::ErrorValue(v)) => {
                let v = v.as_str().unwrap_or_default().to_owned();
                assert!(v.contains("HTTP-request-denied"), "{allow:?}: {v}");
            }
            other => panic!("{allow:?}: expected a denial, got {other:?}"),
        }
    }
    // A host entry without a port allows every port of that host.
    let m = github(server.port, vec!["127.0.0.1".to_owned()]);
    assert_eq!(
        m.call("post-comment", json!([1, "x"]), &mut approved("a")),
        Ok(json!("u"))
    );
    assert_eq!(
        server.received().len(),
        1,
        "only the allowed request arrived"
    );
}

#[test]
fn http_to_an_unreachable_allowed_host_fails_the_call_cleanly() {
    // Bind then drop: nothing listens on this port.
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let m = github(port, vec![format!("127.0.0.1:{port}")]);
    match m.call("post-comment", json!([1, "x"]), &mut approved("u")) {
        Err(ModuleCallError::ErrorValue(v)) => {
            assert!(v.as_str().unwrap().contains("connection refused"), "{v}")
        }
        other => panic!("{other:?}"),
    }
}

// ------------------------------------------------------------ from JavaScript

#[test]
fn javascript_imports_module_functions_by_camel_case_name() {
    let Some(js) = JS_GUEST else {
        panic!("the JS guest is not embedded in computer-runtime: run scripts/build-guests.sh");
    };
    let rt = runtime();
    rt.register_guest("js", js).unwrap();
    rt.register_module_component("ws:kinds", test_module_bytes(), vec![], vec![])
        .unwrap();
    let ws = Arc::new(Workspace::in_memory().unwrap());
    let run = |source: &str| {
        rt.exec(
            ws.clone(),
            source,
            ExecOptions {
                backend: "js".into(),
                ..Default::default()
            },
        )
        .expect("exec")
        .wait()
    };
    let r = run(
        "import { greet, divide, echoPoint, failUnit } from 'ws:kinds';\n\
         console.log(greet('Ann'), divide(9, 3));\n\
         console.log(JSON.stringify(echoPoint({x: 1, y: 2})));\n\
         try { divide(1, 0) } catch (e) { console.log('caught', String(e.message ?? e)) }\n\
         try { failUnit('red') } catch (e) { console.log('caught', JSON.stringify(e.message ?? e)) }",
    );
    let stdout = String::from_utf8_lossy(&r.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&r.stderr).into_owned();
    assert_eq!(r.status, RunStatus::Completed, "{stdout}\n{stderr}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines[0], "Hello, Ann! 3", "{stdout}");
    assert_eq!(lines[1], r#"{"x":1,"y":2,"label":null}"#, "{stdout}");
    assert!(
        lines[2].starts_with("caught") && lines[2].contains("cannot divide 1 by zero"),
        "{stdout}"
    );
    assert!(
        lines[3].starts_with("caught") && lines[3].contains("red"),
        "{stdout}"
    );

    let r = run("import { postComment } from 'ws:kinds';\nconsole.log(postComment);");
    let stderr = String::from_utf8_lossy(&r.stderr).into_owned();
    assert_eq!(r.status, RunStatus::Failed, "{stderr}");
    assert!(stderr.contains("postComment"), "{stderr}");
    assert!(
        stderr.contains("echoPoint") && stderr.contains("greet"),
        "the error lists what the module exports: {stderr}"
    );
}
