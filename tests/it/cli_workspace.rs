//! Which workspace file the CLI opens (`--workspace`, `$COMPUTER_WORKSPACE`,
//! `./.computer/workspace.db`), `init`, `info`, and the revision counter.

use computer_tests::{Ws, computer, describe, json, one_json, run_command, text};

#[test]
fn init_creates_the_workspace_file() {
    let ws = Ws::without_file();
    assert!(!ws.db().exists());
    let out = ws.ok(&["init"]);
    assert_eq!(out, format!("workspace ready: {}\n", ws.db().display()));
    assert!(ws.db().is_file());
    assert_eq!(ws.names("/"), Vec::<String>::new());
}

#[test]
fn init_json_reports_the_file_and_revision() {
    let ws = Ws::without_file();
    let doc = ws.json(&["init"]);
    assert_eq!(
        doc,
        json!({"workspace": ws.db().display().to_string(), "rev": 0})
    );
}

#[test]
fn init_on_an_existing_workspace_keeps_its_content() {
    let ws = Ws::new();
    ws.put("/keep.txt", "still here\n");
    let doc = ws.json(&["init"]);
    assert_eq!(
        doc,
        json!({"workspace": ws.db().display().to_string(), "rev": 1})
    );
    assert_eq!(ws.cat("/keep.txt"), "still here\n");
}

#[test]
fn first_change_creates_the_workspace_file() {
    let ws = Ws::without_file();
    let out = run_command(&mut ws.command(&["fs", "mkdir", "/d"]), b"");
    assert!(out.status.success(), "{}", describe(&["fs", "mkdir"], &out));
    assert!(ws.db().is_file());
    assert_eq!(ws.names("/"), ["d"]);
}

#[test]
fn first_use_creates_missing_parent_directories_of_the_file() {
    let ws = Ws::without_file();
    // Relative to the command's working directory.
    let mut cmd = computer(ws.dir());
    cmd.args(["--workspace", "deep/er/ws.db", "fs", "write", "/f"]);
    let out = run_command(&mut cmd, b"x");
    assert!(out.status.success(), "{}", describe(&["fs", "write"], &out));
    assert!(ws.host("deep/er/ws.db").is_file());
}

#[test]
fn environment_variable_selects_the_workspace() {
    let ws = Ws::without_file();
    let mut cmd = computer(ws.dir());
    cmd.env("COMPUTER_WORKSPACE", ws.db())
        .args(["fs", "write", "/from-env.txt"]);
    let out = run_command(&mut cmd, b"env\n");
    assert!(out.status.success(), "{}", describe(&["fs", "write"], &out));
    assert!(ws.db().is_file());
    assert!(!ws.host(".computer").exists(), "the default was used");
    // The same file seen through --workspace.
    assert_eq!(ws.cat("/from-env.txt"), "env\n");
}

#[test]
fn workspace_flag_overrides_the_environment_variable() {
    let ws = Ws::new();
    let other = ws.host("other.db");
    let mut cmd = ws.command(&["fs", "write", "/flag.txt"]);
    cmd.env("COMPUTER_WORKSPACE", &other);
    let out = run_command(&mut cmd, b"flag");
    assert!(out.status.success(), "{}", describe(&["fs", "write"], &out));
    assert!(
        !other.exists(),
        "$COMPUTER_WORKSPACE was used despite --workspace"
    );
    assert_eq!(ws.cat("/flag.txt"), "flag");
}

#[test]
fn default_workspace_is_dot_computer_in_the_current_directory() {
    let ws = Ws::new();
    let mut cmd = computer(ws.dir());
    cmd.args(["fs", "write", "--parents", "/d/default.txt"]);
    let out = run_command(&mut cmd, b"default\n");
    assert!(out.status.success(), "{}", describe(&["fs", "write"], &out));
    assert!(ws.host(".computer/workspace.db").is_file());

    let mut cmd = computer(ws.dir());
    cmd.args(["fs", "read", "/d/default.txt"]);
    let out = run_command(&mut cmd, b"");
    assert!(out.status.success(), "{}", describe(&["fs", "read"], &out));
    assert_eq!(text(&out.stdout), "default\n");

    let mut cmd = computer(ws.dir());
    cmd.args(["init", "--json"]);
    let out = run_command(&mut cmd, b"");
    assert_eq!(
        one_json(&out.stdout),
        json!({"workspace": ".computer/workspace.db", "rev": 1})
    );

    // Another directory means another default workspace.
    let elsewhere = tempfile::tempdir().expect("tempdir");
    let mut cmd = computer(elsewhere.path());
    cmd.args(["fs", "read", "/d/default.txt"]);
    let out = run_command(&mut cmd, b"");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        "computer: ENOENT: no workspace at .computer/workspace.db: the file does not exist (create one with `computer init`)\n"
    );
    assert!(!elsewhere.path().join(".computer").exists());
}

#[test]
fn a_directory_is_not_a_workspace_file() {
    let ws = Ws::new();
    let mut cmd = computer(ws.dir());
    cmd.arg("--workspace").arg(ws.dir()).args(["fs", "ls", "/"]);
    let out = run_command(&mut cmd, b"");
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        describe(&["fs", "ls"], &out)
    );
    assert!(out.stdout.is_empty());
    let stderr = text(&out.stderr);
    assert!(
        stderr.starts_with(&format!(
            "computer: EIO: cannot open workspace {}",
            ws.dir().display()
        )),
        "{stderr}"
    );
}

#[test]
fn revision_is_bumped_once_per_mutation_and_not_by_failures_or_reads() {
    let ws = Ws::new();
    assert_eq!(ws.rev(), 0);
    // One write that also creates two parents is still one mutation.
    ws.put("/a/b/c.txt", "x");
    assert_eq!(ws.rev(), 1);
    ws.cat("/a/b/c.txt");
    ws.ok(&["fs", "ls", "-l", "/a"]);
    ws.ok(&["fs", "find", "/", "**"]);
    assert_eq!(ws.rev(), 1);
    assert_eq!(ws.errno(&["fs", "mkdir", "/a"]), "EEXIST");
    assert_eq!(
        ws.errno_with(&["fs", "write", "--exclusive", "/a/b/c.txt"], "y"),
        "EEXIST"
    );
    assert_eq!(ws.rev(), 1);
    ws.ok(&["fs", "mkdir", "/d"]);
    ws.ok_with(&["fs", "append", "/a/b/c.txt"], "y");
    ws.ok(&["fs", "rm", "-r", "/a"]);
    assert_eq!(ws.rev(), 4);
}

#[test]
fn info_reports_revision_usage_and_readonly_subtrees() {
    let ws = Ws::new();
    ws.put("/one.txt", "same");
    ws.put("/two.txt", "same");
    ws.ok(&["fs", "readonly", "/one.txt"]);
    let doc = ws.json(&["info"]);
    assert_eq!(
        doc,
        json!({
            "workspace": ws.db().display().to_string(),
            "rev": 3,
            // The root and two files; identical content is stored once.
            "usage": {"nodes": 3, "chunks": 1, "stored_bytes": 4, "node_bytes": 8},
            "readonly": ["/one.txt"],
            // What each snapshot holds alone (none here).
            "snapshots": [],
        })
    );
    assert_eq!(
        ws.ok(&["info"]),
        format!(
            "workspace: {}\nrev: 3\nnodes: 3\nchunks: 1 (4 bytes stored)\nfile bytes: 8\nread-only: /one.txt\n",
            ws.db().display()
        )
    );
}

#[test]
fn read_only_commands_never_create_a_workspace_or_its_directories() {
    let ws = Ws::without_file();
    let missing = ws.host("no/such/dir/x.db");
    for args in [
        &["info"][..],
        &["fs", "ls", "/"],
        &["fs", "read", "/f"],
        &["runs"],
        &["audit"],
        &["fsck"],
        &["quota"],
        &["export", "/", "out"],
    ] {
        let mut cmd = computer(ws.dir());
        cmd.arg("--workspace").arg(&missing).args(args);
        let out = run_command(&mut cmd, b"");
        assert_eq!(out.status.code(), Some(1), "{}", describe(args, &out));
        assert_eq!(
            text(&out.stderr),
            format!(
                "computer: ENOENT: no workspace at {}: the file does not exist (create one with `computer init`)\n",
                missing.display()
            )
        );
    }
    assert!(!ws.host("no").exists());
    assert!(!ws.host("out").exists());
}

#[test]
fn an_empty_workspace_file_is_refused_not_started_afresh() {
    let ws = Ws::without_file();
    std::fs::write(ws.db(), b"").expect("truncate");
    for args in [&["fs", "ls", "/"][..], &["fs", "mkdir", "/d"], &["init"]] {
        let out = ws.run(args, "");
        assert_eq!(out.status.code(), Some(1), "{}", describe(args, &out));
        let stderr = text(&out.stderr);
        assert!(
            stderr.starts_with(&format!(
                "computer: EIO: workspace {} is an empty file (0 bytes), not a workspace",
                ws.db().display()
            )),
            "{stderr}"
        );
    }
    assert_eq!(std::fs::metadata(ws.db()).expect("stat").len(), 0);
}

/// Runs `computer ARGS` as the unprivileged user `nobody` (root writes anywhere).
fn as_nobody(ws: &Ws, args: &[&str]) -> std::process::Output {
    let mut cmd = std::process::Command::new("setpriv");
    cmd.args(["--reuid=65534", "--regid=65534", "--clear-groups", "--"])
        .arg(computer_tests::computer_bin())
        .arg("--workspace")
        .arg(ws.db())
        .args(args)
        .current_dir("/")
        .env_remove("COMPUTER_WORKSPACE")
        .env("HOME", "/nonexistent");
    run_command(&mut cmd, b"")
}

#[test]
fn a_workspace_this_user_cannot_write_is_still_readable() {
    use std::os::unix::fs::PermissionsExt;
    if std::process::Command::new("setpriv")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("skipped: no setpriv to run as another user");
        return;
    }
    let ws = Ws::new();
    ws.put("/notes.txt", "read me\n");
    // The directory and the file are root's; nobody may only read them.
    std::fs::set_permissions(ws.dir(), std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let out = as_nobody(&ws, &["fs", "ls", "/"]);
    assert!(out.status.success(), "{}", describe(&["fs", "ls"], &out));
    assert_eq!(text(&out.stdout), "notes.txt\n");
    let out = as_nobody(&ws, &["fs", "read", "/notes.txt"]);
    assert_eq!(
        text(&out.stdout),
        "read me\n",
        "{}",
        describe(&["fs", "read"], &out)
    );
    let out = as_nobody(&ws, &["info"]);
    assert!(out.status.success(), "{}", describe(&["info"], &out));
    // A change is refused with a reason, not attempted.
    let out = as_nobody(&ws, &["fs", "mkdir", "/d"]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        describe(&["fs", "mkdir"], &out)
    );
    assert!(!ws.exists("/d"));
}
