//! Changes in the container pulled through the change watch, and the fallbacks to a full scan.

use super::*;

/// What the changes script below leaves, checked in the workspace.
fn assert_changes_pulled(f: &Fixture, r: &RunResult, dir_ino: u64) {
    assert_eq!(r.exit_code, 0, "stderr: {}", text(&r.stderr));
    assert!(!f.ws.exists("/a.txt").unwrap());
    assert!(!f.ws.exists("/b.txt").unwrap());
    assert_eq!(f.ws.read("/c.txt").unwrap(), b"bee\n");
    assert_eq!(f.ws.stat("/c.txt").unwrap().mode, 0o700);
    assert_eq!(f.ws.read("/new.txt").unwrap(), b"new\n");
    assert_eq!(f.ws.read("/edit.txt").unwrap(), b"edited\n");
    assert_eq!(f.ws.read("/moved/x").unwrap(), b"x\n");
    assert_eq!(f.ws.read("/moved/sub/later").unwrap(), b"later\n");
    assert!(!f.ws.exists("/moved/sub/y").unwrap());
    assert!(!f.ws.exists("/dir").unwrap());
    assert_eq!(
        f.ws.stat("/moved").unwrap().ino,
        dir_ino,
        "renamed, not copied"
    );
    assert!(!f.ws.exists("/gone").unwrap());
    assert_eq!(f.ws.read("/made/deep/f").unwrap(), b"f\n");
    assert_eq!(f.ws.stat("/made/deep").unwrap().mode, 0o750);
    assert_eq!(f.ws.readlink("/made/abs").unwrap(), "/new.txt");
    assert_eq!(f.ws.readlink("/rel").unwrap(), "moved/x");
    assert!(!f.ws.exists("/fifo").unwrap());
    assert!(
        r.sync()
            .unwrap()
            .skipped_paths
            .iter()
            .any(|s| s.contains("/fifo") && s.contains("special file")),
        "{:?}",
        r.sync().unwrap().skipped_paths
    );
}

const CHANGES: &str = "echo new > new.txt && echo edited > edit.txt && rm a.txt \
    && mv b.txt c.txt && chmod 700 c.txt && mv dir moved && echo later > moved/sub/later \
    && rm moved/sub/y \
    && rm -r gone && mkdir -p made/deep && echo f > made/deep/f && chmod 750 made/deep \
    && ln -s /workspace/new.txt made/abs && ln -s moved/x rel && mkfifo fifo";

fn seed(f: &Fixture) -> u64 {
    for (p, d) in [
        ("/a.txt", "a\n"),
        ("/b.txt", "bee\n"),
        ("/edit.txt", "old\n"),
        ("/dir/x", "x\n"),
        ("/dir/sub/y", "y\n"),
        ("/gone/z", "z\n"),
    ] {
        write(&f.ws, p, d);
    }
    // The first exec of a copy does not watch it (a one-shot process
    // would never use the watch); the second starts the watch, and its
    // pull still scans everything.
    for _ in 0..2 {
        let r = run(f, "true");
        assert_eq!(r.exit_code, 0, "stderr: {}", text(&r.stderr));
        assert!(!r.sync().unwrap().timings.unwrap().watched);
    }
    f.ws.stat("/dir").unwrap().ino
}

#[test]
fn changes_in_the_container_are_pulled_through_the_change_watch() {
    let Some(f) = fixture("changes_in_the_container_are_pulled_through_the_change_watch") else {
        return;
    };
    let dir_ino = seed(&f);
    let r = run(&f, CHANGES);
    assert!(
        r.sync().unwrap().timings.unwrap().watched,
        "the pull used the change watch"
    );
    assert_changes_pulled(&f, &r, dir_ino);

    // Directories made or moved by the last run are watched too, and the
    // fifo is reported again.
    let r = run(
        &f,
        "echo more > made/deep/more && echo y2 > moved/sub/y && chmod 600 moved/x",
    );
    assert!(r.sync().unwrap().timings.unwrap().watched);
    assert_eq!(r.exit_code, 0, "stderr: {}", text(&r.stderr));
    assert_eq!(r.sync().unwrap().pulled, 3, "{r:?}");
    assert_eq!(f.ws.read("/made/deep/more").unwrap(), b"more\n");
    assert_eq!(f.ws.read("/moved/sub/y").unwrap(), b"y2\n");
    assert_eq!(f.ws.stat("/moved/x").unwrap().mode, 0o600);
    assert_eq!(
        r.sync().unwrap().skipped,
        1,
        "{:?}",
        r.sync().unwrap().skipped_paths
    );

    // A push of workspace changes, then the container changes the pushed
    // entries.
    write(&f.ws, "/pushed/p", "p\n");
    let r = run(&f, "cat pushed/p && echo q > pushed/q && rm fifo");
    assert!(r.sync().unwrap().timings.unwrap().watched);
    assert_eq!(text(&r.stdout), "p\n");
    assert_eq!(f.ws.read("/pushed/q").unwrap(), b"q\n");
    assert_eq!(
        r.sync().unwrap().skipped,
        0,
        "{:?}",
        r.sync().unwrap().skipped_paths
    );

    // Nothing changed: nothing pulled.
    let r = run(&f, "true");
    assert!(r.sync().unwrap().timings.unwrap().watched);
    assert_eq!(
        (
            r.sync().unwrap().pushed,
            r.sync().unwrap().pulled,
            r.sync().unwrap().skipped
        ),
        (0, 0, 0)
    );
}

#[test]
fn a_broken_change_watch_falls_back_to_the_full_scan() {
    let Some(f) = fixture("a_broken_change_watch_falls_back_to_the_full_scan") else {
        return;
    };
    let dir_ino = seed(&f);
    // As if the event queue overflowed during the run.
    f.backend.break_change_watch();
    let r = run(&f, CHANGES);
    assert!(
        !r.sync().unwrap().timings.unwrap().watched,
        "the pull scanned the copy"
    );
    assert_changes_pulled(&f, &r, dir_ino);

    // The watch is set up again; the pull after that uses it.
    let r = run(&f, "echo again > again.txt");
    assert_eq!(r.exit_code, 0, "stderr: {}", text(&r.stderr));
    assert_eq!(f.ws.read("/again.txt").unwrap(), b"again\n");
    let r2 = run(&f, "echo twice > again.txt");
    assert!(
        !r.sync().unwrap().timings.unwrap().watched,
        "set up again: {r:?}"
    );
    assert!(r2.sync().unwrap().timings.unwrap().watched, "{r2:?}");
    assert_eq!(f.ws.read("/again.txt").unwrap(), b"twice\n");
}

#[test]
fn an_event_queue_overflow_falls_back_to_the_full_scan() {
    let Some(f) = fixture("an_event_queue_overflow_falls_back_to_the_full_scan") else {
        return;
    };
    write(&f.ws, "/many/.keep", "");
    for _ in 0..2 {
        let r = run(&f, "true");
        assert_eq!(r.exit_code, 0, "stderr: {}", text(&r.stderr));
    }
    // Two events per file (create, close after writing): more than the
    // kernel queues (fs.inotify.max_queued_events, 16384 by default).
    let queue: usize = std::fs::read_to_string("/proc/sys/fs/inotify/max_queued_events")
        .ok()
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(16384);
    let n = queue / 2 + 2000;
    let r = run(
        &f,
        &format!("cd many && seq 1 {n} | sed 's/^/f/' | xargs touch && echo done > ../done.txt"),
    );
    assert_eq!(r.exit_code, 0, "stderr: {}", text(&r.stderr));
    assert!(
        !r.sync().unwrap().timings.unwrap().watched,
        "the queue overflowed: full scan"
    );
    assert_eq!(r.sync().unwrap().pulled as usize, n + 1);
    assert_eq!(
        f.ws.readdir("/many", Page::all()).unwrap().len(),
        n + 1,
        "every file came back"
    );
    assert_eq!(f.ws.read("/done.txt").unwrap(), b"done\n");
}
