//! `computer exec` and `computer runs`, driven as a user would: the guest's
//! output on the terminal, its exit code as the process's, `--json` for
//! scripts, and the run records afterwards.

use std::io::{BufRead, BufReader, Read};
use std::process::{Output, Stdio};

use computer_tests::{
    Value, Ws, describe, js_guest_wasm, json, one_json, parse_error_json, parse_error_line,
    run_command, text,
};

/// The exit code, stdout and stderr of a plain `exec`.
fn plain(ws: &Ws, args: &[&str], stdin: &str) -> (i32, String, String) {
    let out = ws.exec(args, stdin);
    let code = out.status.code().expect("exited normally");
    (code, text(&out.stdout), text(&out.stderr))
}

fn shown(args: &[&str], out: &Output) -> String {
    describe(&[&["exec"][..], args].concat(), out)
}

/// An `exec` that must fail before running anything: plainly, exit 1 with
/// `computer: CODE: message`; with `--json`, exit 1 with the error
/// document. Both must agree. Returns (code, message).
fn exec_err(ws: &Ws, args: &[&str], stdin: &str) -> (String, String) {
    let out = ws.exec(args, stdin);
    assert!(
        out.status.code() == Some(1) && out.stdout.is_empty(),
        "expected exit 1 with empty stdout\n{}",
        shown(args, &out)
    );
    let plain = parse_error_line(&out.stderr);
    let (code, doc) = ws.exec_json(args, stdin);
    assert_eq!(code, 1, "{doc}");
    let json = parse_error_json(&doc);
    assert_eq!(plain, json, "plain and --json report different errors");
    plain
}

fn run_ids(ws: &Ws) -> Vec<String> {
    let doc = ws.json(&["runs"]);
    doc["runs"]
        .as_array()
        .unwrap_or_else(|| panic!("runs is not an array: {doc}"))
        .iter()
        .map(|r| r["id"].as_str().expect("id").to_owned())
        .collect()
}

// ------------------------------------------------------------ plain output

#[test]
fn exec_prints_the_guests_output_and_exits_0() {
    let ws = Ws::new();
    assert_eq!(
        plain(&ws, &["console.log(1+1)"], ""),
        (0, "2\n".into(), "".into())
    );
}

#[test]
fn stdout_and_stderr_go_to_their_own_streams() {
    let ws = Ws::new();
    assert_eq!(
        plain(
            &ws,
            &["console.log('out'); console.error('err'); console.info('info')"],
            ""
        ),
        (0, "out\ninfo\n".into(), "err\n".into())
    );
}

#[test]
fn the_guests_exit_code_is_the_process_exit_code() {
    let ws = Ws::new();
    assert_eq!(
        plain(&ws, &["console.log('bye'); process.exit(7)"], ""),
        (7, "bye\n".into(), "".into())
    );
    assert_eq!(plain(&ws, &["process.exitCode = 4"], "").0, 4);
}

#[test]
fn a_failed_run_never_exits_0() {
    let ws = Ws::new();
    for code in ["-1", "-255"] {
        let (status, doc) = ws.exec_json(&[&format!("process.exit({code})")], "");
        assert_eq!(doc["status"], "failed", "{doc}");
        assert_ne!(status, 0, "process.exit({code}): {doc}");
    }
}

#[test]
fn exit_codes_over_255_still_fail() {
    let ws = Ws::new();
    for code in ["256", "300"] {
        let (status, doc) = ws.exec_json(&[&format!("process.exit({code})")], "");
        assert_eq!(doc["status"], "failed", "{doc}");
        assert_ne!(status, 0, "process.exit({code}): {doc}");
    }
}

#[test]
fn an_uncaught_error_exits_1_with_the_error_on_stderr() {
    let ws = Ws::new();
    let (code, out, err) = plain(&ws, &["throw new Error('boom')"], "");
    assert_eq!((code, out.as_str()), (1, ""));
    assert!(err.starts_with("Error: boom\n"), "{err:?}");
}

#[test]
fn a_syntax_error_exits_1() {
    let ws = Ws::new();
    let (code, out, err) = plain(&ws, &["let = ;"], "");
    assert_eq!((code, out.as_str()), (1, ""));
    assert!(err.starts_with("SyntaxError"), "{err:?}");
}

#[test]
fn a_bad_import_exits_1_naming_the_module() {
    let ws = Ws::new();
    let (code, out, err) = plain(&ws, &["import 'left-pad'"], "");
    assert_eq!((code, out.as_str()), (1, ""));
    assert!(err.contains("Cannot find module 'left-pad'"), "{err:?}");
}

#[test]
fn output_streams_to_the_terminal_while_the_run_goes_on() {
    // The run prints a line, then waits until another `computer` process
    // creates /go. The test creates it only after reading that line, so
    // the run can only finish if its output was streamed live.
    let ws = Ws::new();
    ws.ok(&["fs", "mkdir", "/work"]);
    let mut child = ws
        .exec_command(&[
            "--timeout",
            "30",
            "import fs from 'node:fs';\n\
             console.log('first');\n\
             await new Promise((resolve) => {\n\
               const poll = () => fs.existsSync('/work/go') ? resolve() : setTimeout(poll, 10);\n\
               poll();\n\
             });\n\
             console.log('second');",
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starting computer exec");
    let mut stdout = BufReader::new(child.stdout.take().expect("piped"));
    let mut first = String::new();
    stdout.read_line(&mut first).expect("reading stdout");
    assert_eq!(first, "first\n");
    ws.put("/work/go", "");
    let mut rest = String::new();
    stdout.read_to_string(&mut rest).expect("reading stdout");
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .expect("piped")
        .read_to_string(&mut stderr)
        .expect("reading stderr");
    let status = child.wait().expect("waiting for computer exec");
    assert_eq!(
        (status.code(), rest.as_str(), stderr.as_str()),
        (Some(0), "second\n", "")
    );
}

// ------------------------------------------------------------ --json

#[test]
fn json_prints_one_result_document() {
    let ws = Ws::new();
    let (code, doc) = ws.exec_json(
        &["console.log('hi'); console.error('warn'); export default () => ({a: [1, 2]})"],
        "",
    );
    assert_eq!(code, 0);
    let id = doc["run_id"].as_str().expect("run_id is a string");
    assert!(id.starts_with("run-"), "{doc}");
    assert_eq!(doc["status"], "completed");
    assert_eq!(doc["exit_code"], 0);
    assert_eq!(doc["stdout"], "hi\n");
    assert_eq!(doc["stderr"], "warn\n");
    assert_eq!(doc["value"], json!({"a": [1, 2]}));
    assert_eq!(run_ids(&ws), vec![id.to_owned()]);
}

#[test]
fn json_of_a_failing_run_keeps_the_exit_code() {
    let ws = Ws::new();
    let (code, doc) = ws.exec_json(&["console.log('x'); process.exit(7)"], "");
    assert_eq!(code, 7, "{doc}");
    assert_eq!(doc["status"], "failed");
    assert_eq!(doc["exit_code"], 7);
    assert_eq!(doc["stdout"], "x\n");
    assert_eq!(doc["value"], Value::Null);
}

#[test]
fn input_feeds_the_default_export() {
    let ws = Ws::new();
    let (code, doc) = ws.exec_json(
        &[
            "--input",
            r#"{"n": 14, "name": "x"}"#,
            "export default async ({n, name}) => `${name}=${n * 3}`",
        ],
        "",
    );
    assert_eq!(code, 0, "{doc}");
    assert_eq!(doc["value"], "x=42");
}

#[test]
fn invalid_input_is_refused() {
    let ws = Ws::new();
    let (code, message) = exec_err(&ws, &["--input", "{oops", "export default (x) => x"], "");
    assert_eq!(code, "EINVAL");
    assert!(
        message.starts_with("input is not valid JSON"),
        "{message:?}"
    );
    assert_eq!(run_ids(&ws), Vec::<String>::new(), "nothing was run");
}

// ------------------------------------------------------------ sources

#[test]
fn source_from_stdin() {
    let ws = Ws::new();
    assert_eq!(
        plain(&ws, &["-"], "console.log('from stdin')\n"),
        (0, "from stdin\n".into(), "".into())
    );
}

#[test]
fn source_from_a_host_file() {
    let ws = Ws::new();
    let file = ws.host("script.js");
    std::fs::write(&file, "console.log(process.argv.slice(1).join(' '))\n").unwrap();
    let path = file.to_str().unwrap();
    assert_eq!(
        plain(&ws, &["--file", path, "--arg", "a", "--arg", "b c"], ""),
        (0, "script.js a b c\n".into(), "".into())
    );
    let (code, message) = exec_err(&ws, &["--file", "/no/such/script.js"], "");
    assert_eq!(code, "ENOENT");
    assert!(message.contains("/no/such/script.js"), "{message}");
}

#[test]
fn a_file_and_an_inline_source_conflict() {
    let ws = Ws::new();
    let out = ws.exec(&["--file", "x.js", "console.log(1)"], "");
    assert_eq!(out.status.code(), Some(2), "{}", shown(&[], &out));
    assert!(text(&out.stderr).starts_with("error: "));
}

#[test]
fn no_source_is_an_error() {
    let ws = Ws::new();
    let (code, message) = exec_err(&ws, &[], "");
    assert_eq!(code, "EINVAL");
    assert!(message.contains("no source"), "{message}");
}

#[test]
fn stdin_from_a_host_file() {
    let ws = Ws::new();
    let input = ws.host("input.txt");
    std::fs::write(&input, "line one\nline two\n").unwrap();
    let (code, out, err) = plain(
        &ws,
        &[
            "--stdin",
            input.to_str().unwrap(),
            "import fs from 'node:fs'; console.log(JSON.stringify(fs.readFileSync(0, 'utf8')))",
        ],
        "ignored",
    );
    assert_eq!(
        (code, out.as_str(), err.as_str()),
        (0, "\"line one\\nline two\\n\"\n", "")
    );
}

#[test]
fn stdin_from_this_process() {
    let ws = Ws::new();
    let (code, out, err) = plain(
        &ws,
        &[
            "--stdin",
            "-",
            "let s = ''; for await (const c of process.stdin) s += c; console.log(s.toUpperCase())",
        ],
        "piped in",
    );
    assert_eq!((code, out.as_str(), err.as_str()), (0, "PIPED IN\n", ""));
}

#[test]
fn without_stdin_the_guest_reads_nothing() {
    let ws = Ws::new();
    let (code, out, _) = plain(
        &ws,
        &["import fs from 'node:fs'; console.log(fs.readFileSync(0).length)"],
        "not passed on",
    );
    assert_eq!((code, out.as_str()), (0, "0\n"));
}

#[test]
fn stdin_cannot_carry_both_source_and_input() {
    let ws = Ws::new();
    let (code, _) = exec_err(&ws, &["--stdin", "-", "-"], "console.log(1)");
    assert_eq!(code, "EINVAL");
}

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
    let out = ws.exec(&[&source], "");
    assert_eq!(out.status.code(), Some(0), "{}", shown(&[], &out));
    assert!(out.stderr.is_empty());
    let mut expected = format!("{line}\n").repeat(1024);
    expected.push_str("\n[output truncated: 2097152 more bytes over the 1048576-byte limit]\n");
    let got = text(&out.stdout);
    assert!(
        got == expected,
        "stdout is {} bytes, ends {:?}",
        got.len(),
        &got[got.len().saturating_sub(100)..]
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

// ------------------------------------------------------------ runs

#[test]
fn a_run_with_an_id_is_listed_and_shown() {
    let ws = Ws::new();
    let (code, out, _) = plain(
        &ws,
        &[
            "--id",
            "build-1",
            "console.log('built'); console.error('note'); export default () => 7",
        ],
        "",
    );
    assert_eq!((code, out.as_str()), (0, "built\n"));

    let list = ws.ok(&["runs"]);
    let line = list
        .lines()
        .find(|l| l.starts_with("build-1 "))
        .unwrap_or_else(|| panic!("build-1 not listed: {list:?}"));
    assert!(
        line.contains("completed") && line.contains("js") && line.contains("exit   0"),
        "{line:?}"
    );

    let show = ws.ok(&["runs", "show", "build-1"]);
    for expected in [
        "id: build-1\n",
        "backend: js\n",
        "status: completed\n",
        "exit code: 0\n",
        "value: 7\n",
        "--- stdout\nbuilt\n",
        "--- stderr\nnote\n",
    ] {
        assert!(show.contains(expected), "{expected:?} missing from {show}");
    }
    let doc = ws.json(&["runs", "show", "build-1"]);
    assert_eq!(doc["id"], "build-1");
    assert_eq!(doc["status"], "completed");
    assert_eq!(doc["exit_code"], 0);
    assert_eq!(doc["stdout"], "built\n");
    assert_eq!(doc["stderr"], "note\n");
}

#[test]
fn runs_list_newest_first_with_their_status() {
    let ws = Ws::new();
    plain(&ws, &["--id", "one", "1"], "");
    plain(&ws, &["--id", "two", "process.exit(2)"], "");
    plain(
        &ws,
        &["--id", "three", "--timeout", "0.3", "while(true){}"],
        "",
    );
    let doc = ws.json(&["runs"]);
    let got: Vec<(String, String, i64)> = doc["runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["id"].as_str().unwrap().to_owned(),
                r["status"].as_str().unwrap().to_owned(),
                r["exit_code"].as_i64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        got,
        vec![
            ("three".into(), "timed_out".into(), 124),
            ("two".into(), "failed".into(), 2),
            ("one".into(), "completed".into(), 0),
        ]
    );
}

#[test]
fn a_run_id_cannot_be_reused() {
    let ws = Ws::new();
    assert_eq!(plain(&ws, &["--id", "once", "console.log(1)"], "").0, 0);
    let (code, message) = exec_err(&ws, &["--id", "once", "console.log(2)"], "");
    assert_eq!(code, "EEXIST");
    assert!(message.contains("once"), "{message}");
    let doc = ws.json(&["runs", "show", "once"]);
    assert_eq!(doc["stdout"], "1\n", "the first run's record is intact");
}

#[test]
fn showing_an_unknown_run_is_enoent() {
    let ws = Ws::new();
    let (code, message) = ws.err(&["runs", "show", "ghost"]);
    assert_eq!(code, "ENOENT");
    assert!(message.contains("ghost"), "{message}");
}

// ------------------------------------------------------------ the workspace

#[test]
fn files_written_by_js_are_in_the_workspace() {
    let ws = Ws::new();
    ws.put("/in/name.txt", "world");
    let (code, out, err) = plain(
        &ws,
        &["import fs from 'node:fs';\n\
             const name = fs.readFileSync('/in/name.txt', 'utf8');\n\
             fs.mkdirSync('/out', { recursive: true });\n\
             fs.writeFileSync('/out/greeting.txt', `hello, ${name}\\n`);\n\
             console.log('wrote');"],
        "",
    );
    assert_eq!((code, out.as_str(), err.as_str()), (0, "wrote\n", ""));
    assert_eq!(ws.cat("/out/greeting.txt"), "hello, world\n");
    assert_eq!(ws.names("/out"), vec!["greeting.txt".to_owned()]);
}

#[test]
fn a_killed_or_timed_out_run_keeps_the_files_it_wrote() {
    let ws = Ws::new();
    let (code, _, _) = plain(
        &ws,
        &[
            "--timeout",
            "0.3",
            "import fs from 'node:fs'; fs.writeFileSync('/partial.txt', 'saved'); while (true) {}",
        ],
        "",
    );
    assert_eq!(code, 124);
    assert_eq!(ws.cat("/partial.txt"), "saved");
}

#[test]
fn json_output_is_not_mixed_with_the_guests_output() {
    let ws = Ws::new();
    let out = ws.exec(
        &["--json", "console.log('{\"fake\": 1}'); console.error('e')"],
        "",
    );
    assert!(out.status.success(), "{}", shown(&[], &out));
    assert!(out.stderr.is_empty(), "{}", shown(&[], &out));
    let doc = one_json(&out.stdout);
    assert_eq!(doc["stdout"], "{\"fake\": 1}\n");
    assert_eq!(doc["stderr"], "e\n");
}

#[test]
fn the_default_backend_is_the_shell() {
    let ws = Ws::new();
    let mut cmd = ws.command(&["exec", "ls -la / && echo hi > /x && cat /x"]);
    cmd.env("COMPUTER_CACHE_DIR", computer_tests::component_cache_dir());
    let out = run_command(&mut cmd, b"");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.ends_with("hi\n"), "{stdout}");
    assert_eq!(ws.cat("/x"), "hi\n");
}

#[test]
fn each_backend_gets_its_own_default_memory_cap_unless_memory_is_given() {
    let ws = Ws::new();
    let memory_of = |id: &str| -> u64 {
        let record = ws.json(&["runs", "show", id]);
        let options: Value = serde_json::from_str(record["options"].as_str().unwrap()).unwrap();
        options["memory_bytes"].as_u64().unwrap()
    };
    for (args, id, want) in [
        (
            &["--backend", "shell", "--id", "sh", "echo hi"][..],
            "sh",
            1u64 << 30,
        ),
        (&["--backend", "js", "--id", "js", "1"][..], "js", 256 << 20),
        (
            &[
                "--backend",
                "shell",
                "--memory",
                "64",
                "--id",
                "sh64",
                "echo hi",
            ][..],
            "sh64",
            64 << 20,
        ),
    ] {
        let (code, _, err) = plain(&ws, args, "");
        assert_eq!(code, 0, "{err}");
        assert_eq!(memory_of(id), want, "{args:?}");
    }
}
