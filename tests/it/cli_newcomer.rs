//! What a newcomer types in the first minutes (issue 19): shell habits on the
//! command line, and JavaScript's result shown without `--json`.

use computer_tests::{Ws, describe, text};

fn stdout_of(ws: &Ws, args: &[&str]) -> String {
    let out = ws.exec(args, "");
    assert!(out.status.success(), "{}", describe(args, &out));
    text(&out.stdout)
}

#[test]
fn trailing_words_are_the_command_as_ssh_joins_them() {
    let ws = Ws::new();
    assert_eq!(
        stdout_of(&ws, &["--backend", "shell", "echo", "hi", "there"]),
        "hi there\n"
    );
    assert_eq!(
        stdout_of(&ws, &["--backend", "shell", "--", "echo", "-n", "x"]),
        "x"
    );
    // Flags after the source are still flags.
    let (code, doc) = ws.exec_json(&["--backend", "shell", "echo", "hi"], "");
    assert_eq!((code, doc["stdout"].as_str()), (0, Some("hi\n")));
}

#[test]
fn dash_c_is_accepted_as_sh_users_type_it() {
    let ws = Ws::new();
    assert_eq!(
        stdout_of(&ws, &["--backend", "shell", "-c", "echo hi"]),
        "hi\n"
    );
}

#[test]
fn a_default_export_is_printed_as_node_p_prints_it() {
    let ws = Ws::new();
    assert_eq!(stdout_of(&ws, &["export default () => 42"]), "42\n");
    assert_eq!(
        stdout_of(&ws, &["console.log('a'); export default () => 'text'"]),
        "a\ntext\n"
    );
    assert_eq!(
        stdout_of(&ws, &["export default () => ({ n: [1, 2] })"]),
        "{\"n\":[1,2]}\n"
    );
    assert_eq!(stdout_of(&ws, &["export default () => undefined"]), "");
}

/// A compile is announced on piped stderr as soon as it starts (an agent
/// reading stderr learns why it waits), and only while one is needed.
#[test]
fn a_compile_says_so_on_piped_stderr_and_only_once() {
    let ws = Ws::new();
    let cache = tempfile::tempdir().unwrap();
    let run = || {
        let out = ws
            .command(&["run", "curl", "--version"])
            .env("COMPUTER_CACHE_DIR", cache.path())
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", describe(&["run"], &out));
        text(&out.stderr)
    };
    let first = run();
    assert!(
        first.starts_with("computer: compiling curl (0.5 MB) for this machine, once"),
        "{first}"
    );
    assert_eq!(run(), "", "the second run loads the cached compile");
}

/// `computer mcp` compiles the built-in components at start-up, before any
/// tool call, so a client's first exec does not wait for the compile (an
/// MCP client's tool timeout may be 30 s).
#[test]
fn the_mcp_server_compiles_the_components_before_the_first_call() {
    let ws = Ws::new();
    let cache = tempfile::tempdir().unwrap();
    let mut server = ws
        .command(&["mcp"])
        .env("COMPUTER_CACHE_DIR", cache.path())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let compiled = || {
        std::fs::read_dir(cache.path())
            .map(|d| {
                d.filter_map(|e| e.ok())
                    .any(|e| e.path().extension().is_some_and(|x| x == "cwasm"))
            })
            .unwrap_or(false)
    };
    // Not a timing test: a generous bound on a compile that must happen at all.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(600);
    while !compiled() && std::time::Instant::now() < deadline {
        assert!(
            server.try_wait().unwrap().is_none(),
            "the server exited without a client"
        );
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let _ = server.kill();
    let _ = server.wait();
    assert!(
        compiled(),
        "no component was compiled into {:?}",
        cache.path()
    );
}
