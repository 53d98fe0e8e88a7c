//! Durable runs through the public API: approval interrupts (approve,
//! reject, several per run, several runs), replay that neither repeats
//! effects nor output, unsafe-to-repeat, and nondeterministic replays.
//! Crashes of a real process are tested in `tests/it/durable_crash.rs`.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use computer_runtime::{
    Answer, AsyncModule, CallContext, ExecOptions, FunctionInfo, HostModule, ModuleCallError,
    ModuleFuture, OnInterrupt, RunResult, RunStatus, Runtime,
};
use computer_store::{EntryKind, Interrupt, MkdirOptions, Workspace};
use serde_json::{Value, json};

use crate::support::{describe, runtime, s};

fn workspace() -> (tempfile::TempDir, Arc<Workspace>) {
    let dir = tempfile::tempdir().unwrap();
    let ws = Workspace::open(dir.path().join("ws.db")).unwrap();
    ws.mkdir("/work", &MkdirOptions::default()).unwrap();
    (dir, Arc::new(ws))
}

/// `ws:gate`: `ask(what)` waits for an approval and returns the answer;
/// `send(what)` marks itself unsafe to repeat and counts; `flip()` is a
/// function that only exists once `extra` is set; `post()` asks to post
/// `comment` (state outside the journal, as a module's remote data is) and
/// posts what it asked about.
#[derive(Default)]
struct Gate {
    /// Executions of each function (replayed calls do not execute).
    asks: AtomicUsize,
    sends: AtomicUsize,
    call_ids: Mutex<Vec<String>>,
    extra: AtomicBool,
    comment: Mutex<String>,
    posted: Mutex<Vec<String>>,
}

impl HostModule for Gate {
    fn functions(&self) -> Vec<FunctionInfo> {
        let f = |name: &str| FunctionInfo {
            name: name.into(),
            params: vec![],
            result: None,
            docs: String::new(),
        };
        let mut out = vec![f("ask"), f("send"), f("post")];
        if self.extra.load(Ordering::SeqCst) {
            out.push(f("extra"));
        }
        out
    }

    fn call(
        &self,
        function: &str,
        args: Value,
        ctx: &mut CallContext,
    ) -> Result<Value, ModuleCallError> {
        self.call_ids.lock().unwrap().push(ctx.call_id().to_owned());
        match function {
            "ask" => {
                self.asks.fetch_add(1, Ordering::SeqCst);
                let answer = ctx.interrupt(json!({"what": args[0]}))?;
                Ok(json!({"answer": answer}))
            }
            "send" => {
                ctx.unsafe_to_repeat()?;
                let n = self.sends.fetch_add(1, Ordering::SeqCst) + 1;
                Ok(json!(n))
            }
            "post" => {
                let comment = self.comment.lock().unwrap().clone();
                ctx.interrupt(json!({"comment": comment}))?;
                self.posted.lock().unwrap().push(comment.clone());
                Ok(json!(comment))
            }
            _ => Ok(Value::Null),
        }
    }
}

fn setup() -> (tempfile::TempDir, Arc<Workspace>, Runtime, Arc<Gate>) {
    let (dir, ws) = workspace();
    let rt = runtime();
    let gate = Arc::new(Gate::default());
    rt.modules().register("ws:gate", gate.clone()).unwrap();
    (dir, ws, rt, gate)
}

fn exec(rt: &Runtime, ws: &Arc<Workspace>, source: &str) -> RunResult {
    rt.exec(
        ws.clone(),
        source,
        ExecOptions {
            backend: "js".into(),
            cwd: Some("/work".into()),
            ..Default::default()
        },
    )
    .expect("exec")
    .wait()
}

/// Answers interrupt `p` and waits for its run to end (or park again).
fn resume(rt: &Runtime, ws: &Arc<Workspace>, p: &Interrupt, answer: Answer) -> RunResult {
    rt.respond(ws.clone(), &p.run_id, &p.call_id, answer)
        .expect("respond")
        .expect("the run resumes")
        .wait()
}

fn read(ws: &Workspace, path: &str) -> String {
    s(&ws.read(path).unwrap())
}

const APPROVAL_SCRIPT: &str = r#"
import { appendFileSync, readFileSync } from "node:fs";
import { ask } from "ws:gate";
appendFileSync("log", "before\n");
console.log("asking");
const t0 = Date.now();
const r = ask("deploy");
appendFileSync("log", "after " + JSON.stringify(r) + "\n");
console.log("answered", JSON.stringify(r), Date.now() >= t0);
export default readFileSync("log", "utf8");
"#;

#[test]
fn an_approved_interrupt_resumes_the_run_without_repeating_anything() {
    let (_d, ws, rt, gate) = setup();
    let r = exec(&rt, &ws, APPROVAL_SCRIPT);
    assert_eq!(r.status, RunStatus::Waiting, "{}", describe(&r));
    assert_eq!(r.exit_code, computer_runtime::EXIT_WAITING);
    assert_eq!(s(&r.stdout), "asking\n");
    let record = ws.runs().get(&r.run_id).unwrap().unwrap();
    assert_eq!(record.status, RunStatus::Waiting);

    let pending = ws.interrupts().pending().unwrap();
    assert_eq!(pending.len(), 1, "{pending:?}");
    let p = &pending[0];
    assert_eq!((p.module.as_str(), p.function.as_str()), ("gate", "ask"));
    assert_eq!(p.payload, r#"{"what":"deploy"}"#);
    assert_eq!(p.run_id, r.run_id);

    let r2 = resume(&rt, &ws, p, Answer::Approved(json!({"approved": true})));
    assert_eq!(r2.status, RunStatus::Completed, "{}", describe(&r2));
    // Output already emitted is not emitted again, but the result has it all.
    assert_eq!(
        s(&r2.stdout),
        "asking\nanswered {\"answer\":{\"approved\":true}} true\n"
    );
    // The append before the interrupt happened once.
    assert_eq!(
        read(&ws, "/work/log"),
        "before\nafter {\"answer\":{\"approved\":true}}\n"
    );
    assert_eq!(r2.value, Some(json!(read(&ws, "/work/log"))));
    // The call ran twice (it parks, then answers), with the same id.
    assert_eq!(gate.asks.load(Ordering::SeqCst), 2);
    let ids = gate.call_ids.lock().unwrap().clone();
    assert_eq!(ids.len(), 2);
    assert_eq!(ids[0], ids[1]);
    assert!(ws.interrupts().pending().unwrap().is_empty());
    let record = ws.runs().get(&r.run_id).unwrap().unwrap();
    assert_eq!(record.status, RunStatus::Completed);
    assert_eq!(s(&record.stdout), s(&r2.stdout));
    // The journal is gone once the run has ended.
    assert!(ws.journal().entries(&r.run_id).unwrap().is_empty());
}

#[test]
fn a_rejection_is_an_exception_in_the_agent_code() {
    let (_d, ws, rt, _gate) = setup();
    let src = r#"
import { ask } from "ws:gate";
try { ask("rm -rf"); console.log("approved?!"); }
catch (e) { console.log("refused:", e.message); }
"#;
    let r = exec(&rt, &ws, src);
    assert_eq!(r.status, RunStatus::Waiting, "{}", describe(&r));
    let p = ws.interrupts().pending().unwrap().remove(0);
    let r2 = resume(
        &rt,
        &ws,
        &p,
        Answer::Rejected {
            reason: "not on a Friday".into(),
            value: None,
        },
    );
    assert_eq!(r2.status, RunStatus::Completed, "{}", describe(&r2));
    assert!(
        s(&r2.stdout).contains("refused:") && s(&r2.stdout).contains("not on a Friday"),
        "{}",
        describe(&r2)
    );
}

#[test]
fn several_interrupts_in_one_run_are_answered_in_turn() {
    let (_d, ws, rt, gate) = setup();
    let src = r#"
import { appendFileSync } from "node:fs";
import { ask } from "ws:gate";
for (const step of ["one", "two", "three"]) {
  const r = ask(step);
  appendFileSync("steps", step + "=" + r.answer + "\n");
  console.log(step);
}
"#;
    let mut r = exec(&rt, &ws, src);
    let run_id = r.run_id.clone();
    for (i, step) in ["one", "two", "three"].iter().enumerate() {
        assert_eq!(r.status, RunStatus::Waiting, "step {i}: {}", describe(&r));
        let pending = ws.interrupts().pending().unwrap();
        assert_eq!(pending.len(), 1);
        assert_eq!(pending[0].payload, json!({"what": step}).to_string());
        assert_eq!(pending[0].run_id, run_id);
        r = resume(&rt, &ws, &pending[0], Answer::Approved(json!(i)));
    }
    assert_eq!(r.status, RunStatus::Completed, "{}", describe(&r));
    assert_eq!(read(&ws, "/work/steps"), "one=0\ntwo=1\nthree=2\n");
    assert_eq!(s(&r.stdout), "one\ntwo\nthree\n");
    // Each attempt replays the answered calls without executing them: 3
    // calls, each executed twice (park, then answer).
    assert_eq!(gate.asks.load(Ordering::SeqCst), 6);
}

#[test]
fn two_waiting_runs_answered_in_reverse_order() {
    let (_d, ws, rt, _gate) = setup();
    let src = |name: &str| {
        format!(
            r#"
import {{ appendFileSync }} from "node:fs";
import {{ ask }} from "ws:gate";
const r = ask("{name}");
appendFileSync("{name}", JSON.stringify(r));
"#
        )
    };
    let a = exec(&rt, &ws, &src("a"));
    let b = exec(&rt, &ws, &src("b"));
    assert_eq!(a.status, RunStatus::Waiting);
    assert_eq!(b.status, RunStatus::Waiting);
    let pending = ws.interrupts().pending().unwrap();
    assert_eq!(pending.len(), 2);
    let of = |run: &str| pending.iter().find(|p| p.run_id == run).unwrap().clone();
    let (pa, pb) = (of(&a.run_id), of(&b.run_id));
    assert_ne!(pa.call_id, pb.call_id);

    let rb = resume(&rt, &ws, &pb, Answer::Approved(json!("B")));
    assert_eq!(rb.status, RunStatus::Completed, "{}", describe(&rb));
    assert!(ws.read("/work/a").is_err(), "run a must still wait");
    assert_eq!(
        ws.runs().get(&a.run_id).unwrap().unwrap().status,
        RunStatus::Waiting
    );
    let ra = resume(&rt, &ws, &pa, Answer::Approved(json!("A")));
    assert_eq!(ra.status, RunStatus::Completed, "{}", describe(&ra));
    assert_eq!(read(&ws, "/work/a"), r#"{"answer":"A"}"#);
    assert_eq!(read(&ws, "/work/b"), r#"{"answer":"B"}"#);
}

#[test]
fn answering_twice_or_an_unknown_call_is_a_clear_error() {
    let (_d, ws, rt, _gate) = setup();
    let r = exec(
        &rt,
        &ws,
        r#"import { ask } from "ws:gate"; ask(1); ask(2);"#,
    );
    let first = ws.interrupts().pending().unwrap().remove(0);
    let unknown = rt
        .respond(
            ws.clone(),
            &r.run_id,
            "no-such-call",
            Answer::Approved(json!(1)),
        )
        .err()
        .expect("an unknown call is an error")
        .to_string();
    assert!(
        unknown.contains("no interrupt for call no-such-call"),
        "{unknown}"
    );
    let r2 = resume(&rt, &ws, &first, Answer::Approved(json!(1)));
    assert_eq!(r2.status, RunStatus::Waiting, "{}", describe(&r2));
    let twice = rt
        .respond(
            ws.clone(),
            &first.run_id,
            &first.call_id,
            Answer::Approved(json!(2)),
        )
        .err()
        .expect("answering twice is an error")
        .to_string();
    assert!(twice.contains("already answered"), "{twice}");
    let second = ws.interrupts().pending().unwrap().remove(0);
    assert_ne!(second.call_id, first.call_id);
    let r3 = resume(&rt, &ws, &second, Answer::Approved(json!(2)));
    assert_eq!(r3.status, RunStatus::Completed, "{}", describe(&r3));
    let ended = rt
        .respond(
            ws.clone(),
            &second.run_id,
            &second.call_id,
            Answer::Approved(json!(3)),
        )
        .err()
        .expect("answering an ended run is an error")
        .to_string();
    assert!(ended.contains("has already ended (completed)"), "{ended}");
}

#[test]
fn a_run_that_does_not_replay_cannot_ask_for_approval() {
    let (_d, ws, rt, _gate) = setup();
    let r = rt
        .exec(
            ws.clone(),
            r#"import { ask } from "ws:gate"; try { ask("x") } catch (e) { console.log(e.message) }"#,
            ExecOptions {
                backend: "js".into(),
                on_interrupt: Some(OnInterrupt::Fail),
                ..Default::default()
            },
        )
        .unwrap()
        .wait();
    assert_eq!(r.status, RunStatus::Completed, "{}", describe(&r));
    assert!(s(&r.stdout).contains("not durable"), "{}", describe(&r));
    assert!(ws.interrupts().pending().unwrap().is_empty());
}

#[test]
fn replay_returns_recorded_time_and_randomness() {
    let (_d, ws, rt, _gate) = setup();
    let src = r#"
import { ask } from "ws:gate";
const seen = JSON.stringify([Date.now(), Math.random(), performance.now(), crypto.getRandomValues(new Uint32Array(2))]);
console.log("first", seen);
ask("x");
console.log("again", seen);
"#;
    let r = exec(&rt, &ws, src);
    assert_eq!(r.status, RunStatus::Waiting, "{}", describe(&r));
    let journal = ws.journal().entries(&r.run_id).unwrap();
    assert!(
        journal.iter().any(|e| e.kind == EntryKind::Clock),
        "clock readings are journalled: {journal:?}"
    );
    // Time moves on before the replay.
    std::thread::sleep(std::time::Duration::from_millis(20));
    let p = ws.interrupts().pending().unwrap().remove(0);
    let r2 = resume(&rt, &ws, &p, Answer::Approved(json!(1)));
    assert_eq!(r2.status, RunStatus::Completed, "{}", describe(&r2));
    // "first" was printed by the first attempt, "again" by the replay:
    // the replay saw the same time and the same random numbers.
    let out = s(&r2.stdout);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    let first = lines[0].strip_prefix("first ").expect(&out);
    let again = lines[1].strip_prefix("again ").expect(&out);
    assert_eq!(first, again);
}

#[test]
fn a_replay_that_takes_another_path_is_nondeterministic() {
    let (_d, ws, rt, gate) = setup();
    // The module's function list is not journalled: a module redeployed
    // with other functions changes what the script does on replay.
    let src = r#"
import gate from "ws:gate";
import { appendFileSync, writeFileSync } from "node:fs";
if (Object.keys(gate).includes("extra")) writeFileSync("a", "1");
else appendFileSync("b", "2");
gate.ask("x");
"#;
    let r = exec(&rt, &ws, src);
    assert_eq!(r.status, RunStatus::Waiting, "{}", describe(&r));
    gate.extra.store(true, Ordering::SeqCst);
    let p = ws.interrupts().pending().unwrap().remove(0);
    let r2 = resume(&rt, &ws, &p, Answer::Approved(json!(1)));
    assert_eq!(r2.status, RunStatus::Failed, "{}", describe(&r2));
    let err = r2.error.clone().unwrap_or_default();
    assert!(
        err.contains("nondeterministic replay")
            && err.contains("fs.append")
            && err.contains("fs.write"),
        "{}",
        describe(&r2)
    );
    // Nothing of the diverging path took effect.
    assert!(ws.read("/work/a").is_err());
    assert_eq!(read(&ws, "/work/b"), "2");
}

/// The journal matches a replayed call by the whole SHA-256 of its
/// arguments: a recorded row that shares only the first 8 bytes of the
/// digest (a pair of such calls takes minutes to find) is another call,
/// so the run fails instead of using the answer given for it.
#[test]
fn a_journal_row_sharing_only_the_digest_prefix_is_another_call() {
    let (d, ws, rt, gate) = setup();
    let r = exec(
        &rt,
        &ws,
        "import { ask } from \"ws:gate\";\nask(\"deploy\");",
    );
    assert_eq!(r.status, RunStatus::Waiting, "{}", describe(&r));
    let p = ws.interrupts().pending().unwrap().remove(0);
    // Forge the row as a colliding call's: same 8-byte prefix (the
    // `args_hash` column too), other bytes after it.
    let db = rusqlite::Connection::open(d.path().join("ws.db")).unwrap();
    let find = "SELECT args_digest FROM journal WHERE run_id = ?1 AND kind = 'module'";
    let mut digest: Vec<u8> = db.query_row(find, [&p.run_id], |r| r.get(0)).unwrap();
    assert_eq!(digest.len(), 32);
    for b in &mut digest[8..] {
        *b = !*b;
    }
    let changed = db
        .execute(
            "UPDATE journal SET args_digest = ?2 WHERE run_id = ?1 AND kind = 'module'",
            rusqlite::params![p.run_id, digest],
        )
        .unwrap();
    assert_eq!(changed, 1);
    drop(db);
    let r2 = resume(&rt, &ws, &p, Answer::Approved(json!("yes")));
    assert_eq!(r2.status, RunStatus::Failed, "{}", describe(&r2));
    let err = r2.error.clone().unwrap_or_default();
    assert!(
        err.contains("nondeterministic replay") && err.contains("ws:gate.ask"),
        "{}",
        describe(&r2)
    );
    assert_eq!(
        gate.asks.load(Ordering::SeqCst),
        1,
        "the replay never asked"
    );
}

/// An answer is bound to the payload the operator saw: a replay whose
/// module asks about something else (here the comment changed outside the
/// journal, with the same arguments) fails as nondeterministic, and the
/// module does not act on the other comment.
#[test]
fn an_answer_applies_only_to_the_payload_it_was_given_for() {
    let (_d, ws, rt, gate) = setup();
    *gate.comment.lock().unwrap() = "looks good".into();
    let r = exec(
        &rt,
        &ws,
        "import { post } from \"ws:gate\";\nconsole.log(post());",
    );
    assert_eq!(r.status, RunStatus::Waiting, "{}", describe(&r));
    let p = ws.interrupts().pending().unwrap().remove(0);
    assert_eq!(p.payload, r#"{"comment":"looks good"}"#);
    *gate.comment.lock().unwrap() = "rm -rf everything".into();
    let r2 = resume(&rt, &ws, &p, Answer::Approved(json!(true)));
    assert_eq!(r2.status, RunStatus::Failed, "{}", describe(&r2));
    let err = r2.error.clone().unwrap_or_default();
    assert!(
        err.contains("nondeterministic replay")
            && err.contains("looks good")
            && err.contains("rm -rf everything"),
        "{}",
        describe(&r2)
    );
    assert!(gate.posted.lock().unwrap().is_empty(), "nothing was posted");
    assert_eq!(s(&r2.stdout), "");
}

#[test]
fn recorded_module_results_are_not_executed_again() {
    let (_d, ws, rt, gate) = setup();
    let src = r#"
import { send, ask } from "ws:gate";
const n = send("mail");
ask("x");
console.log("sent", n);
"#;
    let r = exec(&rt, &ws, src);
    assert_eq!(r.status, RunStatus::Waiting, "{}", describe(&r));
    let p = ws.interrupts().pending().unwrap().remove(0);
    let r2 = resume(&rt, &ws, &p, Answer::Approved(json!(1)));
    assert_eq!(r2.status, RunStatus::Completed, "{}", describe(&r2));
    assert_eq!(s(&r2.stdout), "sent 1\n");
    assert_eq!(gate.sends.load(Ordering::SeqCst), 1, "send ran once");
}

#[test]
fn runs_are_durable_by_default_and_ephemeral_on_request() {
    let (_d, ws, rt, _gate) = setup();
    let env = BTreeMap::new();
    for (on, journalled) in [(None, true), (Some(OnInterrupt::Fail), false)] {
        let r = rt
            .exec(
                ws.clone(),
                r#"import { ask } from "ws:gate"; import { writeFileSync } from "node:fs"; writeFileSync("/work/f", "x"); try { ask(1) } catch (e) {}"#,
                ExecOptions {
                    backend: "js".into(),
                    env: env.clone(),
                    on_interrupt: on,
                    ..Default::default()
                },
            )
            .unwrap()
            .wait();
        let status = if journalled {
            RunStatus::Waiting
        } else {
            RunStatus::Completed
        };
        assert_eq!(r.status, status, "{on:?}: {}", describe(&r));
        assert_eq!(
            !ws.journal().entries(&r.run_id).unwrap().is_empty(),
            journalled
        );
    }
}

fn async_ask(args: Value, ctx: &mut CallContext) -> ModuleFuture<'_> {
    Box::pin(async move {
        tokio::task::yield_now().await;
        let id = ctx.call_id().to_owned();
        let answer = ctx.interrupt(json!({"what": args[0]}))?;
        Ok(json!({"answer": answer, "call": id}))
    })
}

#[test]
fn async_host_functions_get_the_call_context_too() {
    let (_d, ws) = workspace();
    let rt = runtime();
    let info = FunctionInfo {
        name: "ask-async".into(),
        params: vec![],
        result: None,
        docs: String::new(),
    };
    rt.modules()
        .register(
            "ws:later",
            Arc::new(AsyncModule::new().function(info, async_ask)),
        )
        .unwrap();
    let r = exec(
        &rt,
        &ws,
        r#"import { askAsync } from "ws:later"; console.log(JSON.stringify(askAsync("ship")));"#,
    );
    assert_eq!(r.status, RunStatus::Waiting, "{}", describe(&r));
    let p = ws.interrupts().pending().unwrap().remove(0);
    assert_eq!(p.payload, r#"{"what":"ship"}"#);
    let r2 = resume(&rt, &ws, &p, Answer::Approved(json!("yes")));
    assert_eq!(r2.status, RunStatus::Completed, "{}", describe(&r2));
    assert_eq!(
        s(&r2.stdout),
        format!("{{\"answer\":\"yes\",\"call\":\"{}\"}}\n", p.call_id)
    );
}

#[test]
fn recover_fails_orphaned_runs_that_cannot_replay() {
    let (_d, ws, rt, _gate) = setup();
    // Owned by a process of another machine whose lease has run out.
    for (id, backend) in [("box-1", "container"), ("js-1", "js")] {
        ws.runs()
            .create_durable(
                &computer_store::NewRun {
                    id,
                    backend,
                    source: "true",
                    options: "{}",
                },
                &computer_store::DurableRun {
                    on_interrupt: OnInterrupt::Fail,
                    spec: None,
                    owner: "elsewhere:1:1",
                    lease: std::time::Duration::ZERO,
                },
            )
            .unwrap();
    }
    std::thread::sleep(std::time::Duration::from_millis(5));
    let recovered = rt.recover(ws.clone()).unwrap();
    let failed: Vec<String> = recovered
        .iter()
        .filter_map(|r| match r {
            computer_runtime::Recovered::Failed { run_id } => Some(run_id.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(failed, ["box-1", "js-1"]);
    let container = ws.runs().get("box-1").unwrap().unwrap();
    assert_eq!(container.status, RunStatus::Failed);
    assert!(
        container
            .error
            .as_deref()
            .unwrap()
            .contains("may have taken effect"),
        "{:?}",
        container.error
    );
    let js = ws.runs().get("js-1").unwrap().unwrap();
    assert!(
        js.error
            .as_deref()
            .unwrap()
            .contains("on_interrupt is \"fail\"")
    );
    // A second recovery finds nothing left to do.
    assert!(rt.recover(ws.clone()).unwrap().is_empty());
}

/// Bytes no two chunks of which are alike.
fn distinct_bytes(len: usize, salt: u8) -> Vec<u8> {
    let mut x: u32 = 0x9e37_79b9 ^ u32::from(salt);
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            (x >> 24) as u8
        })
        .collect()
}

#[test]
fn large_reads_are_journalled_by_chunk_reference_and_replay_exactly() {
    let (_d, ws, rt, _gate) = setup();
    let original = distinct_bytes(1 << 20, 1);
    ws.write("/work/big.bin", &original, &Default::default())
        .unwrap();
    let src = r#"
import { readFileSync } from "node:fs";
import { ask } from "ws:gate";
const sum = (d) => d.reduce((a, b) => (a * 31 + b) % 1000003, 0);
const first = readFileSync("big.bin");
console.log("first", first.length, sum(first));
ask("go");
const second = readFileSync("big.bin");
console.log("second", second.length, sum(second));
"#;
    let r = exec(&rt, &ws, src);
    assert_eq!(r.status, RunStatus::Waiting, "{}", describe(&r));
    let rows = ws.journal().entries(&r.run_id).unwrap();
    let read = rows
        .iter()
        .find(|row| row.kind == EntryKind::Fs && row.name == "read")
        .unwrap_or_else(|| panic!("a read row: {rows:?}"));
    let recorded = read.result.as_ref().map_or(0, Vec::len);
    assert!(
        recorded < 1024,
        "a 1 MiB read is recorded as {recorded} bytes, not as chunk references"
    );
    // The file changes while the run waits: its old chunks stay for the
    // journal, so the replayed first read still sees the old bytes.
    let replacement = distinct_bytes(1 << 20, 2);
    ws.write("/work/big.bin", &replacement, &Default::default())
        .unwrap();
    let p = ws.interrupts().pending().unwrap().remove(0);
    let r2 = resume(&rt, &ws, &p, Answer::Approved(json!(true)));
    assert_eq!(r2.status, RunStatus::Completed, "{}", describe(&r2));
    let out = s(&r2.stdout);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert!(lines[0].starts_with("first 1048576 "), "{out}");
    assert!(lines[1].starts_with("second 1048576 "), "{out}");
    assert_ne!(
        lines[0].split(' ').nth(2),
        lines[1].split(' ').nth(2),
        "the second read saw the new content: {out}"
    );
    // Once the run has ended its journal pins are gone. The run's before
    // tree (kept for `undo`) still holds the old content until gc drops
    // it; then only the new file's chunks are left.
    ws.gc(0).unwrap();
    let usage = ws.usage().unwrap();
    assert!(
        usage.stored_bytes < (3 << 19),
        "old chunks were not released: {usage:?}"
    );
}
