//! The host memory ceiling (issue 41 item 13): runs reserve their memory
//! from `RuntimeConfig::host_memory`; one that does not fit waits, in
//! order, for others to end, or is refused naming the knob; one larger than
//! the whole ceiling is refused at once; a parked run holds none. The test
//! decides when each run ends: runs block in `ws:latch` until it lets them
//! go.

use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use computer_runtime::{
    Answer, CallContext, ExecError, ExecOptions, FunctionInfo, HostModule, Limits, ModuleCallError,
    ParamInfo, RunStatus, Runtime, RuntimeConfig, reservation_of,
};
use computer_store::{Page, Workspace};
use serde_json::{Value, json};

use crate::support::{config, describe, runtime_with, s, wait_watched};

/// `ws:latch.hold(name)` tells the test that `name` is in, then blocks until
/// the test lets `name` go; `ws:latch.ask()` parks the run until answered.
struct Latch {
    entered: Mutex<Sender<String>>,
    gates: Mutex<Vec<(String, Receiver<()>)>>,
}

impl HostModule for Latch {
    fn functions(&self) -> Vec<FunctionInfo> {
        ["hold", "ask"]
            .into_iter()
            .map(|name| FunctionInfo {
                name: name.into(),
                params: (name == "hold")
                    .then(|| ParamInfo {
                        name: "name".into(),
                        type_desc: "string".into(),
                    })
                    .into_iter()
                    .collect(),
                result: None,
                docs: String::new(),
            })
            .collect()
    }

    fn call(&self, f: &str, args: Value, ctx: &mut CallContext) -> Result<Value, ModuleCallError> {
        if f == "ask" {
            return ctx.interrupt(json!({}));
        }
        let name = args[0].as_str().unwrap_or_default().to_owned();
        let gate = {
            let mut gates = self.gates.lock().unwrap();
            let at = gates.iter().position(|(n, _)| *n == name).expect("a gate");
            gates.remove(at).1
        };
        self.entered.lock().unwrap().send(name).unwrap();
        gate.recv().ok();
        Ok(Value::Null)
    }
}

/// A workspace, a runtime whose ceiling fits `fit` runs of [`limits`] (and
/// half of one more), and the latch's two ends.
struct Setup {
    _dir: tempfile::TempDir,
    ws: Arc<Workspace>,
    rt: Runtime,
    latch: Arc<Latch>,
    entered: Receiver<String>,
}

impl Setup {
    fn new(ceiling: u64) -> Setup {
        let dir = tempfile::tempdir().unwrap();
        let ws = Arc::new(Workspace::open(dir.path().join("ws.db")).unwrap());
        let rt = runtime_with(RuntimeConfig {
            host_memory: ceiling,
            ..config()
        });
        let (tx, entered) = channel();
        let latch = Arc::new(Latch {
            entered: Mutex::new(tx),
            gates: Mutex::new(Vec::new()),
        });
        rt.modules().register("ws:latch", latch.clone()).unwrap();
        Setup {
            _dir: dir,
            ws,
            rt,
            latch,
            entered,
        }
    }

    /// Starts a run that blocks in `hold(name)`; the returned sender lets
    /// it go.
    fn holder(&self, name: &str) -> (computer_runtime::RunHandle, Sender<()>) {
        let (go, gate) = channel();
        self.latch
            .gates
            .lock()
            .unwrap()
            .push((name.to_owned(), gate));
        let handle = self
            .rt
            .exec(self.ws.clone(), &hold(name), js(name))
            .unwrap();
        (handle, go)
    }
}

fn hold(name: &str) -> String {
    format!("import {{ hold }} from 'ws:latch'; hold('{name}'); console.log('{name} done');")
}

/// 64 MiB of guest memory, a long timeout (the wait is bounded by it).
fn limits() -> Limits {
    Limits {
        memory_bytes: 64 << 20,
        timeout: Duration::from_secs(600),
        ..Limits::default()
    }
}

fn js(id: &str) -> ExecOptions {
    ExecOptions {
        backend: "js".into(),
        id: Some(id.to_owned()),
        limits: Some(limits()),
        ..Default::default()
    }
}

/// What a js run of [`limits`] reserves (its `/tmp` is the workspace's).
fn one() -> u64 {
    reservation_of(&limits(), false)
}

/// Waits (on state, not time) until `n` runs wait for host memory.
fn until_waiting(rt: &Runtime, n: usize) {
    while rt.host_memory().waiting != n {
        std::thread::yield_now();
    }
}

fn names_the_knob(e: &ExecError) {
    let text = e.to_string();
    for knob in [
        "RuntimeConfig::host_memory",
        "--host-memory",
        "COMPUTER_HOST_MEMORY",
    ] {
        assert!(text.contains(knob), "{knob} not in: {text}");
    }
}

#[test]
fn runs_past_the_ceiling_wait_in_order_and_all_complete() {
    // Two runs fit; the third and fourth wait.
    let t = Setup::new(2 * one() + one() / 2);
    let (a, go_a) = t.holder("a");
    let (b, go_b) = t.holder("b");
    let mut order = vec![t.entered.recv().unwrap(), t.entered.recv().unwrap()];
    order.sort();
    assert_eq!(order, ["a", "b"]);
    assert_eq!(t.rt.host_memory().reserved, 2 * one());

    // `exec` of c, then of d, waits inside `exec` (on threads of their own).
    let mut waiters = Vec::new();
    for (n, name) in ["c", "d"].into_iter().enumerate() {
        let (go, gate) = channel();
        t.latch.gates.lock().unwrap().push((name.to_owned(), gate));
        let (rt, ws) = (t.rt.clone(), t.ws.clone());
        waiters.push((
            std::thread::spawn(move || rt.exec(ws, &hold(name), js(name)).map(wait_watched)),
            go,
        ));
        until_waiting(&t.rt, n + 1);
    }
    // Neither has been started nor recorded.
    assert!(t.ws.runs().get("c").unwrap().is_none());
    assert!(t.entered.try_recv().is_err());

    // a ends: c (first in line) gets its memory, d still waits.
    go_a.send(()).unwrap();
    assert_eq!(wait_watched(a).status, RunStatus::Completed);
    assert_eq!(t.entered.recv().unwrap(), "c");
    until_waiting(&t.rt, 1);
    assert!(t.ws.runs().get("d").unwrap().is_none());

    // b ends: d goes.
    go_b.send(()).unwrap();
    assert_eq!(wait_watched(b).status, RunStatus::Completed);
    assert_eq!(t.entered.recv().unwrap(), "d");
    for (waiter, go) in waiters {
        go.send(()).unwrap();
        let r = waiter.join().unwrap().expect("started after waiting");
        assert_eq!(r.status, RunStatus::Completed, "{}", describe(&r));
    }
    assert_eq!(t.rt.host_memory().reserved, 0);
    assert_eq!(t.ws.runs().list(Page::default()).unwrap().len(), 4);
}

#[test]
fn a_run_larger_than_the_whole_ceiling_is_refused_at_once() {
    let t = Setup::new(one() - 1);
    let err =
        t.rt.exec(t.ws.clone(), "1", js("big"))
            .err()
            .expect("refused");
    assert!(matches!(err, ExecError::RunTooBig { .. }), "{err}");
    names_the_knob(&err);
    assert!(err.to_string().contains("lower its memory limit"), "{err}");
    assert!(t.ws.runs().get("big").unwrap().is_none());
    assert_eq!(t.rt.host_memory().waiting, 0);
}

#[test]
fn a_run_whose_timeout_passes_while_it_waits_is_refused_naming_the_knob() {
    let t = Setup::new(one());
    let (a, go_a) = t.holder("a");
    assert_eq!(t.entered.recv().unwrap(), "a");
    let short = ExecOptions {
        limits: Some(Limits {
            timeout: Duration::from_millis(1),
            ..limits()
        }),
        ..js("late")
    };
    // a holds the whole ceiling until the test lets it go, so this cannot
    // fit within its 1 ms.
    let err = t.rt.exec(t.ws.clone(), "1", short).err().expect("refused");
    assert!(matches!(err, ExecError::HostMemoryBusy { .. }), "{err}");
    names_the_knob(&err);
    assert!(t.ws.runs().get("late").unwrap().is_none());
    go_a.send(()).unwrap();
    assert_eq!(wait_watched(a).status, RunStatus::Completed);
    // Its place in line was given up: the next run goes at once.
    let r = wait_watched(t.rt.exec(t.ws.clone(), "1", js("next")).unwrap());
    assert_eq!(r.status, RunStatus::Completed, "{}", describe(&r));
}

#[test]
fn a_run_killed_while_it_waits_is_not_started() {
    let t = Setup::new(one());
    let (a, go_a) = t.holder("a");
    assert_eq!(t.entered.recv().unwrap(), "a");
    let (rt, ws) = (t.rt.clone(), t.ws.clone());
    let waiter = std::thread::spawn(move || rt.exec(ws, "1", js("w")).map(wait_watched));
    until_waiting(&t.rt, 1);
    assert!(t.rt.kill("w"));
    let err = waiter.join().unwrap().expect_err("not started");
    assert!(matches!(err, ExecError::Cancelled), "{err}");
    assert!(t.ws.runs().get("w").unwrap().is_none());
    go_a.send(()).unwrap();
    assert_eq!(wait_watched(a).status, RunStatus::Completed);
}

#[test]
fn a_parked_run_holds_no_host_memory() {
    // Room for one run only.
    let t = Setup::new(one());
    let parked =
        t.rt.exec(
            t.ws.clone(),
            "import { ask } from 'ws:latch'; console.log('got', ask());",
            js("parked"),
        )
        .unwrap()
        .wait();
    assert_eq!(parked.status, RunStatus::Waiting, "{}", describe(&parked));
    assert_eq!(t.rt.host_memory().reserved, 0);

    // Another run gets the whole ceiling at once.
    let r = wait_watched(t.rt.exec(t.ws.clone(), "1", js("other")).unwrap());
    assert_eq!(r.status, RunStatus::Completed, "{}", describe(&r));

    // Answered, it resumes with its reservation back, and ends.
    let p = t.ws.interrupts().pending().unwrap().remove(0);
    let resumed =
        t.rt.respond(
            t.ws.clone(),
            &p.run_id,
            &p.call_id,
            Answer::Approved(json!(7)),
        )
        .unwrap()
        .expect("resumed");
    let r = wait_watched(resumed);
    assert_eq!(r.status, RunStatus::Completed, "{}", describe(&r));
    assert_eq!(s(&r.stdout), "got 7\n");
    assert_eq!(t.rt.host_memory().reserved, 0);
}
