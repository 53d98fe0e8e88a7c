//! Limits: timeouts, memory, output caps, value size and deep recursion.

use super::*;

// ------------------------------------------------------------ limits

#[test]
fn an_infinite_loop_times_out_with_124() {
    let rt = runtime();
    let ws = workspace();
    let r = exec(
        &rt,
        &ws,
        "console.log('spinning'); while (true) {}",
        ExecOptions {
            limits: Some(limits(Duration::from_millis(300))),
            ..js()
        },
    );
    assert_eq!(r.status, RunStatus::TimedOut, "{}", describe(&r));
    assert_eq!(r.exit_code, 124);
    assert_eq!(s(&r.stdout), "spinning\n");
    let error = r.error.clone().expect("a timed-out run carries an error");
    assert!(error.contains("timed out"), "{error}");
    assert!(
        s(&r.stderr).ends_with(&format!("computer: {error}\n")),
        "{}",
        describe(&r)
    );
    assert!(
        r.duration >= Duration::from_millis(300),
        "stopped before its timeout: {:?}",
        r.duration
    );
    let rec = ws.runs().get(&r.run_id).unwrap().expect("recorded");
    assert_eq!(rec.status, RunStatus::TimedOut);
    assert_eq!(rec.exit_code, Some(124));
    assert_eq!(rec.error.as_deref(), Some(error.as_str()));
}

#[test]
fn a_pending_timer_times_out_with_124() {
    let r = exec(
        &runtime(),
        &workspace(),
        "setTimeout(() => console.log('fired'), 1e9);",
        ExecOptions {
            limits: Some(limits(Duration::from_millis(300))),
            ..js()
        },
    );
    assert_eq!(r.status, RunStatus::TimedOut, "{}", describe(&r));
    assert_eq!(r.exit_code, 124);
    assert_eq!(s(&r.stdout), "");
}

#[test]
fn a_chain_of_timers_times_out_with_124() {
    // Many timers in a row, each sleeping: the timeout still lands.
    let r = exec(
        &runtime(),
        &workspace(),
        "for (;;) await new Promise((r) => setTimeout(r, 50));",
        ExecOptions {
            limits: Some(limits(Duration::from_millis(300))),
            ..js()
        },
    );
    assert_eq!(r.status, RunStatus::TimedOut, "{}", describe(&r));
    assert_eq!(r.exit_code, 124);
}

#[test]
fn a_memory_bomb_fails_with_memory_limit_exceeded() {
    let rt = runtime();
    let r = exec(
        &rt,
        &workspace(),
        "const keep = [];\n\
         for (let i = 0; ; i++) keep.push('x'.repeat(1 << 20) + i);",
        ExecOptions {
            limits: Some(Limits {
                memory_bytes: 32 << 20,
                ..limits(LONG)
            }),
            ..js()
        },
    );
    assert_eq!(r.status, RunStatus::Failed, "{}", describe(&r));
    assert_eq!(r.exit_code, 1);
    let error = r.error.clone().expect("the host explains the failure");
    // A library caller is told the field that raises it.
    assert_eq!(
        error,
        "memory limit exceeded (32 MiB); raise it with Limits::memory_bytes"
    );
    assert!(
        s(&r.stderr).contains("memory limit exceeded"),
        "{}",
        describe(&r)
    );
    // The runtime is still usable afterwards.
    let again = exec(&rt, &workspace(), "console.log('fine')", js());
    assert_eq!(s(&again.stdout), "fine\n", "{}", describe(&again));
}

#[test]
fn a_single_huge_allocation_fails_with_memory_limit_exceeded() {
    let r = exec(
        &runtime(),
        &workspace(),
        "const b = new Uint8Array(64 << 20); b[b.length - 1] = 1; console.log(b.length);",
        ExecOptions {
            limits: Some(Limits {
                memory_bytes: 32 << 20,
                ..limits(LONG)
            }),
            ..js()
        },
    );
    assert_eq!(r.status, RunStatus::Failed, "{}", describe(&r));
    assert_eq!(r.exit_code, 1);
    assert_eq!(s(&r.stdout), "");
    assert!(
        r.error
            .as_deref()
            .is_some_and(|e| e.contains("memory limit exceeded")),
        "{}",
        describe(&r)
    );
}

#[test]
fn memory_under_the_limit_is_fine() {
    let r = exec(
        &runtime(),
        &workspace(),
        "const b = new Uint8Array(16 << 20); b[b.length - 1] = 7; console.log(b[b.length - 1]);",
        ExecOptions {
            limits: Some(Limits {
                memory_bytes: 64 << 20,
                ..limits(LONG)
            }),
            ..js()
        },
    );
    assert_eq!(r.status, RunStatus::Completed, "{}", describe(&r));
    assert_eq!(s(&r.stdout), "7\n");
}

#[test]
fn a_run_may_raise_the_memory_limit_above_the_runtime_default() {
    // The runtime's default is 256 MiB; this run asks for 512 MiB and uses
    // 300 MiB.
    let r = exec(
        &runtime(),
        &workspace(),
        "const b = new Uint8Array(300 << 20); b[b.length - 1] = 7; console.log(b[b.length - 1]);",
        ExecOptions {
            limits: Some(Limits {
                memory_bytes: 512 << 20,
                ..limits(LONG)
            }),
            ..js()
        },
    );
    assert_eq!(r.status, RunStatus::Completed, "{}", describe(&r));
    assert_eq!(s(&r.stdout), "7\n");
}

const MARKER: &str = "[output truncated:";

#[test]
fn a_finite_output_flood_is_truncated_with_a_marker() {
    let cap = 64 << 10;
    let line = "x".repeat(1023); // 1 KiB with the newline
    let lines = 5 * 1024; // 5 MiB in all
    let rt = runtime();
    let ws = workspace();
    let handle = rt
        .exec(
            ws.clone(),
            &format!("const line = {line:?}; for (let i = 0; i < {lines}; i++) console.log(line);"),
            ExecOptions {
                limits: Some(Limits {
                    stdout_bytes: cap,
                    ..limits(LONG)
                }),
                ..js()
            },
        )
        .expect("exec");
    let (events, r) = finish(handle);
    assert_eq!(r.status, RunStatus::Completed, "{}", describe(&r));
    assert_eq!(r.exit_code, 0);
    let total = lines * 1024;
    let mut expected = format!("{line}\n").repeat(cap / 1024).into_bytes();
    let kept = format!("/.computer/output/{}.stdout", r.run_id);
    expected.extend_from_slice(
        format!(
            "\n{MARKER} {} more bytes over the {cap}-byte limit; all of it is in {kept} (read it in ranges)]\n",
            total - cap
        )
        .as_bytes(),
    );
    assert_eq!(s(&r.stdout), s(&expected));
    // The whole stream is in the workspace, to page through.
    let whole = ws.read(&kept).expect("the kept stream");
    assert_eq!(whole.len(), total);
    assert_eq!(s(&whole), format!("{line}\n").repeat(lines));
    // What was streamed is what was kept.
    let streamed: Vec<u8> = events
        .iter()
        .filter_map(|e| match e {
            Event::Stdout(b) => Some(b.clone()),
            _ => None,
        })
        .flatten()
        .collect();
    assert_eq!(s(&streamed), s(&r.stdout));
    let rec = ws.runs().get(&r.run_id).unwrap().expect("recorded");
    assert_eq!(rec.stdout, r.stdout);
}

#[test]
fn an_endless_output_flood_is_capped_and_stopped() {
    let cap = 64 << 10;
    let ws = workspace();
    let r = exec(
        &runtime(),
        &ws,
        "while (true) console.log('x'.repeat(1000));",
        ExecOptions {
            limits: Some(Limits {
                stdout_bytes: cap,
                ..limits(Duration::from_secs(60))
            }),
            ..js()
        },
    );
    // Stopped once it has dropped far more than the cap, not at the timeout.
    assert_eq!(r.status, RunStatus::Failed, "{}", describe(&r.clone()));
    assert_eq!(r.exit_code, 1);
    let error = r.error.clone().unwrap_or_default();
    assert!(error.starts_with("output limit exceeded"), "{error}");
    let out = s(&r.stdout);
    let cut = out
        .find(&format!("\n{MARKER} "))
        .unwrap_or_else(|| panic!("no marker in {} bytes of stdout", out.len()));
    assert_eq!(cut, cap, "kept bytes before the marker");
    assert!(out[..cut].bytes().all(|b| b == b'x' || b == b'\n'));
    let kept = format!("/.computer/output/{}.stdout", r.run_id);
    assert!(
        out[cut..].ends_with(&format!(
            "-byte limit; all of it is in {kept} (read it in ranges)]\n"
        )) && out.len() < cap + 200,
        "{:?}",
        &out[cut..]
    );
    // Kept up to where the flood was stopped: more than the cap, bounded.
    let whole = ws.read(&kept).expect("the kept stream").len();
    assert!(whole > cap && whole <= (64 << 20), "{whole} bytes kept");
}

#[test]
fn a_stderr_flood_is_truncated_with_a_marker() {
    let cap = 10_000;
    let r = exec(
        &runtime(),
        &workspace(),
        "for (let i = 0; i < 1000; i++) console.error('e'.repeat(99)); console.log('done');",
        ExecOptions {
            limits: Some(Limits {
                stderr_bytes: cap,
                ..limits(LONG)
            }),
            ..js()
        },
    );
    assert_eq!(r.status, RunStatus::Completed, "{}", describe(&r));
    assert_eq!(s(&r.stdout), "done\n", "stdout has its own cap");
    let mut expected = "e".repeat(99) + "\n";
    expected = expected.repeat(100);
    expected.push_str(&format!(
        "\n{MARKER} 90000 more bytes over the {cap}-byte limit; all of it is in /.computer/output/{}.stderr (read it in ranges)]\n",
        r.run_id
    ));
    assert_eq!(s(&r.stderr), expected);
}

#[test]
fn the_host_error_line_survives_a_full_stderr() {
    let r = exec(
        &runtime(),
        &workspace(),
        "while (true) console.error('e'.repeat(100));",
        ExecOptions {
            limits: Some(Limits {
                stderr_bytes: 4096,
                ..limits(Duration::from_millis(300))
            }),
            ..js()
        },
    );
    assert_eq!(r.status, RunStatus::TimedOut, "{}", describe(&r));
    let error = r.error.clone().expect("timed out");
    assert!(
        s(&r.stderr).contains(&format!("computer: {error}")),
        "stderr does not say why the run stopped: {:?}",
        &s(&r.stderr)[4000..]
    );
}

#[test]
fn a_value_over_the_limit_fails_the_run() {
    let r = exec(
        &runtime(),
        &workspace(),
        "export default () => 'v'.repeat(200);",
        ExecOptions {
            limits: Some(Limits {
                value_bytes: 100,
                ..limits(LONG)
            }),
            ..js()
        },
    );
    assert_eq!(r.status, RunStatus::Failed, "{}", describe(&r));
    assert_eq!(r.exit_code, 1);
    assert_eq!(r.value, None);
    let error = r.error.clone().expect("explained");
    assert!(error.contains("100-byte limit"), "{error}");
}

#[test]
fn deep_recursion_fails_cleanly() {
    let rt = runtime();
    let ws = workspace();
    let r = exec(&rt, &ws, "function f() { return f() + 1 } f()", js());
    assert_eq!(r.status, RunStatus::Failed, "{}", describe(&r));
    assert_eq!(r.exit_code, 1);
    // Either the guest reports a RangeError itself, or the host reports the
    // trap; in both cases stderr says what happened.
    let stderr = s(&r.stderr);
    match &r.error {
        Some(e) => {
            assert!(e.contains("stack"), "unclear trap message: {e}");
            assert!(stderr.ends_with(&format!("computer: {e}\n")), "{stderr:?}");
        }
        None => assert!(stderr.contains("stack"), "{stderr:?}"),
    }
    let rec = ws.runs().get(&r.run_id).unwrap().expect("recorded");
    assert_eq!(rec.status, RunStatus::Failed);
    // The runtime survives the trap.
    let again = exec(&rt, &workspace(), "console.log('still here')", js());
    assert_eq!(s(&again.stdout), "still here\n", "{}", describe(&again));
}
