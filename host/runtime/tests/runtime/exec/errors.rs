//! Guest errors, and runs that `exec` refuses.

use super::*;

// ------------------------------------------------------------ guest errors

#[test]
fn a_syntax_error_exits_1() {
    let r = run_js("let x = ;");
    assert_eq!(r.status, RunStatus::Failed, "{}", describe(&r));
    assert_eq!(r.exit_code, 1);
    assert!(s(&r.stderr).starts_with("SyntaxError"), "{}", describe(&r));
    assert_eq!(s(&r.stdout), "");
    assert_eq!(
        r.error, None,
        "the guest handled it; the host did not stop it"
    );
}

#[test]
fn a_bad_import_exits_1_naming_the_module() {
    let r = run_js("import { x } from 'left-pad';\nconsole.log(x);");
    assert_eq!(r.status, RunStatus::Failed, "{}", describe(&r));
    assert_eq!(r.exit_code, 1);
    let stderr = s(&r.stderr);
    assert!(
        stderr.contains("Cannot find package 'left-pad'"),
        "{stderr:?}"
    );
    assert_eq!(s(&r.stdout), "");
}

#[test]
fn a_missing_relative_import_exits_1() {
    let r = run_js("import './nope.js';");
    assert_eq!(r.exit_code, 1, "{}", describe(&r));
    assert!(
        s(&r.stderr).contains("Cannot find module './nope.js'"),
        "{}",
        describe(&r)
    );
}

// ------------------------------------------------------------ exec errors

#[test]
fn input_that_is_not_json_is_refused() {
    let ws = workspace();
    let err = runtime()
        .exec(
            ws.clone(),
            "export default (x) => x",
            ExecOptions {
                input: Some("{not json".into()),
                ..js()
            },
        )
        .err()
        .expect("invalid input was accepted");
    assert!(matches!(err, ExecError::InvalidInput(_)), "{err:?}");
    assert!(
        err.to_string().starts_with("input is not valid JSON"),
        "{err}"
    );
    assert_eq!(
        ws.runs().list(Page::all()).unwrap(),
        vec![],
        "no run recorded"
    );
}

#[test]
fn source_over_the_limit_is_refused() {
    let source = format!("//{}", "x".repeat(199));
    assert_eq!(source.len(), 201);
    let err = runtime()
        .exec(
            workspace(),
            &source,
            ExecOptions {
                limits: Some(Limits {
                    source_bytes: 200,
                    ..limits(LONG)
                }),
                ..js()
            },
        )
        .err()
        .expect("an oversized source was accepted");
    match err {
        ExecError::TooLarge { what, size, limit } => {
            assert_eq!((what, size, limit), ("source", 201, 200));
        }
        other => panic!("expected TooLarge, got {other:?}"),
    }
    // At the limit is fine.
    let r = exec(
        &runtime(),
        &workspace(),
        &source[..200],
        ExecOptions {
            limits: Some(Limits {
                source_bytes: 200,
                ..limits(LONG)
            }),
            ..js()
        },
    );
    assert_eq!(r.status, RunStatus::Completed, "{}", describe(&r));
}

#[test]
fn source_over_the_default_limit_is_refused() {
    let source = format!("//{}", "x".repeat(1 << 20));
    let err = runtime()
        .exec(workspace(), &source, js())
        .err()
        .expect("a source over 1 MiB was accepted");
    assert!(
        matches!(err, ExecError::TooLarge { what: "source", .. }),
        "{err:?}"
    );
}

#[test]
fn input_over_the_limit_is_refused() {
    let err = runtime()
        .exec(
            workspace(),
            "export default (x) => x",
            ExecOptions {
                input: Some(format!("\"{}\"", "i".repeat(100))),
                limits: Some(Limits {
                    input_bytes: 50,
                    ..limits(LONG)
                }),
                ..js()
            },
        )
        .err()
        .expect("an oversized input was accepted");
    assert!(
        matches!(
            err,
            ExecError::TooLarge {
                what: "input",
                size: 102,
                limit: 50
            }
        ),
        "{err:?}"
    );
}

#[test]
fn an_unknown_backend_lists_the_available_ones() {
    let rt = runtime();
    let ws = workspace();
    let err = rt
        .exec(
            ws.clone(),
            "print(1)",
            ExecOptions {
                backend: "python".into(),
                ..js()
            },
        )
        .err()
        .expect("an unknown backend was accepted");
    match &err {
        ExecError::UnknownBackend { name, available } => {
            assert_eq!(name, "python");
            assert_eq!(available, &vec!["js".to_owned()]);
        }
        other => panic!("expected UnknownBackend, got {other:?}"),
    }
    assert_eq!(err.to_string(), "unknown backend \"python\"; available: js");
    assert_eq!(ws.runs().list(Page::all()).unwrap(), vec![]);
}

#[test]
fn a_zero_timeout_or_memory_limit_is_refused() {
    for l in [
        Limits {
            timeout: Duration::ZERO,
            ..Limits::default()
        },
        Limits {
            memory_bytes: 0,
            ..Limits::default()
        },
    ] {
        let err = runtime()
            .exec(
                workspace(),
                "1",
                ExecOptions {
                    limits: Some(l.clone()),
                    ..js()
                },
            )
            .err()
            .unwrap_or_else(|| panic!("{l:?} was accepted"));
        assert!(matches!(err, ExecError::InvalidOption(_)), "{err:?}");
    }
}

#[test]
fn a_cwd_that_does_not_exist_is_refused() {
    let ws = workspace();
    let err = runtime()
        .exec(
            ws.clone(),
            "1",
            ExecOptions {
                cwd: Some("/nope".into()),
                ..js()
            },
        )
        .err()
        .expect("a missing cwd was accepted");
    match &err {
        ExecError::Workspace(e) => {
            assert_eq!(e.code, Errno::ENOENT);
            assert!(e.message.contains("/nope"), "{e}");
        }
        other => panic!("expected ENOENT, got {other:?}"),
    }
    assert_eq!(ws.runs().list(Page::all()).unwrap(), vec![]);
}

#[test]
fn a_cwd_that_is_a_file_is_refused() {
    let ws = workspace();
    write(&ws, "/work/file.txt", b"not a dir");
    let err = runtime()
        .exec(
            ws.clone(),
            "1",
            ExecOptions {
                cwd: Some("/work/file.txt".into()),
                ..js()
            },
        )
        .err()
        .expect("a file cwd was accepted");
    let msg = err.to_string();
    assert!(
        msg.contains("/work/file.txt") && msg.contains("not a directory"),
        "{err:?}"
    );
    assert_eq!(ws.runs().list(Page::all()).unwrap(), vec![]);
}

#[test]
fn a_relative_cwd_is_refused() {
    let err = runtime()
        .exec(
            workspace(),
            "1",
            ExecOptions {
                cwd: Some("work".into()),
                ..js()
            },
        )
        .err()
        .expect("a relative cwd was accepted");
    assert!(
        matches!(&err, ExecError::Workspace(e) if e.code == Errno::EINVAL),
        "{err:?}"
    );
}

#[test]
fn a_cwd_through_a_symlink_works() {
    let ws = workspace();
    ws.mkdir("/work/real", &MkdirOptions::default()).unwrap();
    ws.symlink("/work/real", "/work/link").unwrap();
    write(&ws, "/work/real/x", b"");
    let r = exec(
        &runtime(),
        &ws,
        "import fs from 'node:fs'; console.log(fs.existsSync('x') ? 'seen' : 'missing')",
        ExecOptions {
            cwd: Some("/work/link".into()),
            ..js()
        },
    );
    assert_eq!(s(&r.stdout), "seen\n", "{}", describe(&r));
}
