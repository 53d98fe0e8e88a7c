//! Export and import never touch the live workspace file, export drops
//! setuid/setgid/sticky bits, and deep trees transfer under a low
//! descriptor limit.

use std::os::unix::fs::PermissionsExt;

use computer_tests::{Ws, computer, computer_bin, describe, run_command, text};

/// Runs `computer ARGS` in `ws.dir()` on the default workspace
/// (`./.computer/workspace.db`), as an operator would.
fn default_ws(ws: &Ws, args: &[&str], stdin: &[u8]) -> std::process::Output {
    let mut cmd = computer(ws.dir());
    cmd.args(args);
    run_command(&mut cmd, stdin)
}

#[test]
fn export_of_slash_to_dot_keeps_the_live_workspace() {
    let ws = Ws::new();
    // A crafted workspace allowing a host the operator never allowed.
    ws.ok(&["net", "allow", "evil.example"]);
    let crafted = std::fs::read(ws.db()).expect("read the crafted file");
    let out = default_ws(&ws, &["init"], b"");
    assert!(out.status.success(), "{}", describe(&["init"], &out));
    let out = default_ws(
        &ws,
        &["fs", "write", "--parents", "/.computer/workspace.db"],
        &crafted,
    );
    assert!(out.status.success(), "{}", describe(&["fs", "write"], &out));

    let out = default_ws(&ws, &["export", "/", "."], b"");
    assert!(out.status.success(), "{}", describe(&["export"], &out));
    assert_eq!(
        text(&out.stderr),
        "skipped: /.computer/workspace.db: not exported: it is the database of a workspace open in this process (or its -wal, -shm, -journal or -reserve file)\n"
    );
    let out = default_ws(&ws, &["net", "ls"], b"");
    assert!(out.status.success(), "{}", describe(&["net", "ls"], &out));
    assert!(
        !text(&out.stdout).contains("evil.example"),
        "{}",
        text(&out.stdout)
    );
    let out = default_ws(&ws, &["audit"], b"");
    assert!(
        text(&out.stdout).contains("/.computer/workspace.db"),
        "the audit log is gone"
    );
}

#[test]
fn import_of_dot_leaves_the_live_database_out() {
    let ws = Ws::new();
    std::fs::write(ws.host("notes.txt"), "hi\n").expect("write");
    let out = default_ws(&ws, &["fs", "mkdir", "/proj"], b"");
    assert!(out.status.success(), "{}", describe(&["fs", "mkdir"], &out));
    let out = default_ws(&ws, &["import", ".", "/proj"], b"");
    assert!(out.status.success(), "{}", describe(&["import"], &out));
    assert!(
        text(&out.stderr).contains("skipped: /proj/.computer/workspace.db: not imported: it is the database of a workspace open in this process"),
        "{}",
        text(&out.stderr)
    );
    let out = default_ws(&ws, &["fs", "ls", "/proj/.computer"], b"");
    assert_eq!(text(&out.stdout), "", "{}", describe(&["fs", "ls"], &out));
    let out = default_ws(&ws, &["fs", "read", "/proj/notes.txt"], b"");
    assert_eq!(text(&out.stdout), "hi\n");
}

#[test]
fn export_strips_setuid_setgid_and_sticky_bits() {
    let ws = Ws::new();
    ws.put("/bin/tool", "#!/bin/sh\n");
    ws.ok(&["fs", "chmod", "4755", "/bin/tool"]);
    ws.ok(&["fs", "chmod", "3777", "/bin"]);
    ws.ok(&["export", "/", "out"]);
    let mode = |p: &str| {
        std::fs::metadata(ws.host(p))
            .expect("stat")
            .permissions()
            .mode()
            & 0o7777
    };
    assert_eq!(mode("out/bin/tool"), 0o755);
    assert_eq!(mode("out/bin"), 0o777);
}

/// `computer --workspace DB ARGS` with at most 64 open descriptors.
fn with_few_fds(ws: &Ws, db: &std::path::Path, args: &[&str]) -> std::process::Output {
    let mut cmd = std::process::Command::new("sh");
    cmd.arg("-c")
        .arg("ulimit -n 64 && exec \"$@\"")
        .arg("sh")
        .arg(computer_bin())
        .arg("--workspace")
        .arg(db)
        .args(args)
        .current_dir(ws.dir());
    run_command(&mut cmd, b"")
}

#[test]
fn a_tree_as_deep_as_the_path_limit_exports_and_imports_with_64_descriptors() {
    let ws = Ws::new();
    // 1500 levels: 3000 bytes of path, far more levels than descriptors.
    let deep = "/a".repeat(1500);
    ws.ok(&["fs", "mkdir", "-p", &deep]);
    ws.put(&format!("{deep}/bottom.txt"), "found\n");
    let out = with_few_fds(&ws, ws.db(), &["export", "/", "out"]);
    assert!(out.status.success(), "{}", describe(&["export"], &out));
    let back = ws.host("back.db");
    let out = with_few_fds(&ws, &back, &["import", "out", "/"]);
    assert!(out.status.success(), "{}", describe(&["import"], &out));
    let mut cmd = computer(ws.dir());
    cmd.arg("--workspace")
        .arg(&back)
        .args(["fs", "read", &format!("{deep}/bottom.txt")]);
    let out = run_command(&mut cmd, b"");
    assert_eq!(
        text(&out.stdout),
        "found\n",
        "{}",
        describe(&["fs", "read"], &out)
    );
}
