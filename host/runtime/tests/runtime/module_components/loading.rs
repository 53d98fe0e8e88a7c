//! Loading and refusing components, the function list, registration.

use super::*;

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
