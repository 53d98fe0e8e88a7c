//! Real curl (Debian 12's 7.88, `/usr/bin/curl`) against the same server:
//! stdout, stderr and exit code must match ours for the cases where the
//! host's HTTP client does not change what curl would show. Skipped where
//! curl is not installed (scripts/setup.sh installs it).

use std::process::Command;

use super::*;

const CURL: &str = "/usr/bin/curl";

/// Real curl's (stdout, stderr, exit code) for `args`.
fn real(args: &[String]) -> (String, String, i32) {
    let out = Command::new(CURL)
        .args(args)
        .output()
        .expect("running /usr/bin/curl");
    (
        text(&out.stdout),
        text(&out.stderr),
        out.status.code().unwrap_or(-1),
    )
}

fn quote(a: &str) -> String {
    format!("'{}'", a.replace('\'', r"'\''"))
}

/// Ours, in a shell run: (stdout, stderr, exit code).
fn ours(ws: &Ws, args: &[String]) -> (String, String, i32) {
    let line: Vec<String> = args.iter().map(|a| quote(a)).collect();
    let script = format!("curl {}; echo \"<rc=$?>\"", line.join(" "));
    let out = exec(ws, &script);
    let stdout = text(&out.stdout);
    let (body, rc) = stdout.rsplit_once("<rc=").expect("the rc marker");
    let rc: i32 = rc
        .trim_end()
        .trim_end_matches('>')
        .parse()
        .expect("an exit code");
    (body.to_owned(), text(&out.stderr), rc)
}

#[test]
fn matches_real_curl() {
    if !std::path::Path::new(CURL).exists() || !have_curl() {
        return;
    }
    let s = Server::start();
    let ws = allowed(&s);
    let cases: Vec<Vec<String>> = vec![
        vec!["-s".into(), s.url("/hello")],
        vec!["-sS".into(), "-f".into(), s.url("/missing")],
        vec!["-s".into(), "--fail-with-body".into(), s.url("/missing")],
        vec![
            "-s".into(),
            "-w".into(),
            "%{http_code} %{size_download} %{content_type}\\n".into(),
            s.url("/json"),
        ],
        vec!["-sL".into(), s.url("/redirect?to=/hello")],
        vec![
            "-sS".into(),
            "-L".into(),
            "--max-redirs".into(),
            "2".into(),
            s.url("/loop"),
        ],
        vec![
            "-s".into(),
            "-o".into(),
            "/dev/null".into(),
            "-w".into(),
            "%{http_code}".into(),
            s.url("/redirect"),
        ],
        vec!["-sS".into(), "foo://127.0.0.1/".into()],
        vec!["-sS".into(), "http://".into()],
        vec!["--frobnicate".into(), s.url("/hello")],
        // Our server writes standard reasons and title-cased names, which
        // is what our curl prints (the host's client shows it neither).
        vec![
            "-s".into(),
            "-d".into(),
            "@/nonexistent".into(),
            s.url("/echo"),
        ],
        vec![
            "-s".into(),
            "-w".into(),
            "%{nope}|%{http_code}".into(),
            s.url("/hello"),
        ],
        vec!["-si".into(), s.url("/hello")],
        vec!["-sI".into(), s.url("/json")],
        vec!["-siL".into(), s.url("/redirect?to=/hello")],
        vec![
            "-s".into(),
            "-d".into(),
            "a=1".into(),
            "-H".into(),
            "X-A: b".into(),
            s.url("/echo"),
        ],
    ];
    for args in &cases {
        assert_eq!(ours(&ws, args), real(args), "curl {args:?}");
    }
}
