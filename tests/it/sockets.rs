//! A run's loopback network (`wasi:sockets` over memory, never a host
//! socket): real programs' sockets against their native builds.
//! - a Rust program's `std::net` (wasi-libc's sockets on wasm32-wasip2,
//!   `tests/fixtures/sock-echo`): a listener and a client in one process,
//!   a refused connect, an address in use;
//! - Python's `socket`, `selectors`, `http.server` and `urllib` (ours, over
//!   `wasi:sockets`), against host CPython on the same script.

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
