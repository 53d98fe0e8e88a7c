//! Files, deletes, renames and modes synced both ways; an exec that changed nothing; a symlink escape.

use super::*;

#[test]
fn files_written_by_the_shell_are_seen_in_the_container_and_back() {
    let Some(f) = fixture("files_written_by_the_shell_are_seen_in_the_container_and_back") else {
        return;
    };
    let rt = shell_runtime();
    match &rt {
        Some(rt) => {
            let (code, _) = shell(
                rt,
                &f.ws,
                "mkdir -p /src && printf 'from the shell\\n' > /src/note.txt && chmod 755 /src/note.txt",
            );
            assert_eq!(code, 0);
        }
        None => {
            write(&f.ws, "/src/note.txt", "from the shell\n");
            f.ws.chmod("/src/note.txt", 0o755).unwrap();
        }
    }

    let r = run(
        &f,
        "cat src/note.txt; stat -c %a src/note.txt; pwd; id -u; \
         mkdir -p out/deep && echo 'from the container' > out/deep/made.txt && ln -s deep/made.txt out/link",
    );
    assert_eq!(r.exit_code, 0, "stderr: {}", text(&r.stderr));
    assert_eq!(r.status, RunStatus::Completed);
    assert_eq!(r.backend, "container");
    let out = text(&r.stdout);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "from the shell");
    assert_eq!(lines[1], "755");
    assert_eq!(lines[2], "/workspace");
    assert_ne!(lines[3], "0", "commands must not run as root");
    assert!(
        r.sync().unwrap().pushed >= 2,
        "pushed {}",
        r.sync().unwrap().pushed
    );
    assert!(
        r.sync().unwrap().pulled >= 3,
        "pulled {}",
        r.sync().unwrap().pulled
    );

    assert_eq!(
        f.ws.read("/out/deep/made.txt").unwrap(),
        b"from the container\n"
    );
    assert_eq!(f.ws.readlink("/out/link").unwrap(), "deep/made.txt");
    if let Some(rt) = &rt {
        let (code, out) = shell(rt, &f.ws, "cat /out/link");
        assert_eq!(code, 0);
        assert_eq!(out, "from the container\n");
    }
    let info = ContainerRunInfo::of(&r).expect("container info");
    assert!(info.created, "the first exec creates the container");

    // The run is recorded like any other.
    let rec = f.ws.runs().get(&r.run_id).unwrap().expect("run record");
    assert_eq!(rec.backend, "container");
    assert_eq!(rec.status, RunStatus::Completed);
    assert_eq!(rec.exit_code, Some(0));
}

#[test]
fn deletes_renames_and_modes_sync_back() {
    let Some(f) = fixture("deletes_renames_and_modes_sync_back") else {
        return;
    };
    write(&f.ws, "/a.txt", "a\n");
    write(&f.ws, "/b.txt", "bee\n");
    write(&f.ws, "/dir/x", "x\n");
    write(&f.ws, "/dir/sub/y", "y\n");
    write(&f.ws, "/keep.txt", "keep\n");
    write(&f.ws, "/edit.txt", "old\n");
    let r = run(&f, "true");
    assert_eq!(r.exit_code, 0, "stderr: {}", text(&r.stderr));
    let dir_ino = f.ws.stat("/dir").unwrap().ino;

    let r = run(
        &f,
        "rm a.txt && mv b.txt c.txt && chmod 700 c.txt && mv dir moved && rm moved/sub/y \
         && echo new > edit.txt && mkdir empty && chmod 750 empty",
    );
    assert_eq!(r.exit_code, 0, "stderr: {}", text(&r.stderr));
    assert!(!f.ws.exists("/a.txt").unwrap());
    assert!(!f.ws.exists("/b.txt").unwrap());
    assert!(!f.ws.exists("/dir").unwrap());
    assert_eq!(f.ws.read("/c.txt").unwrap(), b"bee\n");
    assert_eq!(f.ws.stat("/c.txt").unwrap().mode, 0o700);
    assert_eq!(f.ws.read("/moved/x").unwrap(), b"x\n");
    assert!(f.ws.exists("/moved/sub").unwrap());
    assert!(!f.ws.exists("/moved/sub/y").unwrap());
    assert_eq!(f.ws.read("/edit.txt").unwrap(), b"new\n");
    assert_eq!(f.ws.read("/keep.txt").unwrap(), b"keep\n");
    let empty = f.ws.stat("/empty").unwrap();
    assert_eq!((empty.kind, empty.mode), (NodeKind::Directory, 0o750));
    // The directory was renamed, not copied.
    assert_eq!(f.ws.stat("/moved").unwrap().ino, dir_ino);

    // And the other way: what the workspace deletes and renames is gone
    // from the container.
    f.ws.rm("/keep.txt", Default::default()).unwrap();
    f.ws.rename("/moved", "/again").unwrap();
    let r = run(&f, "ls; cat again/x");
    assert_eq!(r.exit_code, 0, "stderr: {}", text(&r.stderr));
    let out = text(&r.stdout);
    assert!(!out.contains("keep.txt") && !out.contains("moved"), "{out}");
    assert!(out.contains("again") && out.ends_with("x\n"), "{out}");
}

#[test]
fn an_exec_with_nothing_changed_copies_nothing() {
    let Some(f) = fixture("an_exec_with_nothing_changed_copies_nothing") else {
        return;
    };
    for i in 0..50 {
        write(&f.ws, &format!("/files/f{i}.txt"), &format!("{i}\n"));
    }
    let first = run(&f, "true");
    assert_eq!(first.exit_code, 0, "stderr: {}", text(&first.stderr));
    assert_eq!(first.sync().unwrap().pushed, 51);
    let second = run(&f, "true");
    assert_eq!(
        (second.sync().unwrap().pushed, second.sync().unwrap().pulled),
        (0, 0)
    );
    assert!(
        !ContainerRunInfo::of(&second).unwrap().created,
        "the container is reused"
    );

    write(&f.ws, "/files/f7.txt", "changed\n");
    let third = run(&f, "cat files/f7.txt");
    assert_eq!(
        (third.sync().unwrap().pushed, third.sync().unwrap().pulled),
        (1, 0)
    );
    assert_eq!(text(&third.stdout), "changed\n");

    // A file touched but not changed is not pulled.
    let fourth = run(&f, "touch files/f8.txt");
    assert_eq!(fourth.sync().unwrap().pulled, 0);
}

#[test]
fn a_symlink_escape_attempt_is_contained() {
    let Some(f) = fixture("a_symlink_escape_attempt_is_contained") else {
        return;
    };
    // A host file outside the synced copy, and where it lives.
    let outside = f.dir.path().join("outside");
    std::fs::create_dir(&outside).unwrap();
    let secret = outside.join("secret.txt");
    std::fs::write(&secret, "host secret\n").unwrap();
    let secret_abs = secret.display().to_string();
    let ups = "../".repeat(30);
    let rel = format!("{ups}{}", secret_abs.trim_start_matches('/'));
    let rel_dir = format!(
        "{ups}{}",
        outside.display().to_string().trim_start_matches('/')
    );

    write(&f.ws, "/victim.txt", "v\n");
    let script = format!(
        "ln -s '{secret_abs}' abs && ln -s '{rel}' rel && ln -s '{rel_dir}' reldir && ln -s / root \
         && rm victim.txt && ln -s '{secret_abs}' victim.txt && mkfifo pipe"
    );
    let r = run(&f, &script);
    assert_eq!(r.exit_code, 0, "stderr: {}", text(&r.stderr));

    // Links came back as links, their targets verbatim; nothing was read
    // through them.
    assert_eq!(f.ws.readlink("/abs").unwrap(), secret_abs);
    assert_eq!(f.ws.readlink("/rel").unwrap(), rel);
    assert_eq!(f.ws.readlink("/victim.txt").unwrap(), secret_abs);
    assert_eq!(f.ws.readlink("/root").unwrap(), "/");
    for p in ["/abs", "/rel", "/victim.txt"] {
        if let Ok(data) = f.ws.read(p) {
            assert_ne!(data, b"host secret\n", "{p} leaked the host file");
        }
    }
    // The fifo is reported, not synced.
    assert!(!f.ws.exists("/pipe").unwrap());
    assert!(
        r.sync()
            .unwrap()
            .skipped_paths
            .iter()
            .any(|s| s.contains("/pipe") && s.contains("special file")),
        "{:?}",
        r.sync().unwrap().skipped_paths
    );

    // Writing through the links from the workspace side lands in the
    // workspace, and the next push writes only inside the copy.
    f.ws.write(
        "/victim.txt",
        b"overwritten\n",
        &WriteOptions {
            create_parents: true,
            ..Default::default()
        },
    )
    .unwrap_or(());
    let _ = f.ws.write(
        "/reldir/planted.txt",
        b"planted\n",
        &WriteOptions {
            create_parents: true,
            ..Default::default()
        },
    );
    let r = run(
        &f,
        "cat abs rel 2>&1; echo pwned > abs 2>&1; echo pwned > reldir/x 2>&1; true",
    );
    assert_eq!(r.exit_code, 0, "stderr: {}", text(&r.stderr));
    assert!(
        !text(&r.stdout).contains("host secret"),
        "{}",
        text(&r.stdout)
    );
    assert_eq!(std::fs::read_to_string(&secret).unwrap(), "host secret\n");
    let mut names: Vec<String> = std::fs::read_dir(&outside)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        vec!["secret.txt"],
        "nothing may appear outside the copy"
    );
}
