//! `computer exec`: the environment, the cwd, limits and backends.

use super::*;

// ------------------------------------------------------------ env, cwd

#[test]
fn env_passes_only_the_given_variables() {
    let ws = Ws::new();
    let (code, out, err) = plain(
        &ws,
        &[
            "--env",
            "A=1",
            "--env",
            "B=x=y",
            "--env",
            "EMPTY=",
            "console.log(JSON.stringify(process.env))",
        ],
        "",
    );
    assert_eq!(
        (code, out.as_str(), err.as_str()),
        (0, "{\"A\":\"1\",\"B\":\"x=y\",\"EMPTY\":\"\"}\n", "")
    );
    // The host's environment (PATH, HOME, COMPUTER_CACHE_DIR...) is not passed.
    let (_, out, _) = plain(&ws, &["console.log(Object.keys(process.env).length)"], "");
    assert_eq!(out, "0\n");
}

#[test]
fn an_env_without_equals_is_refused() {
    let ws = Ws::new();
    let (code, message) = exec_err(&ws, &["--env", "NOVALUE", "1"], "");
    assert_eq!(code, "EINVAL");
    assert!(message.contains("NOVALUE"), "{message}");
}

#[test]
fn cwd_sets_the_working_directory() {
    let ws = Ws::new();
    ws.put("/proj/data.txt", "in proj\n");
    let (code, out, err) = plain(
        &ws,
        &[
            "--cwd",
            "/proj",
            "import fs from 'node:fs'; console.log(process.cwd(), fs.readFileSync('data.txt', 'utf8'))",
        ],
        "",
    );
    assert_eq!(
        (code, out.as_str(), err.as_str()),
        (0, "/proj in proj\n\n", "")
    );
    let (_, out, _) = plain(&ws, &["console.log(process.cwd())"], "");
    assert_eq!(out, "/\n", "the default cwd is /");
}

#[test]
fn a_missing_cwd_is_refused() {
    let ws = Ws::new();
    let (code, message) = exec_err(&ws, &["--cwd", "/nope", "1"], "");
    assert_eq!(code, "ENOENT");
    assert!(message.contains("/nope"), "{message}");
}

// ------------------------------------------------------------ limits

#[test]
fn a_timeout_stops_an_infinite_loop_with_124() {
    let ws = Ws::new();
    let (code, out, err) = plain(
        &ws,
        &[
            "--timeout",
            "0.5",
            "console.log('looping'); while (true) {}",
        ],
        "",
    );
    assert_eq!(code, 124);
    assert_eq!(out, "looping\n", "output before the timeout is kept");
    assert!(err.starts_with("computer: timed out"), "{err:?}");

    let (code, doc) = ws.exec_json(&["--timeout", "0.5", "while (true) {}"], "");
    assert_eq!(code, 124, "{doc}");
    assert_eq!(doc["status"], "timed_out");
    assert_eq!(doc["exit_code"], 124);
}

#[test]
fn an_output_flood_is_truncated_at_the_default_cap() {
    let ws = Ws::new();
    let line = "x".repeat(1023);
    let source = format!("const l = {line:?}; for (let i = 0; i < 3 * 1024; i++) console.log(l);");
    let out = ws.exec(&["--id", "flood", &source], "");
    assert_eq!(out.status.code(), Some(0), "{}", shown(&[], &out));
    assert!(out.stderr.is_empty());
    let mut expected = format!("{line}\n").repeat(1024);
    expected.push_str(
        "\n[output truncated: 2097152 more bytes over the 1048576-byte limit; \
         all of it is in /.computer/output/flood.stdout (read it in ranges)]\n",
    );
    let got = text(&out.stdout);
    assert!(
        got == expected,
        "stdout is {} bytes, ends {:?}",
        got.len(),
        &got[got.len().saturating_sub(200)..]
    );
    // The whole stream, kept in the workspace, pages with fs read.
    let whole = ws.run(&["fs", "read", "/.computer/output/flood.stdout"], "");
    assert_eq!(
        text(&whole.stdout),
        format!("{line}\n").repeat(3 * 1024),
        "{}",
        text(&whole.stderr)
    );
}

#[test]
fn deep_recursion_is_reported_not_crashed() {
    let ws = Ws::new();
    let (code, out, err) = plain(&ws, &["function f() { return f() + 1 } f()"], "");
    assert_eq!((code, out.as_str()), (1, ""));
    assert!(
        err.starts_with("computer: ") && err.contains("stack") && err.ends_with('\n'),
        "{err:?}"
    );
    let (_, doc) = ws.exec_json(&["function f() { return f() + 1 } f()"], "");
    assert_eq!(doc["status"], "failed");
}

#[test]
fn invalid_timeouts_are_refused() {
    let ws = Ws::new();
    for t in [
        "--timeout=0",
        "--timeout=-1",
        "--timeout=NaN",
        "--timeout=inf",
    ] {
        let (code, message) = exec_err(&ws, &[t, "1"], "");
        assert_eq!(code, "EINVAL", "{t}: {message}");
        assert!(message.contains("--timeout"), "{message}");
    }
}

/// A timeout past the maximum says it is too large and gives the maximum;
/// one of 0 or less says it is too small (issue 41).
#[test]
fn a_timeout_too_large_says_so_with_the_maximum() {
    let ws = Ws::new();
    for t in ["--timeout=99999999999", "--timeout=inf"] {
        let (code, message) = exec_err(&ws, &[t, "1"], "");
        assert_eq!(code, "EINVAL", "{t}: {message}");
        assert!(
            message.contains("too large") && message.contains("31536000"),
            "{t}: {message}"
        );
        assert!(!message.contains("above 0"), "{t}: {message}");
    }
    for t in ["--timeout=0", "--timeout=-1"] {
        let (_, message) = exec_err(&ws, &[t, "1"], "");
        assert!(message.contains("too small"), "{t}: {message}");
    }
}

#[test]
fn a_memory_bomb_fails_with_memory_limit_exceeded() {
    let ws = Ws::new();
    let (code, doc) = ws.exec_json(
        &[
            "--memory",
            "32",
            "const a = []; for (;;) a.push('x'.repeat(1 << 20) + a.length);",
        ],
        "",
    );
    assert_eq!(code, 1, "{doc}");
    assert_eq!(doc["status"], "failed");
    let stderr = doc["stderr"].as_str().expect("stderr");
    assert!(stderr.contains("memory limit exceeded"), "{stderr:?}");
}

// ------------------------------------------------------------ backends

#[test]
fn an_unknown_backend_names_the_available_ones() {
    let ws = Ws::new();
    let (code, message) = exec_err(&ws, &["--backend", "cobol", "1"], "");
    assert_eq!(code, "EINVAL");
    assert!(
        message.starts_with("unknown backend \"cobol\"; available: ") && message.contains("js"),
        "{message}"
    );
}

#[test]
fn a_guest_file_that_does_not_exist_is_a_clear_error() {
    let ws = Ws::new();
    let (code, message) = exec_err(
        &ws,
        &[
            "--guest",
            "mine=/no/such/guest.wasm",
            "--backend",
            "mine",
            "1",
        ],
        "",
    );
    assert_eq!(code, "EINVAL");
    assert!(
        message.contains("mine")
            && message.contains("cannot read")
            && message.contains("/no/such/guest.wasm"),
        "{message}"
    );
    let (code, message) = exec_err(&ws, &["--guest", "no-equals", "1"], "");
    assert_eq!(code, "EINVAL");
    assert!(message.contains("NAME=PATH"), "{message}");
}

#[test]
fn a_file_that_is_not_a_component_is_a_clear_error() {
    let ws = Ws::new();
    let junk = ws.host("junk.wasm");
    std::fs::write(&junk, b"not a component").unwrap();
    let arg = format!("junk={}", junk.display());
    let (code, message) = exec_err(&ws, &["--guest", &arg, "--backend", "junk", "1"], "");
    assert_eq!(code, "EINVAL");
    assert!(
        message.starts_with("guest component \"junk\" cannot be used: "),
        "{message}"
    );
}

#[test]
fn a_registered_guest_runs_as_its_backend() {
    let ws = Ws::new();
    let arg = format!("myjs={}", js_guest_wasm().display());
    let (code, out, err) = plain(
        &ws,
        &[
            "--guest",
            &arg,
            "--backend",
            "myjs",
            "console.log(process.argv[1])",
        ],
        "",
    );
    assert_eq!((code, out.as_str(), err.as_str()), (0, "myjs\n", ""));
    let runs = ws.json(&["runs"]);
    assert_eq!(runs["runs"][0]["backend"], "myjs", "{runs}");
}

#[test]
fn kept_output_never_follows_an_agents_symlink() {
    let ws = Ws::new();
    ws.ok(&["fs", "mkdir", "-p", "/victim"]);
    for i in 0..25 {
        ws.put(&format!("/victim/f{i:02}"), "mine");
    }
    ws.ok(&["fs", "mkdir", "-p", "/.computer"]);
    let linked = ws.exec(
        &["--backend", "shell", "ln -s /victim /.computer/output"],
        "",
    );
    assert_eq!(linked.status.code(), Some(0), "{}", shown(&[], &linked));
    let line = "x".repeat(1023);
    let source = format!("const l = {line:?}; for (let i = 0; i < 2 * 1024; i++) console.log(l);");
    let out = ws.exec(&["--id", "flood-link", &source], "");
    assert_eq!(out.status.code(), Some(0), "{}", shown(&[], &out));
    let got = text(&out.stdout);
    assert!(
        got.contains("the whole stream could not be kept: /.computer/output is a symlink"),
        "{}",
        &got[got.len().saturating_sub(300)..]
    );
    let mut names = ws.names("/victim");
    names.sort();
    let want: Vec<String> = (0..25).map(|i| format!("f{i:02}")).collect();
    assert_eq!(names, want, "the host pruned or wrote through the link");
}
