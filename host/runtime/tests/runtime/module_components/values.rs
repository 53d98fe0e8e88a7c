//! JSON <-> component values of every kind, in both directions.

use super::*;

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
