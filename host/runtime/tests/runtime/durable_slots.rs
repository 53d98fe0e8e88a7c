//! Durable runs and the cap on concurrent runs (issue 18): a run that
//! cannot be resumed for want of a slot is left for the next `recover`,
//! and resuming a run that is running says it is busy.

use std::sync::Arc;

use computer_runtime::{
    Answer, CallContext, ExecError, ExecOptions, FunctionInfo, HostModule, ModuleCallError,
    Recovered, RunStatus, Runtime, RuntimeConfig,
};
use computer_store::Workspace;
use serde_json::{Value, json};

use crate::support::{config, describe, runtime_with, s, wait_watched};

/// `ws:gate.ask()` parks the run until answered.
struct Gate;

impl HostModule for Gate {
    fn functions(&self) -> Vec<FunctionInfo> {
        vec![FunctionInfo {
            name: "ask".into(),
            params: vec![],
            result: None,
            docs: String::new(),
        }]
    }

    fn call(&self, _: &str, _: Value, ctx: &mut CallContext) -> Result<Value, ModuleCallError> {
        ctx.interrupt(json!({}))
    }
}

fn setup(max_runs: usize) -> (tempfile::TempDir, Arc<Workspace>, Runtime) {
    let dir = tempfile::tempdir().unwrap();
    let ws = Arc::new(Workspace::open(dir.path().join("ws.db")).unwrap());
    let rt = runtime_with(RuntimeConfig {
        max_concurrent_runs: max_runs,
        ..config()
    });
    rt.modules().register("ws:gate", Arc::new(Gate)).unwrap();
    (dir, ws, rt)
}

fn js() -> ExecOptions {
    ExecOptions {
        backend: "js".into(),
        ..Default::default()
    }
}

const SPIN: &str = "console.log('up'); while (true) {}";

#[test]
fn a_run_that_finds_no_free_slot_is_left_for_the_next_recover() {
    let (_dir, ws, rt) = setup(1);
    let parked = rt
        .exec(
            ws.clone(),
            "import { ask } from 'ws:gate'; console.log('got', ask());",
            js(),
        )
        .unwrap()
        .wait();
    assert_eq!(parked.status, RunStatus::Waiting, "{}", describe(&parked));
    let p = ws.interrupts().pending().unwrap().remove(0);

    let spin = rt.exec(ws.clone(), SPIN, js()).unwrap();
    assert!(matches!(
        spin.next_event(),
        Some(computer_runtime::Event::Stdout(_))
    ));
    let err = rt
        .respond(
            ws.clone(),
            &p.run_id,
            &p.call_id,
            Answer::Approved(json!(7)),
        )
        .err()
        .expect("resumed with no free slot");
    assert!(matches!(err, ExecError::TooManyRuns { limit: 1 }), "{err}");
    spin.kill();
    assert_eq!(wait_watched(spin).status, RunStatus::Cancelled);

    // The answered run is nobody's now: this process's recover takes it.
    let mut recovered = rt.recover(ws.clone()).unwrap();
    assert_eq!(recovered.len(), 1);
    let Recovered::Resumed { run_id, handle } = recovered.remove(0) else {
        panic!("not resumed");
    };
    assert_eq!(run_id, p.run_id);
    let r = wait_watched(handle);
    assert_eq!(r.status, RunStatus::Completed, "{}", describe(&r));
    assert_eq!(s(&r.stdout), "got 7\n");
}

#[test]
fn resuming_a_run_that_is_running_says_it_is_busy() {
    let (_dir, ws, rt) = setup(4);
    let spin = rt.exec(ws.clone(), SPIN, js()).unwrap();
    let id = spin.run_id().to_owned();
    assert!(matches!(
        spin.next_event(),
        Some(computer_runtime::Event::Stdout(_))
    ));
    let err = rt.resume(ws.clone(), &id).err().expect("resumed twice");
    assert!(matches!(err, ExecError::RunBusy { .. }), "{err:?}");
    let msg = err.to_string();
    assert!(
        msg.contains("is busy") && !msg.contains("invalid exec option"),
        "{msg}"
    );
    // Still ours: it runs on until killed.
    spin.kill();
    assert_eq!(wait_watched(spin).status, RunStatus::Cancelled);
    let err = rt.resume(ws.clone(), &id).err().unwrap();
    assert!(err.to_string().contains("has ended (cancelled)"), "{err}");
}
