//! Adversarial scripts end cleanly within the run's limits.

use super::*;

// ------------------------------------------------------------ adversarial

#[test]
fn fork_bomb_ends_within_the_limits() {
    let ws = empty_workspace();
    let script = ":(){ :|:& };:";
    let limits = shell_defaults();
    let stderr_cap = limits.stderr_bytes;
    let r = run(&ws, script, limits);
    let shown = show(script, &r);
    match r.status {
        // Ended by the shell: its function depth limit, or the output limit
        // on the flood of depth errors.
        RunStatus::Failed => {
            assert_eq!(r.exit_code, 1, "{shown}");
            assert!(
                text(&r).1.contains("maximum function depth exceeded (16)"),
                "{shown}"
            );
        }
        // Ended by the host's timeout.
        RunStatus::TimedOut => assert_eq!(r.exit_code, 124, "{shown}"),
        other => panic!("unexpected end {other:?}\n{shown}"),
    }
    assert_eq!(r.stdout, b"", "{shown}");
    // Whatever it printed stays within the cap (plus the host's marker, which names the kept file).
    assert!(r.stderr.len() <= stderr_cap + 300, "{shown}");
    assert_empty(&ws, "the fork bomb");
}

#[test]
fn endless_loop_times_out_with_124() {
    let ws = empty_workspace();
    let script = "while true; do :; done";
    let r = run(&ws, script, limits_with_timeout(Duration::from_secs(2)));
    let shown = show(script, &r);
    assert_eq!(
        (r.status, r.exit_code),
        (RunStatus::TimedOut, 124),
        "{shown}"
    );
    assert!(
        r.error.as_deref().is_some_and(|e| e.contains("timed out")),
        "{shown}"
    );
    assert_eq!(r.stdout, b"", "{shown}");
    assert_empty(&ws, "the endless loop");
}

/// `yes | head -c 10G > /f` on a workspace whose files may grow to
/// `max_file_size`: the run must end within its limits (time, memory, or the
/// file-size cap), and the workspace must hold at most `/f`, a prefix of
/// `y\n` repeated.
fn yes_into_file(max_file_size: u64) -> (RunResult, Option<Vec<u8>>) {
    let dir = tempfile::tempdir().expect("temp dir");
    let ws = Arc::new(
        Workspace::open_with(
            dir.path().join("ws.db"),
            Config {
                max_file_size,
                ..Config::default()
            },
        )
        .expect("workspace"),
    );
    let script = "yes | head -c 10G > /f";
    let r = run(&ws, script, limits_with_timeout(Duration::from_secs(30)));
    let shown = show(script, &r);
    match r.status {
        RunStatus::Completed | RunStatus::Failed | RunStatus::TimedOut => {}
        other => panic!("unexpected end {other:?}\n{shown}"),
    }
    if r.status == RunStatus::TimedOut {
        assert_eq!(r.exit_code, 124, "{shown}");
    }
    let t = tree(&ws);
    let others: Vec<&String> = t.keys().filter(|p| *p != "/f").collect();
    assert!(others.is_empty(), "unexpected paths {others:?}\n{shown}");
    let f = t.get("/f").map(|kind| {
        assert_eq!(*kind, NodeKind::File, "{shown}");
        ws.read("/f").expect("reading /f")
    });
    if let Some(data) = &f {
        assert!(
            data.len() as u64 <= max_file_size,
            "/f has {} bytes, over the {max_file_size}-byte cap\n{shown}",
            data.len()
        );
        assert!(
            is_repeat_prefix(data, b"y\n"),
            "/f is not `y\\n` repeated\n{shown}"
        );
    }
    assert_eq!(r.stdout, b"", "{shown}");
    (r, f)
}

#[test]
fn yes_into_head_10g_ends_and_leaves_only_what_was_written() {
    let (r, f) = yes_into_file(computer_store::DEFAULT_MAX_FILE_SIZE);
    let shown = show("yes | head -c 10G > /f", &r);
    match (r.status, &f) {
        // Ended by `yes`'s own cap: /f holds all head passed on.
        (RunStatus::Completed, Some(data)) => assert!(!data.is_empty(), "{shown}"),
        (RunStatus::Completed, None) => panic!("completed without creating /f\n{shown}"),
        (RunStatus::Failed, _) => assert!(
            r.error.as_deref().is_some_and(|e| e.contains("memory"))
                || text(&r).1.contains("File too large"),
            "failed for another reason than a limit\n{shown}"
        ),
        _ => {}
    }
}

#[test]
fn yes_into_head_10g_stops_at_the_file_size_cap() {
    // `yes_into_file` checked that any /f left is a prefix under the cap.
    let (r, _) = yes_into_file(4096);
    let shown = show("yes | head -c 10G > /f", &r);
    assert_eq!((r.status, r.exit_code), (RunStatus::Failed, 1), "{shown}");
    assert!(
        text(&r).1.contains("/f: File too large"),
        "no EFBIG message\n{shown}"
    );
}

#[test]
fn stdout_flood_is_capped_with_the_marker_and_ends() {
    let cap = 4096;
    for (script, unit) in [
        ("yes", b"y\n".to_vec()),
        (
            // An endless flood that does not rely on `yes`'s own cap.
            "line=$(printf '%0500d' 0); while :; do echo \"$line\"; done",
            [vec![b'0'; 500], b"\n".to_vec()].concat(),
        ),
    ] {
        let ws = empty_workspace();
        let limits = Limits {
            // The guest's own budget follows the larger of the two caps.
            stdout_bytes: cap,
            stderr_bytes: cap,
            timeout: Duration::from_secs(30),
            ..shell_defaults()
        };
        let r = run(&ws, script, limits);
        let shown = show(script, &r);
        let (kept, dropped) = split_marker(&r.stdout, cap);
        assert_eq!(kept.len(), cap, "{shown}");
        assert!(dropped > 0, "{shown}");
        assert!(is_repeat_prefix(kept, &unit), "{shown}");
        // The guest stopped the script at its own output budget.
        assert_eq!((r.status, r.exit_code), (RunStatus::Failed, 1), "{shown}");
        assert!(
            text(&r).1.contains("output limit exceeded"),
            "no output-limit message\n{shown}"
        );
        assert_empty(&ws, script);
    }
}

#[test]
fn deep_recursion_stops_at_the_function_depth_limit() {
    let ws = empty_workspace();
    let script = "f(){ f; }; f";
    let r = run(&ws, script, shell_defaults());
    let shown = show(script, &r);
    assert_eq!((r.status, r.exit_code), (RunStatus::Failed, 1), "{shown}");
    assert!(
        text(&r).1.contains("maximum function depth exceeded"),
        "{shown}"
    );

    // A lowered limit is the depth reached, and the message names the knob.
    let depth = 5u64;
    let script = "f(){ echo $1; f $(( $1 + 1 )); }; f 1";
    let mut limits = shell_defaults();
    limits.shell.max_function_depth = depth;
    let r = run(&ws, script, limits);
    let shown = show(script, &r);
    let expected: String = (1..=depth).map(|i| format!("{i}\n")).collect();
    assert_eq!(text(&r).0, expected, "{shown}");
    assert_eq!(r.exit_code, 1, "{shown}");
    assert!(
        text(&r).1.contains("COMPUTER_SHELL_MAX_FUNCTION_DEPTH"),
        "{shown}"
    );
    assert_empty(&ws, "recursion");
}

#[test]
fn memory_growth_ends_at_the_memory_limit() {
    let ws = empty_workspace();
    let script = "s=x; while :; do s=\"$s$s\"; done";
    let limits = Limits {
        memory_bytes: 64 << 20,
        timeout: Duration::from_secs(30),
        ..shell_defaults()
    };
    let r = run(&ws, script, limits);
    let shown = show(script, &r);
    assert_eq!(r.status, RunStatus::Failed, "{shown}");
    assert_ne!(r.exit_code, 0, "{shown}");
    assert!(
        r.error
            .as_deref()
            .is_some_and(|e| e.contains("memory limit exceeded")),
        "{shown}"
    );
    assert_empty(&ws, "memory growth");
}
