//! Events, kill, and concurrent runs.

use super::*;

// ------------------------------------------------------------ events

#[test]
fn events_stream_output_then_exactly_one_exit_last() {
    let rt = runtime();
    let handle = rt
        .exec(
            workspace(),
            "console.log('one'); console.error('two'); console.log('three');\n\
             export default () => [1, 'x'];",
            js(),
        )
        .expect("exec");
    let (events, r) = finish(handle);
    let exits: Vec<&Event> = events
        .iter()
        .filter(|e| matches!(e, Event::Exit { .. }))
        .collect();
    assert_eq!(exits.len(), 1, "{events:?}");
    assert_eq!(
        events.last(),
        Some(&Event::Exit {
            code: 0,
            value: Some(json!([1, "x"]))
        }),
        "{events:?}"
    );
    let mut out = Vec::new();
    let mut err = Vec::new();
    for e in &events {
        match e {
            Event::Stdout(b) => out.extend_from_slice(b),
            Event::Stderr(b) => err.extend_from_slice(b),
            Event::Exit { .. } => {}
        }
    }
    assert_eq!(s(&out), "one\nthree\n");
    assert_eq!(s(&err), "two\n");
    assert_eq!(out, r.stdout);
    assert_eq!(err, r.stderr);
    // The order across streams is the order of the writes.
    let order: Vec<String> = events
        .iter()
        .filter_map(|e| match e {
            Event::Stdout(b) => Some(format!("out:{}", s(b))),
            Event::Stderr(b) => Some(format!("err:{}", s(b))),
            Event::Exit { .. } => None,
        })
        .collect();
    assert_eq!(order, ["out:one\n", "err:two\n", "out:three\n"]);
}

#[test]
fn the_exit_event_of_a_failed_run_carries_its_code() {
    let handle = runtime()
        .exec(
            workspace(),
            "while (true) {}",
            ExecOptions {
                limits: Some(limits(Duration::from_millis(200))),
                ..js()
            },
        )
        .expect("exec");
    let (events, r) = finish(handle);
    assert_eq!(
        events.last(),
        Some(&Event::Exit {
            code: 124,
            value: None
        })
    );
    // The host's explanation is streamed too.
    let err: Vec<u8> = events
        .iter()
        .filter_map(|e| match e {
            Event::Stderr(b) => Some(b.clone()),
            _ => None,
        })
        .flatten()
        .collect();
    assert_eq!(err, r.stderr);
    assert!(s(&err).starts_with("computer: timed out"), "{}", s(&err));
}

#[test]
fn output_is_streamed_while_the_run_goes_on() {
    // The run prints, then waits for a file that the test only creates
    // after it has received that output: if output were delivered at the
    // end, the run would never finish (and time out).
    let ws = workspace();
    let handle = runtime()
        .exec(
            ws.clone(),
            &format!(
                "import fs from 'node:fs';\n\
                 console.log('first');\n\
                 {}\n\
                 console.log('second');",
                wait_for_file_js("/work/go")
            ),
            ExecOptions {
                limits: Some(limits(Duration::from_secs(20))),
                ..js()
            },
        )
        .expect("exec");
    expect_stdout(&handle, "first\n");
    write(&ws, "/work/go", b"");
    let (events, r) = finish(handle);
    assert_eq!(r.status, RunStatus::Completed, "{}", describe(&r));
    assert_eq!(
        events,
        vec![
            Event::Stdout(b"second\n".to_vec()),
            Event::Exit {
                code: 0,
                value: None
            }
        ]
    );
    assert_eq!(s(&r.stdout), "first\nsecond\n");
}

#[test]
fn output_before_a_timer_arrives_before_the_run_ends() {
    let handle = runtime()
        .exec(
            workspace(),
            "console.log('before');\n\
             await new Promise((r) => setTimeout(r, 1000));\n\
             console.log('after');",
            js(),
        )
        .expect("exec");
    expect_stdout(&handle, "before\n");
    // At this point the guest is (at the latest) sleeping in its timer: the
    // second line and the exit have not been produced yet.
    assert!(
        handle.events().try_recv().is_err(),
        "the rest arrived together with the first line"
    );
    let (events, _) = finish(handle);
    assert_eq!(events[0], Event::Stdout(b"after\n".to_vec()));
}

// ------------------------------------------------------------ kill

#[test]
fn kill_cancels_a_running_run() {
    let rt = runtime();
    let ws = workspace();
    let handle = rt
        .exec(
            ws.clone(),
            "console.log('started'); while (true) {}",
            ExecOptions {
                id: Some("to-kill".into()),
                ..js()
            },
        )
        .expect("exec");
    assert_eq!(handle.run_id(), "to-kill");
    expect_stdout(&handle, "started\n");
    assert!(rt.kill("to-kill"), "kill found no running run");
    let r = wait(handle);
    assert_eq!(r.status, RunStatus::Cancelled, "{}", describe(&r));
    assert_eq!(r.exit_code, 130);
    assert_eq!(s(&r.stdout), "started\n");
    let rec = ws.runs().get("to-kill").unwrap().expect("recorded");
    assert_eq!(rec.status, RunStatus::Cancelled);
    assert_eq!(rec.exit_code, Some(130));
    assert!(!rt.kill("to-kill"), "a finished run cannot be killed");
    assert!(!rt.kill("no-such-run"));
}

#[test]
fn kill_cancels_a_run_sleeping_in_a_timer() {
    let rt = runtime();
    let handle = rt
        .exec(
            workspace(),
            "console.log('waiting'); setTimeout(() => {}, 1e9);",
            js(),
        )
        .expect("exec");
    expect_stdout(&handle, "waiting\n");
    assert!(rt.kill(handle.run_id()));
    let r = wait(handle);
    assert_eq!(r.status, RunStatus::Cancelled, "{}", describe(&r));
    assert_eq!(r.exit_code, 130);
}

#[test]
fn kill_reaches_only_its_own_run() {
    let rt = runtime();
    let ws = workspace();
    let victim = rt
        .exec(
            ws.clone(),
            "console.log('v'); while (true) {}",
            ExecOptions {
                id: Some("victim".into()),
                ..js()
            },
        )
        .expect("exec victim");
    let bystander = rt
        .exec(
            ws.clone(),
            &format!(
                "import fs from 'node:fs'; console.log('b'); {} console.log('b done');",
                wait_for_file_js("/work/release")
            ),
            ExecOptions {
                id: Some("bystander".into()),
                ..js()
            },
        )
        .expect("exec bystander");
    expect_stdout(&victim, "v\n");
    expect_stdout(&bystander, "b\n");
    assert!(rt.kill("victim"));
    assert_eq!(wait(victim).status, RunStatus::Cancelled);
    write(&ws, "/work/release", b"");
    let r = wait(bystander);
    assert_eq!(r.status, RunStatus::Completed, "{}", describe(&r));
    assert_eq!(s(&r.stdout), "b\nb done\n");
}

// ------------------------------------------------------------ concurrency

#[test]
fn runs_over_the_concurrency_limit_are_refused() {
    let rt = runtime_with(RuntimeConfig {
        max_concurrent_runs: 2,
        ..config()
    });
    let ws = workspace();
    let spin = "console.log('up'); while (true) {}";
    let a = rt.exec(ws.clone(), spin, js()).expect("first run");
    let b = rt.exec(ws.clone(), spin, js()).expect("second run");
    expect_stdout(&a, "up\n");
    expect_stdout(&b, "up\n");
    let err = rt
        .exec(ws.clone(), "console.log(1)", js())
        .err()
        .expect("a third concurrent run was accepted");
    assert!(
        matches!(err, ExecError::TooManyRuns { limit: 2 }),
        "{err:?}"
    );
    assert!(err.to_string().contains("limit is 2"), "{err}");
    let recorded = ws.runs().list(Page::all()).unwrap().len();
    assert_eq!(recorded, 2, "the refused run must not be recorded");

    assert!(rt.kill(a.run_id()));
    assert!(rt.kill(b.run_id()));
    assert_eq!(wait(a).status, RunStatus::Cancelled);
    assert_eq!(wait(b).status, RunStatus::Cancelled);
    // The slots are free again.
    let r = exec(&rt, &ws, "console.log('again')", js());
    assert_eq!(s(&r.stdout), "again\n", "{}", describe(&r));
    let r = exec(&rt, &ws, "console.log('and again')", js());
    assert_eq!(s(&r.stdout), "and again\n", "{}", describe(&r));
}

#[test]
fn runs_proceed_concurrently() {
    // Each run waits for a file the other one writes: this finishes only if
    // both run at the same time.
    let rt = runtime();
    let ws = workspace();
    let script = |mine: &str, theirs: &str| {
        format!(
            "import fs from 'node:fs';\n\
             fs.writeFileSync({mine:?}, 'x');\n\
             {}\n\
             console.log('met');",
            wait_for_file_js(theirs)
        )
    };
    let a = rt
        .exec(ws.clone(), &script("/work/a", "/work/b"), js())
        .expect("a");
    let b = rt
        .exec(ws.clone(), &script("/work/b", "/work/a"), js())
        .expect("b");
    for r in [wait(a), wait(b)] {
        assert_eq!(r.status, RunStatus::Completed, "{}", describe(&r));
        assert_eq!(s(&r.stdout), "met\n");
    }
}

#[test]
fn many_short_runs_in_parallel_all_complete() {
    let rt = runtime();
    let handles: Vec<(usize, RunHandle)> = (0..16)
        .map(|i| {
            let h = rt
                .exec(workspace(), &format!("export default () => {i} * 2;"), js())
                .expect("exec");
            (i, h)
        })
        .collect();
    for (i, h) in handles {
        let r = wait(h);
        assert_eq!(r.value, Some(json!(i * 2)), "{}", describe(&r));
    }
}
