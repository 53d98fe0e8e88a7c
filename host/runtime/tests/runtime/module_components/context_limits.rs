//! The call context (call id, config, interrupts) and per-call limits.

use super::*;

// ------------------------------------------------------------ call context

#[test]
fn the_module_sees_the_call_id_and_its_config_in_order() {
    let m = kinds();
    let mut c = CallContext::detached("run-7/call-3", "kinds", "context");
    assert_eq!(
        m.call("context", json!([]), &mut c),
        Ok(json!(["run-7/call-3", [["k", "v"], ["a", "b"]]]))
    );
    assert_eq!(c.call_id(), "run-7/call-3", "the context is handed back");
    // A context that carries its own config wins over the registered one.
    let mut c = CallContext::detached("c", "kinds", "context")
        .with_config(Arc::new(vec![("x".into(), "y".into())]));
    assert_eq!(
        m.call("context", json!([]), &mut c),
        Ok(json!(["c", [["x", "y"]]]))
    );
}

#[test]
fn an_interrupt_outside_a_durable_run_fails_clearly() {
    let m = kinds();
    let mut c = ctx("ask");
    let msg = failed(m.call("ask", json!(["{\"q\":1}"]), &mut c));
    assert!(
        msg.contains("ws:kinds.ask needs an approval, but this run is not durable"),
        "{msg}"
    );
    assert_eq!(
        c.call_id(),
        "call-1",
        "the context is handed back after the trap"
    );
    assert!(!c.parked());
}

#[test]
fn interrupts_are_approved_rejected_or_park_the_call() {
    let m = kinds();
    // Approved: the module gets the answer's JSON.
    let mut c = CallContext::with_answers(
        "c1",
        "kinds",
        "ask",
        vec![Answer::Approved(json!({"approved": true}))],
    );
    assert_eq!(
        m.call("ask", json!(["{\"q\":1}"]), &mut c),
        Ok(json!("{\"approved\":true}"))
    );
    assert!(!c.parked());

    // Rejected: the module gets the reason and the value.
    let mut c = CallContext::with_answers(
        "c2",
        "kinds",
        "ask",
        vec![Answer::Rejected {
            reason: "not today".into(),
            value: Some(json!({"retry": false})),
        }],
    );
    assert_eq!(
        m.call("ask", json!(["{}"]), &mut c),
        Err(ModuleCallError::ErrorValue(json!(
            "not today | {\"retry\":false}"
        )))
    );

    // No answer yet: the call is stopped and reports Parked.
    let mut c = CallContext::with_answers("c3", "kinds", "ask", vec![]);
    assert_eq!(
        m.call("ask", json!(["{}"]), &mut c),
        Err(ModuleCallError::Parked)
    );
    assert!(c.parked(), "the context knows it parked");
    assert_eq!(c.call_id(), "c3");

    // Several interrupts are answered in turn.
    let one = vec![Answer::Approved(json!(1))];
    let mut c = CallContext::with_answers("c4", "kinds", "ask-twice", one.clone());
    assert_eq!(
        m.call("ask-twice", json!([]), &mut c),
        Err(ModuleCallError::Parked)
    );
    let two = vec![Answer::Approved(json!(1)), Answer::Approved(json!("two"))];
    let mut c = CallContext::with_answers("c4", "kinds", "ask-twice", two);
    assert_eq!(
        m.call("ask-twice", json!([]), &mut c),
        Ok(json!(["1", "\"two\""]))
    );

    // The payload must be JSON.
    let mut c = CallContext::with_answers("c5", "kinds", "ask", one.clone());
    let msg = failed(m.call("ask", json!(["not json"]), &mut c));
    assert!(msg.contains("the interrupt payload is not JSON"), "{msg}");

    // Asking after unsafe-to-repeat fails the call.
    let mut c = CallContext::with_answers("c6", "kinds", "unsafe-then-ask", one);
    let msg = failed(m.call("unsafe-then-ask", json!([]), &mut c));
    assert!(msg.contains("after unsafe_to_repeat"), "{msg}");
}

// ------------------------------------------------------------ failures and limits

#[test]
fn traps_timeouts_and_memory_fail_the_call_not_the_module() {
    let limits = ModuleLimits {
        timeout: Duration::from_millis(300),
        memory_bytes: 32 << 20,
    };
    let m = kinds().with_limits(limits);
    let msg = failed(call(&m, "boom", json!([])));
    assert!(msg.starts_with("ws:kinds.boom trapped:"), "{msg}");

    // `spin` never returns: that the call ends at all is the timeout's doing
    // (no bound on how long it took, which depends on the machine).
    let msg = failed(call(&m, "spin", json!([])));
    assert!(msg.contains("ws:kinds.spin timed out after 300ms"), "{msg}");

    let msg = failed(call(&m, "hog", json!([])));
    assert!(
        msg.contains("ws:kinds.hog exceeded its memory limit (32 MiB)"),
        "{msg}"
    );

    // Each call has a fresh instance: the module still works.
    assert_eq!(ok(&m, "add", json!([1, 1])), json!(2));
    // Output goes to the log, not to the result.
    assert_eq!(ok(&m, "log", json!(["hi"])), Value::Null);
    assert!(ok(&m, "now", json!([])).as_u64().unwrap() > 1_600_000_000);
}
