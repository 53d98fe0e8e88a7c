//! Basic results: output, value, record, argv, stdin, env and exit codes.

use super::*;

// ------------------------------------------------------------ basic results

#[test]
fn a_run_completes_with_output_value_and_record() {
    let rt = runtime();
    let ws = workspace();
    let r = exec(
        &rt,
        &ws,
        "console.log('hi'); console.error('oops');\n\
         export default (input) => ({ doubled: input.n * 2 });",
        ExecOptions {
            input: Some(r#"{"n": 21}"#.into()),
            ..js()
        },
    );
    assert_eq!(r.status, RunStatus::Completed, "{}", describe(&r));
    assert_eq!(r.exit_code, 0);
    assert_eq!(s(&r.stdout), "hi\n");
    assert_eq!(s(&r.stderr), "oops\n");
    assert_eq!(r.value, Some(json!({"doubled": 42})));
    assert_eq!(r.error, None);
    assert_eq!(r.backend, "js");
    assert!(
        r.run_id.starts_with("run-") && r.run_id.len() > 4,
        "generated id: {}",
        r.run_id
    );
    assert!(r.duration > Duration::ZERO);

    let doc = serde_json::to_value(&r).expect("a RunResult serializes");
    for key in [
        "run_id",
        "status",
        "exit_code",
        "stdout",
        "stderr",
        "value",
        "duration_ms",
    ] {
        assert!(doc.get(key).is_some(), "{key} missing from {doc}");
    }
    assert_eq!(doc["status"], "completed");
    assert_eq!(doc["stdout"], "hi\n");
}

#[test]
fn a_source_without_default_export_has_no_value() {
    let r = run_js("await Promise.resolve(); console.log(6 * 7);");
    assert_eq!(r.status, RunStatus::Completed, "{}", describe(&r));
    assert_eq!(s(&r.stdout), "42\n");
    assert_eq!(r.value, None);
}

#[test]
fn default_cwd_is_root() {
    let r = exec(
        &runtime(),
        &workspace(),
        "console.log(process.cwd())",
        ExecOptions { cwd: None, ..js() },
    );
    assert_eq!(s(&r.stdout), "/\n", "{}", describe(&r));
}

#[test]
fn argv_and_stdin_reach_the_guest() {
    let r = exec(
        &runtime(),
        &workspace(),
        "import fs from 'node:fs';\n\
         console.log(JSON.stringify(process.argv));\n\
         console.log(JSON.stringify(fs.readFileSync(0, 'utf8')));",
        ExecOptions {
            program: Some("main.js".into()),
            args: vec!["a b".into(), "".into(), "c".into()],
            stdin: b"line 1\nline 2\n".to_vec(),
            ..js()
        },
    );
    assert_eq!(
        s(&r.stdout),
        "[\"js\",\"main.js\",\"a b\",\"\",\"c\"]\n\"line 1\\nline 2\\n\"\n",
        "{}",
        describe(&r)
    );
}

#[test]
fn env_holds_only_what_was_passed() {
    let mut env = BTreeMap::new();
    env.insert("GREETING".to_owned(), "hello world".to_owned());
    env.insert("EMPTY".to_owned(), String::new());
    let r = exec(
        &runtime(),
        &workspace(),
        "console.log(JSON.stringify(process.env));\n\
         console.log(process.env.PATH, process.env.HOME, process.env.CARGO_MANIFEST_DIR);",
        ExecOptions { env, ..js() },
    );
    assert!(
        std::env::var_os("PATH").is_some(),
        "the test needs a host PATH"
    );
    assert_eq!(
        s(&r.stdout),
        "{\"EMPTY\":\"\",\"GREETING\":\"hello world\"}\nundefined undefined undefined\n",
        "{}",
        describe(&r)
    );
}

#[test]
fn an_empty_env_is_empty() {
    let r = run_js("console.log(Object.keys(process.env).length)");
    assert_eq!(s(&r.stdout), "0\n", "{}", describe(&r));
}

#[test]
fn invalid_env_names_are_refused() {
    for key in ["", "A=B", "NUL\0"] {
        let mut env = BTreeMap::new();
        env.insert(key.to_owned(), "v".to_owned());
        let err = runtime()
            .exec(workspace(), "1", ExecOptions { env, ..js() })
            .err()
            .unwrap_or_else(|| panic!("env key {key:?} was accepted"));
        assert!(
            matches!(err, ExecError::InvalidOption(_)),
            "{key:?}: {err:?}"
        );
    }
}

#[test]
fn process_exit_sets_the_exit_code() {
    let r = run_js("console.log('before'); process.exit(3); console.log('after');");
    assert_eq!(r.exit_code, 3, "{}", describe(&r));
    assert_eq!(r.status, RunStatus::Failed);
    assert_eq!(s(&r.stdout), "before\n");
    assert_eq!(
        r.error, None,
        "the guest chose to exit; the host did not stop it"
    );
    assert!(!s(&r.stderr).contains("computer:"), "{}", describe(&r));
}

#[test]
fn process_exit_zero_is_completed() {
    let r = run_js("process.exit(0)");
    assert_eq!(r.status, RunStatus::Completed, "{}", describe(&r));
    assert_eq!(r.exit_code, 0);
}

#[test]
fn an_uncaught_error_exits_1_with_the_message_on_stderr() {
    let r = run_js("throw new Error('boom')");
    assert_eq!(r.exit_code, 1, "{}", describe(&r));
    assert_eq!(r.status, RunStatus::Failed);
    assert!(
        s(&r.stderr).starts_with("Error: boom\n"),
        "{}",
        describe(&r)
    );
    assert_eq!(r.error, None);
}
