//! `fetch` in the JS backend against a server the test starts on 127.0.0.1
//! (curl's test server), through the CLI: the workspace's allow-list, the
//! denied request's `TypeError: fetch failed` and its cause, redirects
//! (followed, manual, a loop), request bodies and headers, and status codes.
//! The expected lines are what node 20 prints for the same script.

#[allow(dead_code)] // the curl tests use more of it
use crate::curl::server;

use std::process::Output;

use computer_tests::{Ws, component_cache_dir, describe, run_command, text};
use server::Server;

fn run(ws: &Ws, args: &[&str]) -> Output {
    let mut cmd = ws.command(args);
    cmd.env("COMPUTER_CACHE_DIR", component_cache_dir());
    run_command(&mut cmd, b"")
}

/// Runs `script` (an ES module) on the JS backend with `B` set to the
/// server's base URL; its output.
fn js(ws: &Ws, s: &Server, script: &str) -> Output {
    let source = format!("const B = {:?};\n{script}", s.url(""));
    run(ws, &["exec", "--backend", "js", &source])
}

fn js_ok(ws: &Ws, s: &Server, script: &str) -> String {
    let out = js(ws, s, script);
    assert!(
        out.status.success(),
        "{}",
        describe(&["exec", script], &out)
    );
    text(&out.stdout)
}

fn allowed(server: &Server) -> Ws {
    let ws = Ws::new();
    let entry = format!("127.0.0.1:{}", server.port);
    let out = run(&ws, &["net", "allow", &entry]);
    assert!(
        out.status.success(),
        "{}",
        describe(&["net", "allow"], &out)
    );
    ws
}

#[test]
fn allowed_host_gets_the_response() {
    let s = Server::start();
    let ws = allowed(&s);
    let out = js_ok(
        &ws,
        &s,
        "const r = await fetch(B + '/hello');\n\
         console.log(r.status, r.statusText, r.ok, r.redirected, r.type);\n\
         console.log(r.url === B + '/hello', r.headers.get('content-type'));\n\
         console.log(JSON.stringify(await r.text()), r.bodyUsed);\n\
         const j = await fetch(B + '/json');\n\
         console.log(j.status, j.statusText, await j.json());",
    );
    assert_eq!(
        out,
        "200 OK true false basic\ntrue text/plain\n\"hello\\n\" true\n201 Created { ok: true }\n"
    );
    let seen = s.requests();
    assert_eq!(seen.len(), 2);
    assert_eq!(seen[0].method, "GET");
    assert_eq!(seen[0].header("user-agent"), Some("node"));
    assert_eq!(seen[0].header("accept"), Some("*/*"));
}

#[test]
fn unlisted_host_is_denied_with_a_cause_that_says_how_to_allow_it() {
    let s = Server::start();
    let ws = Ws::new();
    let out = js_ok(
        &ws,
        &s,
        "try { await fetch(B + '/hello'); } catch (e) {\n\
           console.log(e instanceof TypeError, e.message);\n\
           console.log(e.cause.message);\n\
           console.log(e.cause.code);\n\
         }",
    );
    let entry = format!("127.0.0.1:{}", s.port);
    assert_eq!(
        out,
        format!(
            "true fetch failed\n{entry} is not on the workspace's network allow-list: \
             allow it with `computer net allow {entry}`\nERR_NETWORK_NOT_ALLOWED\n"
        )
    );
    assert!(s.requests().is_empty(), "nothing reached the server");
}

#[test]
fn an_uncaught_denied_fetch_ends_the_run_with_exit_1() {
    let s = Server::start();
    let ws = Ws::new();
    let out = js(&ws, &s, "await fetch(B + '/hello');");
    assert_eq!(out.status.code(), Some(1), "{}", describe(&["exec"], &out));
    let stderr = text(&out.stderr);
    assert!(stderr.starts_with("TypeError: fetch failed"), "{stderr}");
    assert!(stderr.contains("computer net allow 127.0.0.1:"), "{stderr}");
}

#[test]
fn redirects_are_followed_unless_manual_and_a_loop_fails() {
    let s = Server::start();
    let ws = allowed(&s);
    let out = js_ok(
        &ws,
        &s,
        "const r = await fetch(B + '/redirect?to=/json');\n\
         console.log(r.status, r.redirected, r.url === B + '/json', await r.text());\n\
         const m = await fetch(B + '/redirect?to=/json', { redirect: 'manual' });\n\
         console.log(m.status, m.headers.get('location'), m.redirected);\n\
         try { await fetch(B + '/redirect', { redirect: 'error' }); } catch (e) { console.log(e.message, e.cause.message); }\n\
         try { await fetch(B + '/loop'); } catch (e) { console.log(e.message, e.cause.message); }",
    );
    assert_eq!(
        out,
        "201 true true {\"ok\":true}\n302 /json false\n\
         fetch failed unexpected redirect\nfetch failed redirect count exceeded\n"
    );
    // The loop: the first request and 20 redirects.
    let loops = s.requests().iter().filter(|r| r.path == "/loop").count();
    assert_eq!(loops, 21);
}

#[test]
fn request_bodies_and_headers_reach_the_server() {
    let s = Server::start();
    let ws = allowed(&s);
    let out = js_ok(
        &ws,
        &s,
        "const r = await fetch(B + '/echo', { method: 'post', body: JSON.stringify({ a: 1 }),\n\
           headers: { 'Content-Type': 'application/json', 'X-Custom': 'yes' } });\n\
         console.log(r.status);\n\
         await fetch(B + '/echo', { method: 'PUT', body: new Uint8Array([104, 105]) });\n\
         await fetch(B + '/echo', { method: 'POST', body: 'plain' });",
    );
    assert_eq!(out, "200\n");
    let seen = s.requests();
    assert_eq!(seen.len(), 3);
    assert_eq!(seen[0].method, "POST");
    assert_eq!(seen[0].body, br#"{"a":1}"#);
    assert_eq!(seen[0].header("content-type"), Some("application/json"));
    assert_eq!(seen[0].header("x-custom"), Some("yes"));
    assert_eq!(seen[0].header("content-length"), Some("7"));
    assert_eq!(seen[1].method, "PUT");
    assert_eq!(seen[1].body, b"hi");
    assert_eq!(seen[1].header("content-type"), None);
    assert_eq!(
        seen[2].header("content-type"),
        Some("text/plain;charset=UTF-8")
    );
}

#[test]
fn error_statuses_resolve_and_refused_connections_reject_as_node() {
    let s = Server::start();
    let ws = allowed(&s);
    // A port nothing listens on, allowed too: the host refuses to connect.
    let closed = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port");
    let entry = format!("127.0.0.1:{closed}");
    let out = run(&ws, &["net", "allow", &entry]);
    assert!(
        out.status.success(),
        "{}",
        describe(&["net", "allow"], &out)
    );
    let out = js_ok(
        &ws,
        &s,
        &format!(
            "const r = await fetch(B + '/missing');\n\
             console.log(r.status, r.statusText, r.ok, await r.text());\n\
             try {{ await fetch('http://{entry}/'); }} catch (e) {{\n\
               console.log(e.message, e.cause.message, e.cause.code, e.cause.syscall, e.cause.port);\n\
             }}"
        ),
    );
    assert_eq!(
        out,
        format!(
            "404 Not Found false not here\n\n\
             fetch failed connect ECONNREFUSED {entry} ECONNREFUSED connect {closed}\n"
        )
    );
}
