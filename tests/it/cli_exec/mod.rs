//! `computer exec` and `computer runs`, driven as a user would: the guest's
//! output on the terminal, its exit code as the process's, `--json` for
//! scripts, and the run records afterwards.

use std::io::{BufRead, BufReader, Read};
use std::process::{Output, Stdio};

use computer_tests::{
    Value, Ws, describe, js_guest_wasm, json, one_json, parse_error_json, parse_error_line,
    run_command, text,
};

mod env_limits_backends;
mod runs_workspace;

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
    assert!(err.contains("Cannot find package 'left-pad'"), "{err:?}");
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
