//! Timeouts, kill, no engine, read-only subtrees, cwd/env/args/stdin, and the container's life (dead, idle, stopped, `auto`).

use super::*;

#[test]
fn a_timeout_kills_the_command() {
    let Some(f) = fixture("a_timeout_kills_the_command") else {
        return;
    };
    let o = ContainerExecOptions {
        timeout: Duration::from_secs(2),
        ..opts()
    };
    let r = run_with(
        &f,
        "echo before; sleep 120 & sleep 120; echo after",
        o.clone(),
    );
    assert_eq!(r.exit_code, 124, "stderr: {}", text(&r.stderr));
    assert_eq!(r.status, RunStatus::TimedOut);
    assert_eq!(text(&r.stdout), "before\n");
    assert!(text(&r.stderr).contains("timed out"), "{}", text(&r.stderr));

    // A command that ignores TERM is killed.
    let r = run_with(
        &f,
        "trap '' TERM; echo stubborn; while :; do sleep 1; done",
        o,
    );
    assert_eq!(r.exit_code, 124, "stderr: {}", text(&r.stderr));
    assert_eq!(text(&r.stdout), "stubborn\n");

    // Nothing of it survives, and the container still works.
    let r = run(&f, "ps -o args");
    assert!(
        !text(&r.stdout).contains("sleep 120"),
        "{}",
        text(&r.stdout)
    );
    let rec = f.ws.runs().list(Page::all()).unwrap();
    assert!(rec.iter().any(|r| r.status == RunStatus::TimedOut));
}

#[test]
fn kill_stops_the_command_with_130() {
    let Some(f) = fixture("kill_stops_the_command_with_130") else {
        return;
    };
    let handle = f
        .backend
        .exec(f.ws.clone(), "echo started; sleep 120", opts())
        .expect("exec");
    // Kill once the command has certainly started.
    loop {
        match handle.next_event() {
            Some(Event::Stdout(b)) if b.starts_with(b"started") => break,
            Some(Event::Exit { code, .. }) => panic!("ended early with {code}"),
            Some(_) => {}
            None => panic!("no output"),
        }
    }
    assert!(f.backend.kill(handle.run_id()));
    let r = handle.wait();
    assert_eq!(r.exit_code, 130);
    assert_eq!(r.status, RunStatus::Cancelled);
}

#[test]
fn the_no_engine_error_is_clear_and_exits_125() {
    let dir = tempfile::tempdir().unwrap();
    let ws = Arc::new(Workspace::open(dir.path().join("ws.db")).unwrap());
    let backend = ContainerBackend::new(ContainerConfig {
        docker_host: Some(format!("unix://{}/no-such.sock", dir.path().display())),
        ..config(dir.path())
    })
    .unwrap();
    let err = match backend.exec(ws.clone(), "echo hi", opts()) {
        Err(e) => e,
        Ok(_) => panic!("exec without an engine must fail"),
    };
    assert!(matches!(err, ContainerError::NoEngine { .. }), "{err:?}");
    assert!(err.to_string().starts_with(NO_ENGINE), "{err}");
    assert!(err.to_string().contains("no-such.sock"), "{err}");
    assert_eq!(err.exit_code(), EXIT_ENGINE);
    assert!(
        ws.runs().list(Page::all()).unwrap().is_empty(),
        "nothing recorded"
    );
    assert_eq!(
        NO_ENGINE,
        "no container engine: set DOCKER_HOST or start podman system service"
    );
}

#[test]
fn writes_inside_read_only_subtrees_are_skipped_and_undone() {
    let Some(f) = fixture("writes_inside_read_only_subtrees_are_skipped_and_undone") else {
        return;
    };
    write(&f.ws, "/ro/file.txt", "original\n");
    write(&f.ws, "/ro/gone.txt", "stays\n");
    f.ws.set_readonly("/ro", true).unwrap();
    let r = run(
        &f,
        "echo changed > ro/file.txt; echo new > ro/new.txt; rm ro/gone.txt; echo ok > rw.txt",
    );
    assert_eq!(r.exit_code, 0, "stderr: {}", text(&r.stderr));
    assert_eq!(
        r.sync().unwrap().skipped,
        3,
        "{:?}",
        r.sync().unwrap().skipped_paths
    );
    assert!(
        r.sync()
            .unwrap()
            .skipped_paths
            .iter()
            .all(|s| s.contains("read-only")),
        "{:?}",
        r.sync().unwrap().skipped_paths
    );
    assert!(
        text(&r.stderr).contains("not synced back"),
        "{}",
        text(&r.stderr)
    );
    assert_eq!(f.ws.read("/ro/file.txt").unwrap(), b"original\n");
    assert_eq!(f.ws.read("/ro/gone.txt").unwrap(), b"stays\n");
    assert!(!f.ws.exists("/ro/new.txt").unwrap());
    assert_eq!(f.ws.read("/rw.txt").unwrap(), b"ok\n");

    // The container sees the workspace's version again.
    let r = run(&f, "cat ro/file.txt ro/gone.txt; ls ro");
    assert_eq!(text(&r.stdout), "original\nstays\nfile.txt\ngone.txt\n");
    assert_eq!(
        r.sync().unwrap().skipped,
        0,
        "{:?}",
        r.sync().unwrap().skipped_paths
    );
}

#[test]
fn cwd_env_args_and_stdin_reach_the_command() {
    let Some(f) = fixture("cwd_env_args_and_stdin_reach_the_command") else {
        return;
    };
    f.ws.mkdir(
        "/proj/src",
        &computer_store::MkdirOptions {
            recursive: true,
            mode: None,
        },
    )
    .unwrap();
    let o = ContainerExecOptions {
        cwd: Some("/proj/src".into()),
        env: BTreeMap::from([("GREETING".to_owned(), "hello".to_owned())]),
        args: vec!["one".into(), "two words".into()],
        stdin: b"piped in\n".to_vec(),
        ..opts()
    };
    let r = run_with(
        &f,
        "pwd; echo \"$GREETING $1|$2\"; cat; echo err >&2; exit 3",
        o,
    );
    assert_eq!(r.exit_code, 3);
    assert_eq!(r.status, RunStatus::Failed);
    assert_eq!(
        text(&r.stdout),
        "/workspace/proj/src\nhello one|two words\npiped in\n"
    );
    assert!(text(&r.stderr).starts_with("err\n"), "{}", text(&r.stderr));

    // No network by default.
    let r = run(&f, "ip -o link 2>/dev/null | grep -v ' lo:' | wc -l");
    assert_eq!(text(&r.stdout).trim(), "0", "only loopback");
}

#[test]
fn a_dead_container_is_replaced() {
    let Some(f) = fixture("a_dead_container_is_replaced") else {
        return;
    };
    write(&f.ws, "/x.txt", "x\n");
    let r = run(&f, "cat x.txt");
    assert_eq!(text(&r.stdout), "x\n");
    let name = ContainerRunInfo::of(&r).unwrap().name;
    // Remove it behind the backend's back.
    let status = std::process::Command::new("podman")
        .args(["rm", "-f", &name])
        .env(
            "CONTAINER_HOST",
            std::env::var("DOCKER_HOST").unwrap_or_default(),
        )
        .output();
    match status {
        Ok(o) if o.status.success() => {}
        _ => {
            eprintln!("\n!!!!!!!! podman CLI unavailable: not removing the container by hand\n");
            return;
        }
    }
    let r = run(&f, "cat x.txt");
    assert_eq!(r.exit_code, 0, "stderr: {}", text(&r.stderr));
    assert_eq!(text(&r.stdout), "x\n");
    assert!(
        ContainerRunInfo::of(&r).unwrap().created,
        "a new container was made"
    );
}

#[test]
fn an_idle_container_removes_itself() {
    let Some(f) = fixture_with("an_idle_container_removes_itself", |c| {
        c.idle_timeout = Duration::from_secs(1);
    }) else {
        return;
    };
    let r = run(&f, "true");
    assert_eq!(r.exit_code, 0, "stderr: {}", text(&r.stderr));
    // Poll (not time) until it is gone: the watchdog sees no heartbeat.
    let mut gone = false;
    for _ in 0..600 {
        if f.backend.status(&f.ws).container.is_none() {
            gone = true;
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(gone, "the idle container was not removed");
    // And the next exec brings it back.
    let r = run(&f, "echo back");
    assert_eq!(text(&r.stdout), "back\n", "stderr: {}", text(&r.stderr));
    assert!(ContainerRunInfo::of(&r).unwrap().created);
}

#[test]
fn workspace_changes_between_execs_reach_the_container_and_a_new_process() {
    let Some(f) = fixture("workspace_changes_between_execs_reach_the_container_and_a_new_process")
    else {
        return;
    };
    for i in 0..40 {
        write(&f.ws, &format!("/files/f{i}.txt"), &format!("{i}\n"));
    }
    write(&f.ws, "/other/o.txt", "o\n");
    let first = run(&f, "true");
    assert_eq!(
        first.sync().unwrap().pushed,
        43,
        "stderr: {}",
        text(&first.stderr)
    );

    // What an agent does between two container execs.
    f.ws.rename("/files", "/moved").unwrap();
    f.ws.rm("/moved/f3.txt", Default::default()).unwrap();
    write(&f.ws, "/moved/new.txt", "new\n");
    f.ws.chmod("/moved/f4.txt", 0o600).unwrap();
    f.ws.symlink("moved/new.txt", "/link").unwrap();
    let r = run(
        &f,
        "ls files 2>&1 | head -1; ls moved | wc -l; cat link; stat -c %a moved/f4.txt; ls other",
    );
    assert_eq!(r.exit_code, 0, "stderr: {}", text(&r.stderr));
    let out = text(&r.stdout);
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].contains("No such file"), "{out}");
    assert_eq!(&lines[1..], ["40", "new", "600", "o.txt"], "{out}");

    // Another process (a new backend, nothing in memory) reads the manifest
    // from its snapshot and log, and finds nothing left to copy.
    let again = ContainerBackend::new(config(f.dir.path())).expect("backend");
    let h = again
        .exec(f.ws.clone(), "cat moved/new.txt", opts())
        .unwrap();
    let r = h.wait();
    assert_eq!(text(&r.stdout), "new\n", "stderr: {}", text(&r.stderr));
    assert_eq!((r.sync().unwrap().pushed, r.sync().unwrap().pulled), (0, 0));
    assert_eq!(again.status(&f.ws).synced_entries, 44);
}

#[test]
fn stop_removes_the_container_and_the_copy() {
    let Some(f) = fixture("stop_removes_the_container_and_the_copy") else {
        return;
    };
    write(&f.ws, "/x.txt", "x\n");
    run(&f, "true");
    let status = f.backend.status(&f.ws);
    assert!(status.container.is_some());
    assert_eq!(status.synced_entries, 1);
    let stopped = f.backend.stop(&f.ws).unwrap();
    assert!(stopped.removed && stopped.copy_removed);
    let status = f.backend.status(&f.ws);
    assert!(status.container.is_none());
    assert!(!std::path::Path::new(&status.copy_dir).exists());
    // The workspace itself is untouched, and a new exec starts cold.
    assert_eq!(f.ws.read("/x.txt").unwrap(), b"x\n");
    let r = run(&f, "cat x.txt");
    assert_eq!(
        (text(&r.stdout).as_str(), r.sync().unwrap().pushed),
        ("x\n", 1)
    );
}

#[test]
fn auto_falls_back_to_the_container_on_command_not_found() {
    let Some(f) = fixture("auto_falls_back_to_the_container_on_command_not_found") else {
        return;
    };
    let Some(rt) = shell_runtime() else {
        return;
    };
    computer_container::register(&rt, f.backend.clone()).expect("register");
    let auto = |script: &str| {
        let options = ExecOptions {
            backend: computer_container::AUTO_BACKEND.into(),
            limits: Some(rt.default_limits(SHELL_BACKEND).expect("shell limits")),
            ..ExecOptions::default()
        };
        rt.exec(f.ws.clone(), script, options)
            .expect("auto exec")
            .wait()
    };
    // The shell has this.
    let r = auto("echo in the shell");
    assert_eq!((r.backend.as_str(), r.exit_code), ("shell", 0));
    assert!(r.extras.fallback.is_none());
    // The shell does not have `dc`; the container (busybox) does.
    let r = auto("dc -e '6 7 * p' && pwd");
    assert_eq!(r.backend, "container", "stderr: {}", text(&r.stderr));
    assert_eq!(r.exit_code, 0, "stderr: {}", text(&r.stderr));
    assert_eq!(text(&r.stdout), "42\n/workspace\n");
    assert_eq!(r.extras.fallback.as_ref().unwrap().exit_code, 127);
    let fallback = r.extras.fallback.as_ref().unwrap();
    assert_eq!(fallback.from, "shell");
    assert_eq!(
        f.ws.runs()
            .get(&fallback.run_id)
            .unwrap()
            .unwrap()
            .exit_code,
        Some(127)
    );
    // A script that wrote to the workspace first is not run twice.
    let r = auto("echo once >> /log.txt; dc -e '1 p'");
    assert_eq!((r.backend.as_str(), r.exit_code), ("shell", 127));
    assert_eq!(f.ws.read("/log.txt").unwrap(), b"once\n");
}
