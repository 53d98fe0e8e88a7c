//! `computer commands add/ls/rm` and `computer run`, driven as a user would:
//! a component is checked before it is stored, the registration persists in
//! the workspace, shell scripts call it by name, `computer run` and
//! `exec --backend command` run it directly with its exit code, and the
//! MCP-free paths give clear errors. The command is the runtime tests'
//! `tests/fixtures/test-command`.

use std::path::PathBuf;
use std::process::Output;

use computer_tests::{
    Ws, component_cache_dir, describe, one_json, run_command, text, workspace_root,
};

fn wasm(name: &str) -> String {
    let path: PathBuf = workspace_root()
        .join("guests/target/wasm32-wasip2/release")
        .join(name);
    assert!(
        path.is_file(),
        "{} does not exist: run scripts/build-guests.sh",
        path.display()
    );
    path.display().to_string()
}

fn run(ws: &Ws, args: &[&str], stdin: &[u8]) -> Output {
    let mut cmd = ws.command(args);
    cmd.env("COMPUTER_CACHE_DIR", component_cache_dir());
    run_command(&mut cmd, stdin)
}

fn ok(ws: &Ws, args: &[&str]) -> String {
    let out = run(ws, args, b"");
    assert!(
        out.status.success(),
        "expected success\n{}",
        describe(args, &out)
    );
    text(&out.stdout)
}

fn add_tc(ws: &Ws) {
    let path = wasm("test_command.wasm");
    ok(
        ws,
        &[
            "commands",
            "add",
            "tc",
            &path,
            "--description",
            "the test command",
        ],
    );
}

#[test]
fn add_ls_rm_persist_in_the_workspace() {
    let ws = Ws::new();
    add_tc(&ws);
    let listed = one_json(ok(&ws, &["commands", "ls", "--json"]).as_bytes());
    let tc = listed["commands"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "tc")
        .unwrap_or_else(|| panic!("tc listed: {listed}"))
        .clone();
    assert_eq!(tc["origin"], "workspace");
    assert_eq!(tc["description"], "the test command");
    assert_eq!(tc["sha256"].as_str().unwrap().len(), 64);
    let plain = ok(&ws, &["commands", "ls"]);
    let line = plain
        .lines()
        .find(|l| l.starts_with("tc "))
        .unwrap_or_else(|| panic!("tc listed: {plain}"));
    let words: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(words[..2], ["tc", "workspace"], "{line}");
    assert!(line.ends_with("the test command"), "{line}");
    // Replacing says so.
    let again = one_json(
        ok(
            &ws,
            &[
                "commands",
                "add",
                "tc",
                &wasm("test_command.wasm"),
                "--json",
            ],
        )
        .as_bytes(),
    );
    assert_eq!(again["replaced"], true);
    ok(&ws, &["commands", "rm", "tc"]);
    assert!(!ok(&ws, &["commands", "ls"]).contains("tc "));
    let out = run(&ws, &["commands", "rm", "tc"], b"");
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        describe(&["commands", "rm"], &out)
    );
    assert!(
        text(&out.stderr).contains("ENOENT"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn bad_registrations_are_refused_with_the_reason() {
    let ws = Ws::new();
    let cases: Vec<(Vec<String>, &str)> = vec![
        (
            vec![
                "commands".into(),
                "add".into(),
                "js".into(),
                wasm("computer_guest_js.wasm"),
            ],
            "not a wasi:cli/command component",
        ),
        (
            vec![
                "commands".into(),
                "add".into(),
                "a/b".into(),
                wasm("test_command.wasm"),
            ],
            "invalid command name",
        ),
        (
            vec![
                "commands".into(),
                "add".into(),
                "x".into(),
                "/nonexistent.wasm".into(),
            ],
            "cannot read /nonexistent.wasm",
        ),
        (
            vec![
                "commands".into(),
                "add".into(),
                "x".into(),
                wasm("test_command.wasm"),
                "--mount".into(),
                "relative=/tmp".into(),
            ],
            "must be absolute",
        ),
        (
            vec![
                "commands".into(),
                "add".into(),
                "x".into(),
                wasm("test_command.wasm"),
                "--mount".into(),
                "/usr/lib/x=/no/such/dir".into(),
            ],
            "/no/such/dir",
        ),
    ];
    for (args, message) in cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = run(&ws, &args, b"");
        assert_eq!(out.status.code(), Some(1), "{}", describe(&args, &out));
        assert!(
            text(&out.stderr).contains(message),
            "{}",
            describe(&args, &out)
        );
    }
    assert!(!ok(&ws, &["commands", "ls"]).contains("workspace"));
}

#[test]
fn scripts_and_run_call_it_by_name() {
    let ws = Ws::new();
    add_tc(&ws);
    let out = ok(
        &ws,
        &[
            "exec",
            "mkdir -p /p && cd /p && tc write f.txt hello && cat f.txt && echo && tc argv -x 'a b' | tail -2 && tc exit 3; echo $?",
        ],
    );
    assert_eq!(out, "hello\n[-x]\n[a b]\n3\n");

    assert_eq!(
        ok(&ws, &["run", "tc", "echo", "--flag", "a b"]),
        "--flag a b\n"
    );
    let out = run(&ws, &["run", "--cwd", "/p", "tc", "read", "f.txt"], b"");
    assert_eq!(text(&out.stdout), "hello");
    let out = run(&ws, &["run", "tc", "exit", "42"], b"");
    assert_eq!(out.status.code(), Some(42), "{}", describe(&["run"], &out));
    let out = run(&ws, &["run", "--stdin", "-", "tc", "upper"], b"piped\n");
    assert_eq!(text(&out.stdout), "PIPED\n");
    let out = run(
        &ws,
        &["exec", "--backend", "command", "tc echo 'one two' three"],
        b"",
    );
    assert_eq!(text(&out.stdout), "one two three\n");

    let out = run(&ws, &["run", "nosuch", "x"], b"");
    assert_eq!(
        out.status.code(),
        Some(127),
        "{}",
        describe(&["run", "nosuch"], &out)
    );
    assert!(
        text(&out.stderr).contains("nosuch: command not found"),
        "{}",
        text(&out.stderr)
    );
    let out = run(&ws, &["exec", "nosuch_either"], b"");
    assert_eq!(out.status.code(), Some(127));
    // The CLI says what could run it, as the tools' hint does.
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains(
            "computer: exit 127: `nosuch_either` is not available on the `shell` backend"
        ),
        "{stderr}"
    );
    let doc = one_json(&run(&ws, &["exec", "--json", "nosuch_either"], b"").stdout);
    assert!(
        doc["hint"]
            .as_str()
            .is_some_and(|h| h.contains("nosuch_either")),
        "{doc}"
    );
}

#[test]
fn a_timed_out_command_leaves_no_lock() {
    let ws = Ws::new();
    add_tc(&ws);
    let out = run(
        &ws,
        &[
            "run",
            "--timeout",
            "1",
            "--cwd",
            "/",
            "tc",
            "lock",
            "db.lock",
            "db",
            "spin",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(124), "{}", describe(&["run"], &out));
    let listing = ok(&ws, &["fs", "ls", "/"]);
    assert!(listing.contains("db"), "{listing}");
    assert!(!listing.contains("db.lock"), "{listing}");
}

#[test]
fn a_mount_is_seen_read_only_and_shadows_nothing() {
    let ws = Ws::new();
    let host = tempfile::tempdir().unwrap();
    std::fs::create_dir(host.path().join("lib")).unwrap();
    std::fs::write(host.path().join("lib/data.txt"), "from the host\n").unwrap();
    let mount = format!("/opt/tc={}", host.path().display());
    ok(
        &ws,
        &[
            "commands",
            "add",
            "tc",
            &wasm("test_command.wasm"),
            "--mount",
            &mount,
        ],
    );
    assert_eq!(
        ok(&ws, &["run", "tc", "read", "/opt/tc/lib/data.txt"]),
        "from the host\n"
    );
    let out = run(
        &ws,
        &["run", "tc", "write", "/opt/tc/lib/new.txt", "x"],
        b"",
    );
    assert_ne!(out.status.code(), Some(0), "{}", describe(&["run"], &out));
    assert!(!host.path().join("lib/new.txt").exists());
    // The workspace has no /opt: the mount is not part of it.
    let out = run(&ws, &["fs", "ls", "/opt"], b"");
    assert_eq!(out.status.code(), Some(1));
}

/// ripgrep built for wasm32-wasip2 by `scripts/build-wasi-programs.sh`.
fn rg_wasm() -> String {
    let path = std::env::var_os("COMPUTER_RG_WASM")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace_root().join("target/wasi-programs/bin/rg.wasm"));
    assert!(
        path.is_file(),
        "{} does not exist: run scripts/build-wasi-programs.sh",
        path.display()
    );
    path.display().to_string()
}

#[test]
fn ripgrep_registered_as_a_command_matches_native_rg_in_a_pipeline() {
    let ws = Ws::new();
    let host = tempfile::tempdir().unwrap();
    for (path, text) in [
        ("src/main.rs", "fn main() {\n    // TODO: parse args\n}\n"),
        (
            "src/lib.rs",
            "pub fn f() {}\n// todo lower\n// TODO second\n",
        ),
        ("docs/notes.md", "TODO write docs\nnothing here\n"),
        ("ünïcode/名前.txt", "TODO ünïcode\n"),
    ] {
        let p = host.path().join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    ok(&ws, &["import", host.path().to_str().unwrap(), "/proj"]);
    ok(
        &ws,
        &[
            "commands",
            "add",
            "rg",
            &rg_wasm(),
            "--description",
            "ripgrep",
        ],
    );
    let native = std::process::Command::new("rg")
        .args(["-n", "--sort", "path", "TODO", "."])
        .current_dir(host.path())
        .output()
        .expect("native rg: apt-get install ripgrep (scripts/setup.sh)");
    let ours = ok(
        &ws,
        &["exec", "rg -n --sort path TODO /proj | sed 's|^/proj/|./|'"],
    );
    assert_eq!(ours, text(&native.stdout));
    // From the shell's cwd, as an agent types it after `cd`.
    let ours = ok(&ws, &["exec", "cd /proj && rg -n --sort path TODO ."]);
    assert_eq!(ours, text(&native.stdout));
    let native_sub = std::process::Command::new("rg")
        .args(["--sort", "path", "TODO", "../docs", "main.rs"])
        .current_dir(host.path().join("src"))
        .output()
        .unwrap();
    let ours = ok(
        &ws,
        &[
            "exec",
            "cd /proj/src && rg --sort path TODO ../docs main.rs",
        ],
    );
    assert_eq!(ours, text(&native_sub.stdout));
    // Counting through a pipeline, and rg's exit code for no match.
    let count = ok(&ws, &["exec", "rg -c --sort path TODO /proj | wc -l"]);
    assert_eq!(count.trim(), "4");
    let out = ok(&ws, &["exec", "rg nomatchanywhere /proj; echo \"exit $?\""]);
    assert_eq!(out, "exit 1\n");
}

/// A command run in a project that has a `tmp/` of its own still reaches
/// the workspace's `/tmp` by that absolute path (`$TMPDIR`), and its
/// relative paths stay in the project.
#[test]
fn absolute_tmp_is_the_workspace_tmp_beside_a_project_tmp() {
    let ws = Ws::new();
    add_tc(&ws);
    ok(
        &ws,
        &[
            "exec",
            "mkdir -p /proj/tmp /tmp && cd /proj && tc write /tmp/made.txt abs && tc write rel.txt rel",
        ],
    );
    let out = ok(
        &ws,
        &[
            "exec",
            "cat /tmp/made.txt; echo; cat /proj/rel.txt; echo; ls /proj/tmp | wc -l",
        ],
    );
    assert_eq!(out, "abs\nrel\n0\n");
}
