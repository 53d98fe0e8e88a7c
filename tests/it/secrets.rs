//! Secrets the sandbox never sees (issue 38): `computer secrets set`, and
//! `computer net allow HOST --header/--query/--basic` with `{secret:NAME}`
//! attaching them in the host's HTTP client. A server on 127.0.0.1 records
//! what it received; the runs' stdout and stderr (`curl -v` included), the
//! audit log and the workspace file's raw bytes (WAL and freed pages
//! included) must hold nothing of the value, and a redirect to another
//! host carries nothing.

use std::process::Output;

use computer_tests::{Ws, component_cache_dir, describe, run_command, text};

use crate::curl::server::Server;

const VALUE: &str = "canary-7Qx9-secret-value";

fn run(ws: &Ws, args: &[&str], stdin: &[u8]) -> Output {
    let mut cmd = ws.command(args);
    cmd.env("COMPUTER_CACHE_DIR", component_cache_dir());
    run_command(&mut cmd, stdin)
}

fn ok(ws: &Ws, args: &[&str], stdin: &[u8]) -> Output {
    let out = run(ws, args, stdin);
    assert!(out.status.success(), "{}", describe(args, &out));
    out
}

/// Fails if `VALUE` (or its base64, for basic auth) is anywhere in `bytes`.
fn assert_clean(what: &str, bytes: &[u8]) {
    assert_without(what, bytes, &[b"{secret:"]);
}

fn assert_without(what: &str, bytes: &[u8], more: &[&[u8]]) {
    use base64::Engine;
    let b64 = base64::engine::general_purpose::STANDARD.encode(format!("me:{VALUE}"));
    let mut needles = vec![VALUE.as_bytes(), b64.as_bytes()];
    needles.extend_from_slice(more);
    for needle in needles {
        assert!(
            !bytes.windows(needle.len()).any(|w| w == needle),
            "{what} holds {:?}:\n{}",
            String::from_utf8_lossy(needle),
            String::from_utf8_lossy(bytes)
        );
    }
}

/// Every file beside the workspace but the key: the database, its WAL and
/// shared memory, the reserve. (The rules' `{secret:NAME}` templates are
/// there, host-side, so only the value is looked for.)
fn assert_workspace_files_clean(ws: &Ws) {
    for entry in std::fs::read_dir(ws.dir()).unwrap() {
        let p = entry.unwrap().path();
        if p.is_file() && !p.to_string_lossy().ends_with(".secrets-key") {
            assert_without(&p.display().to_string(), &std::fs::read(&p).unwrap(), &[]);
        }
    }
}

/// A workspace whose TOKEN goes to `server` in a header, and in the
/// query too when `query` (not for a server that reflects its query in a
/// `Location`, as `/redirect` does: the guest would read it there).
fn with_secret(server: &Server, query: bool) -> Ws {
    let ws = Ws::new();
    ok(
        &ws,
        &["secrets", "set", "TOKEN"],
        format!("{VALUE}\n").as_bytes(),
    );
    let entry = format!("127.0.0.1:{}", server.port);
    let mut args = vec![
        "net",
        "allow",
        &entry,
        "--header",
        "Authorization: Bearer {secret:TOKEN}",
    ];
    if query {
        args.extend(["--query", "api_key={secret:TOKEN}"]);
    }
    ok(&ws, &args, b"");
    ws
}

#[test]
fn curl_wget_js_and_python_requests_carry_the_secret_the_run_never_sees() {
    let s = Server::start();
    let ws = with_secret(&s, true);
    let url = s.url("/hello?x=1");
    let script = format!(
        "curl -v -s '{url}'; wget -q -O - '{url}'; env; echo \"$TOKEN\"; ls -la /; \
         cat /.computer/* 2>&1 | head -c 0"
    );
    let out = ok(&ws, &["exec", &script], b"");
    assert!(
        text(&out.stdout).contains("hello"),
        "{}",
        describe(&["exec"], &out)
    );
    assert_clean("curl/wget stdout", &out.stdout);
    assert_clean("curl/wget stderr", &out.stderr);
    let js = format!(
        "const r = await fetch({url:?}, {{ headers: {{ authorization: 'mine' }} }});\n\
         console.log(r.status, await r.text());\n\
         console.log(JSON.stringify(process.env));"
    );
    let out = ok(&ws, &["exec", "--backend", "js", &js], b"");
    assert_eq!(text(&out.stdout).lines().next(), Some("200 hello"));
    assert_clean("js stdout", &out.stdout);
    assert_clean("js stderr", &out.stderr);
    ws.ok_with(
        &["fs", "write", "/c.py"],
        format!(
            "import os, urllib.request\n\
             print(urllib.request.urlopen({url:?}).read().decode(), end='')\n\
             print(sorted(os.environ.items()))\n"
        ),
    );
    let out = ok(&ws, &["run", "python3", "/c.py"], b"");
    assert!(
        text(&out.stdout).starts_with("hello"),
        "{}",
        describe(&["run"], &out)
    );
    assert_clean("python stdout", &out.stdout);
    assert_clean("python stderr", &out.stderr);

    // curl, wget, fetch and urllib: each request had both, the guest's
    // own Authorization (fetch's) replaced.
    let seen = s.requests();
    assert_eq!(seen.len(), 4, "{seen:?}");
    for r in &seen {
        assert_eq!(
            r.header("authorization"),
            Some(format!("Bearer {VALUE}").as_str()),
            "{r:?}"
        );
        assert_eq!(r.path, format!("/hello?x=1&api_key={VALUE}"), "{r:?}");
    }

    // The audit log names what was attached, never the value.
    let audit = ok(&ws, &["audit", "--json"], b"");
    assert!(
        text(&audit.stdout).contains("header authorization"),
        "{}",
        text(&audit.stdout)
    );
    assert_clean("audit", &audit.stdout);
    let runs = ok(&ws, &["runs", "--json"], b"");
    assert_clean("runs", &runs.stdout);
    let ls = ok(&ws, &["secrets", "ls"], b"");
    assert_eq!(text(&ls.stdout).split('\t').next(), Some("TOKEN"));
    assert_workspace_files_clean(&ws);
}

#[test]
fn a_redirect_to_another_host_carries_no_credential() {
    let a = Server::start();
    let b = Server::start();
    let ws = with_secret(&a, false);
    ok(
        &ws,
        &["net", "allow", &format!("127.0.0.1:{}", b.port)],
        b"",
    );
    let to = b.url("/hello");
    let script = format!(
        "curl -sL '{}'; wget -q -O - '{}'",
        a.url(&format!("/redirect?to={to}")),
        a.url(&format!("/redirect?to={to}"))
    );
    let out = ok(&ws, &["exec", &script], b"");
    assert_eq!(text(&out.stdout), "hello\nhello\n");
    let js = format!(
        "const r = await fetch({:?}); console.log(await r.text());",
        a.url(&format!("/redirect?to={to}"))
    );
    let out = ok(&ws, &["exec", "--backend", "js", &js], b"");
    assert_eq!(text(&out.stdout), "hello\n\n");
    assert_eq!(a.requests().len(), 3);
    assert!(
        a.requests()
            .iter()
            .all(|r| r.header("authorization").is_some())
    );
    let seen = b.requests();
    assert_eq!(seen.len(), 3, "{seen:?}");
    for r in &seen {
        assert_eq!(r.header("authorization"), None, "{r:?}");
        assert_eq!(r.path, "/hello", "{r:?}");
    }
    assert_workspace_files_clean(&ws);
}

#[test]
fn basic_auth_and_a_removed_secret() {
    let s = Server::start();
    let ws = Ws::new();
    ok(&ws, &["secrets", "set", "PW"], VALUE.as_bytes());
    let entry = format!("127.0.0.1:{}", s.port);
    ok(
        &ws,
        &["net", "allow", &entry, "--basic", "me:{secret:PW}"],
        b"",
    );
    let ls = text(&ok(&ws, &["net", "ls"], b"").stdout);
    assert!(ls.contains("attaches basic auth: me:{secret:PW}"), "{ls}");
    let out = ok(&ws, &["exec", &format!("curl -s {}", s.url("/hello"))], b"");
    assert_eq!(text(&out.stdout), "hello\n");
    use base64::Engine;
    let expect = format!(
        "Basic {}",
        base64::engine::general_purpose::STANDARD.encode(format!("me:{VALUE}"))
    );
    assert_eq!(
        s.requests()[0].header("authorization"),
        Some(expect.as_str())
    );
    // Without its secret the request does not leave, and says nothing of it.
    ok(&ws, &["secrets", "rm", "PW"], b"");
    let out = run(
        &ws,
        &["exec", &format!("curl -sS {}", s.url("/hello"))],
        b"",
    );
    assert!(!out.status.success());
    assert_eq!(s.requests().len(), 1);
    let audit = text(&ok(&ws, &["audit", "--json"], b"").stdout);
    assert!(audit.contains("PW is not set"), "{audit}");
    assert_workspace_files_clean(&ws);
}

#[test]
fn credentials_need_a_named_host_and_a_set_secret() {
    let ws = Ws::new();
    let out = run(
        &ws,
        &[
            "net",
            "allow",
            "api.example.com",
            "--header",
            "X-Key: {secret:NOPE}",
        ],
        b"",
    );
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("computer secrets set NOPE"),
        "{}",
        text(&out.stderr)
    );
    ok(&ws, &["secrets", "set", "K"], b"v");
    let out = run(
        &ws,
        &["net", "allow", "*", "--header", "X-Key: {secret:K}"],
        b"",
    );
    assert!(!out.status.success());
    assert!(ws.ok(&["net", "ls"]).contains("no hosts allowed"));
    let out = run(&ws, &["secrets", "set", "K"], b"");
    assert!(!out.status.success(), "an empty value is refused");
    let out = run(&ws, &["secrets", "set", "bad-name"], b"x");
    assert!(!out.status.success());
}

/// A module component's request (ws:github posting a comment) gets the
/// workspace's credentials for its host too.
#[test]
fn a_module_components_request_carries_the_secret() {
    let s = Server::start();
    let ws = with_secret(&s, false);
    let module = computer_tests::workspace_root()
        .join("guests/target/wasm32-wasip2/release/github_module.wasm");
    assert!(
        module.is_file(),
        "{} is missing: run scripts/build-guests.sh",
        module.display()
    );
    let base = format!("base_url={}", s.url(""));
    let module = module.to_str().unwrap();
    ok(
        &ws,
        &[
            "modules",
            "add",
            "ws:github",
            module,
            "--config",
            &base,
            "--config",
            "repo=o/r",
        ],
        b"",
    );
    let agent = "import { postComment } from \"ws:github\";\nconsole.log(\"posted\", postComment(7, \"LGTM\"));";
    run(&ws, &["exec", "--backend", "js", "--id", "m-1", agent], b"");
    let pending = computer_tests::one_json(&ok(&ws, &["--json", "pending"], b"").stdout);
    let call = pending["pending"][0]["call_id"]
        .as_str()
        .expect("a pending call")
        .to_owned();
    let out = ok(
        &ws,
        &["respond", "m-1", &call, r#"{"approved": true}"#],
        b"",
    );
    assert_eq!(text(&out.stdout), "posted posted\n");
    assert_clean("module run", &out.stdout);
    assert_clean("module run stderr", &out.stderr);
    let seen = s.requests();
    assert_eq!(seen.len(), 1, "{seen:?}");
    assert_eq!(
        seen[0].header("authorization"),
        Some(format!("Bearer {VALUE}").as_str())
    );
    assert_workspace_files_clean(&ws);
}
