//! A run's loopback network (`wasi:sockets` over memory, never a host
//! socket): real programs' sockets against their native builds.
//! - a Rust program's `std::net` (wasi-libc's sockets on wasm32-wasip2,
//!   `tests/fixtures/sock-echo`): a listener and a client in one process,
//!   a refused connect, an address in use;
//! - Python's `socket`, `selectors`, `http.server`, `http.client` and
//!   asyncio's streams (ours, over `wasi:sockets`), against host CPython
//!   on the same script.

use std::path::{Path, PathBuf};
use std::process::Output;

use computer_tests::{Ws, component_cache_dir, describe, run_command, text, workspace_root};

/// The sock-echo program and its native build, from
/// `scripts/build-wasi-programs.sh`.
fn sock_echo() -> (PathBuf, PathBuf) {
    let dir = std::env::var_os("COMPUTER_WASI_PROGRAMS_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace_root().join("target/wasi-programs"))
        .join("target");
    let wasm = dir.join("wasm32-wasip2/release/sock_echo.wasm");
    let native = dir.join("release/sock_echo");
    for p in [&wasm, &native] {
        assert!(
            p.is_file(),
            "{} does not exist: run scripts/build-wasi-programs.sh",
            p.display()
        );
    }
    (wasm, native)
}

fn run_in(ws: &Ws, cache: &Path, args: &[&str]) -> Output {
    let mut cmd = ws.command(args);
    cmd.env("COMPUTER_CACHE_DIR", cache);
    run_command(&mut cmd, b"")
}

fn ok_in(ws: &Ws, cache: &Path, args: &[&str]) -> String {
    let out = run_in(ws, cache, args);
    assert!(out.status.success(), "{}", describe(args, &out));
    text(&out.stdout)
}

#[test]
fn std_net_in_one_program_behaves_as_natively() {
    let (wasm, native) = sock_echo();
    let ws = Ws::new();
    let cache = component_cache_dir();
    ok_in(
        &ws,
        &cache,
        &["commands", "add", "sockecho", wasm.to_str().unwrap()],
    );
    for mode in ["echo", "refused", "in-use"] {
        let ours = ok_in(&ws, &cache, &["run", "sockecho", mode]);
        let theirs = std::process::Command::new(&native)
            .arg(mode)
            .output()
            .unwrap();
        assert!(theirs.status.success(), "native sock_echo {mode} failed");
        assert_eq!(ours, text(&theirs.stdout), "sock_echo {mode}");
    }
    // The echo's lines, so a native build that changed cannot hide a
    // regression of ours.
    let echo = ok_in(&ws, &cache, &["run", "sockecho", "echo"]);
    assert!(
        echo.contains("server read 100000 bytes, same: true"),
        "{echo}"
    );
    assert!(echo.contains("client read \"bye\""), "{echo}");
}

#[test]
fn tcp_to_outside_the_run_is_denied_not_attempted() {
    let (wasm, _) = sock_echo();
    let ws = Ws::new();
    let cache = component_cache_dir();
    ok_in(
        &ws,
        &cache,
        &["commands", "add", "sockecho", wasm.to_str().unwrap()],
    );
    // 192.0.2.1 is TEST-NET-1: natively a refusal or a timeout; in a run,
    // no attempt at all.
    let out = ok_in(&ws, &cache, &["run", "sockecho", "outside"]);
    assert_eq!(out, "connect: PermissionDenied\n");
}

/// `tests/fixtures/python-sockets/NAME.py`, run by host CPython and in a
/// run; both outputs.
fn python_both(ws: &Ws, cache: &Path, name: &str) -> (String, String) {
    let script = workspace_root().join(format!("tests/fixtures/python-sockets/{name}.py"));
    let native = std::process::Command::new("/usr/bin/python3")
        .arg(&script)
        .output()
        .expect("host CPython (/usr/bin/python3)");
    assert!(
        native.status.success(),
        "host CPython failed {name}.py: {}",
        text(&native.stderr)
    );
    let source = std::fs::read(&script).unwrap();
    let path = format!("/{name}.py");
    let mut write = ws.command(&["fs", "write", &path]);
    let out = run_command(&mut write, &source);
    assert!(out.status.success(), "{}", describe(&["fs", "write"], &out));
    let ours = ok_in(ws, cache, &["run", "python3", &path]);
    (ours, text(&native.stdout))
}

#[test]
fn python_selectors_server_and_client_in_one_process_match_cpython() {
    let ws = Ws::new();
    let cache = component_cache_dir();
    let (ours, cpython) = python_both(&ws, &cache, "selectors_echo");
    assert_eq!(ours, cpython);
    assert!(ours.contains("echoed 1088890 bytes, same: True"), "{ours}");
}

#[test]
fn python_refused_connection_and_address_in_use_match_cpython() {
    let ws = Ws::new();
    let cache = component_cache_dir();
    let (ours, cpython) = python_both(&ws, &cache, "errors");
    assert_eq!(ours, cpython);
    assert!(
        ours.contains("connect 127.0.0.1 ConnectionRefusedError ECONNREFUSED"),
        "{ours}"
    );
    assert!(ours.contains("EADDRINUSE Address already in use"), "{ours}");
}

#[test]
fn python_http_server_and_http_client_in_one_process_match_cpython() {
    let ws = Ws::new();
    let cache = component_cache_dir();
    let (ours, cpython) = python_both(&ws, &cache, "http_roundtrip");
    assert_eq!(ours, cpython);
    assert!(
        ours.contains("GET 200 text/plain b'hello from the server\\n'"),
        "{ours}"
    );
}

#[test]
fn python_socket_api_surface_matches_cpython() {
    let ws = Ws::new();
    let cache = component_cache_dir();
    let (ours, cpython) = python_both(&ws, &cache, "api");
    assert_eq!(ours, cpython);
    assert!(ours.contains("peek: b'peek' then: b'peek me'"), "{ours}");
}

#[test]
fn python_asyncio_streams_over_the_loopback_match_cpython() {
    let ws = Ws::new();
    let cache = component_cache_dir();
    let (ours, cpython) = python_both(&ws, &cache, "asyncio_echo");
    assert_eq!(ours, cpython);
    assert!(ours.contains("CLIENT 2 LINE 2\n"), "{ours}");
}

#[test]
fn python_tcp_outside_the_run_is_a_permission_error_naming_the_rule() {
    let ws = Ws::new();
    let cache = component_cache_dir();
    let out = run_in(
        &ws,
        &cache,
        &[
            "run",
            "python3",
            "-c",
            "import errno, socket\n\
             def show(e):\n\
             \x20   print(type(e).__name__, errno.errorcode.get(e.errno, e.errno), e.strerror)\n\
             for target in [('192.0.2.1', 80), ('example.com', 80)]:\n\
             \x20   try:\n\
             \x20       socket.create_connection(target, timeout=5)\n\
             \x20   except OSError as e:\n\
             \x20       show(e)\n\
             s = socket.socket()\n\
             try:\n\
             \x20   s.bind(('10.1.2.3', 0))\n\
             except OSError as e:\n\
             \x20   show(e)\n\
             try:\n\
             \x20   socket.socket(socket.AF_INET, socket.SOCK_DGRAM)\n\
             except OSError as e:\n\
             \x20   show(e)\n",
        ],
    );
    assert!(
        out.status.success(),
        "{}",
        describe(&["run", "python3"], &out)
    );
    let lines: Vec<String> = text(&out.stdout).lines().map(str::to_owned).collect();
    assert_eq!(lines.len(), 4, "{lines:?}");
    assert!(
        lines[0].starts_with(
            "PermissionError EACCES Permission denied: TCP reaches only the run's own loopback"
        ),
        "{lines:?}"
    );
    assert_eq!(lines[1], "gaierror -2 Name or service not known");
    assert_eq!(
        lines[2],
        "OSError EADDRNOTAVAIL Cannot assign requested address"
    );
    assert!(
        lines[3].starts_with("OSError EPROTONOSUPPORT Protocol not supported"),
        "{lines:?}"
    );
}

#[test]
fn processes_of_one_run_share_its_loopback_match_cpython() {
    let ws = Ws::new();
    let cache = component_cache_dir();
    let (ours, cpython) = python_both(&ws, &cache, "two_processes");
    assert_eq!(ours, cpython);
    assert!(
        ours.contains("child bind: OSError Address already in use"),
        "{ours}"
    );
    assert!(
        ours.contains("parent read: b'written by the child\\n'"),
        "{ours}"
    );
}

/// Two processes of one run: `python3 -m http.server` in the background
/// and curl in the foreground. Needs commands that run at once.
#[test]
fn http_server_in_the_background_answers_curl() {
    let ws = Ws::new();
    let cache = component_cache_dir();
    ok_in(&ws, &cache, &["fs", "mkdir", "-p", "/srv"]);
    let mut write = ws.command(&["fs", "write", "/srv/file"]);
    assert!(run_command(&mut write, b"served\n").status.success());
    let out = ok_in(
        &ws,
        &cache,
        &[
            "exec",
            // Until the server listens, curl is refused (exit 7): retry
            // rather than guess how long its start takes.
            "cd /srv && python3 -m http.server 8000 >/dev/null 2>&1 & \
             for i in $(seq 1 60); do curl -s http://127.0.0.1:8000/file && break; sleep 1; done; \
             kill %1",
        ],
    );
    assert_eq!(out, "served\n");
}

/// A Python server that starts its own client (curl) and serves it: the
/// child runs while the server waits in `accept` and `recv`. Host CPython
/// with host curl is the oracle.
#[test]
fn python_server_serves_the_client_it_started() {
    let ws = Ws::new();
    let cache = component_cache_dir();
    let (ours, cpython) = python_both(&ws, &cache, "own_client");
    assert_eq!(ours, cpython);
    assert!(ours.contains("curl got: hi from the server"), "{ours}");
}
