//! Guests, and host modules called from JS.

use super::*;

// ------------------------------------------------------------ guests

#[test]
fn the_builtin_guests_are_registered() {
    let rt = Runtime::with_builtin_guests(config()).unwrap();
    assert_eq!(rt.backends(), builtin_names());
    assert!(builtin_names().contains(&"js".to_owned()));
    assert!(Runtime::new(config()).unwrap().backends().is_empty());
}

#[test]
fn a_component_registered_under_another_name_runs_as_that_backend() {
    let rt = Runtime::new(config()).unwrap();
    rt.register_guest("my-js", JS_GUEST.expect("JS guest"))
        .expect("registering");
    assert_eq!(rt.backends(), vec!["my-js".to_owned()]);
    let r = exec(
        &rt,
        &workspace(),
        "console.log(process.argv[1])",
        ExecOptions {
            backend: "my-js".into(),
            ..js()
        },
    );
    assert_eq!(r.backend, "my-js");
    assert_eq!(s(&r.stdout), "my-js\n", "{}", describe(&r));
    let err = rt.exec(workspace(), "1", js()).err().expect("js is absent");
    assert!(
        matches!(&err, ExecError::UnknownBackend { available, .. } if available == &["my-js".to_owned()]),
        "{err:?}"
    );
}

#[test]
fn bad_guests_are_refused_clearly() {
    let rt = Runtime::new(config()).unwrap();
    let err = rt
        .register_guest("junk", b"not wasm at all")
        .expect_err("junk accepted");
    assert!(matches!(err, ExecError::BadGuest { .. }), "{err:?}");
    // A valid core module, but not a component of the runner world.
    let err = rt
        .register_guest("core", b"\0asm\x01\0\0\0")
        .expect_err("a core module accepted");
    assert!(matches!(err, ExecError::BadGuest { .. }), "{err:?}");
    let err = rt
        .register_guest("bad name!", JS_GUEST.expect("JS guest"))
        .expect_err("a bad name accepted");
    assert!(matches!(err, ExecError::BadGuest { .. }), "{err:?}");
    let missing = std::path::Path::new("/definitely/not/here.wasm");
    let err = rt
        .register_guest_file("file", missing)
        .expect_err("a missing file accepted");
    let msg = err.to_string();
    assert!(
        msg.contains("cannot read") && msg.contains("/definitely/not/here.wasm"),
        "{msg}"
    );
    assert!(rt.backends().is_empty());
}

#[test]
fn a_bad_component_error_names_the_backend_in_one_line() {
    let rt = Runtime::new(config()).unwrap();
    let err = rt
        .register_guest("junk", b"not wasm at all")
        .expect_err("junk accepted");
    match &err {
        ExecError::BadGuest { name, reason } => {
            assert_eq!(name, "junk");
            assert!(!reason.contains('\n'), "{reason:?}");
        }
        other => panic!("expected BadGuest, got {other:?}"),
    }
}

// ------------------------------------------------------------ ws: modules

struct Echo;

impl HostModule for Echo {
    fn functions(&self) -> Vec<FunctionInfo> {
        vec![FunctionInfo {
            name: "echo-args".into(),
            params: vec![],
            result: None,
            docs: String::new(),
        }]
    }

    fn call(
        &self,
        _function: &str,
        args: Value,
        _ctx: &mut computer_runtime::CallContext,
    ) -> Result<Value, ModuleCallError> {
        Ok(args)
    }
}

#[test]
fn a_host_module_is_callable_from_js() {
    let rt = runtime();
    rt.modules().register("ws:echo", Arc::new(Echo)).unwrap();
    assert_eq!(rt.modules().names(), vec!["ws:echo".to_owned()]);
    let r = exec(
        &rt,
        &workspace(),
        "import { echoArgs } from 'ws:echo';\n\
         console.log(JSON.stringify(echoArgs(1, 'two', [3])));",
        js(),
    );
    assert_eq!(s(&r.stdout), "[1,\"two\",[3]]\n", "{}", describe(&r));
    assert!(rt.modules().register("github", Arc::new(Echo)).is_err());
}

#[test]
fn a_host_module_keeps_object_key_order() {
    let rt = runtime();
    rt.modules().register("ws:echo", Arc::new(Echo)).unwrap();
    let r = exec(
        &rt,
        &workspace(),
        "import { echoArgs } from 'ws:echo';\n\
         console.log(JSON.stringify(echoArgs({ zebra: 1, apple: 2 })));",
        js(),
    );
    assert_eq!(
        s(&r.stdout),
        "[{\"zebra\":1,\"apple\":2}]\n",
        "{}",
        describe(&r)
    );
}

struct Greeter;

impl computer_runtime::HostModule for Greeter {
    fn functions(&self) -> Vec<computer_runtime::FunctionInfo> {
        vec![computer_runtime::FunctionInfo {
            name: "greet".into(),
            params: vec![],
            result: Some("string".into()),
            docs: String::new(),
        }]
    }

    fn call(
        &self,
        _function: &str,
        args: serde_json::Value,
        _ctx: &mut computer_runtime::CallContext,
    ) -> Result<serde_json::Value, computer_runtime::ModuleCallError> {
        Ok(serde_json::json!(format!(
            "hello {}",
            args[0].as_str().unwrap_or("?")
        )))
    }
}

#[test]
fn module_calls_and_execs_are_audited_with_secrets_redacted() {
    let rt = runtime();
    rt.modules()
        .register("ws:greeter", Arc::new(Greeter))
        .unwrap();
    let ws = workspace();
    let mut options = js();
    options.env.insert("GITHUB_TOKEN".into(), "s3cret".into());
    options.env.insert("COLOR".into(), "blue".into());
    let r = exec(
        &rt,
        &ws,
        "import { greet } from 'ws:greeter'; console.log(greet('ann'))",
        options,
    );
    assert_eq!(s(&r.stdout), "hello ann\n", "{}", describe(&r));
    let log = ws
        .audit()
        .query(&computer_store::AuditQuery::default())
        .unwrap();
    let call = log
        .iter()
        .find(|e| e.operation == "module_call")
        .expect("module call audited");
    assert_eq!(call.target, "ws:greeter.greet");
    assert_eq!(call.outcome, "ok");
    assert!(
        call.actor.starts_with(&format!("run:{}/", r.run_id)),
        "{}",
        call.actor
    );
    let exec_row = log
        .iter()
        .find(|e| e.operation == "exec")
        .expect("exec audited");
    let args = exec_row.args.as_deref().unwrap();
    assert!(
        args.contains("[redacted]") && !args.contains("s3cret"),
        "{args}"
    );
    assert!(args.contains("blue"), "{args}");
}
