//! Crash injection: a child process (`durable-child`) runs durable agent
//! code that appends to a file, prints, calls a counting HTTP server on
//! 127.0.0.1 (safe calls with an idempotency key, and calls marked unsafe
//! to repeat) and waits for an approval. The test SIGKILLs it at random
//! points, then recovers and answers (killing those processes too, now and
//! then) until the run ends, and checks that it did exactly what one
//! execution does:
//!
//! - the files hold each step once, in order (`/burst` gets 30 appends a
//!   step with no output between them: under group commit a kill loses
//!   an uncommitted tail of them, which the replay makes again);
//! - the output has no duplicates;
//! - the server saw every safe call (by idempotency key) and each unsafe
//!   call at most once; an unsafe call it saw is never reported lost;
//! - the run completed.
//!
//! A second set of trials does the same while another process keeps creating,
//! renaming and removing directories (`durable-child … churn`), which the run
//! also lists.
//!
//! `DURABLE_CRASH_TRIALS` sets the number of trials (default 30; the
//! nightly-sized run uses 200). `DURABLE_CRASH_SEED` replays one sequence.

use computer_tests::component_cache_dir;
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use computer_store::{RunStatus, Workspace};

const STEPS: usize = 9;
/// Appends each step makes with no output between them: under group commit
/// they share transactions, so a kill loses an uncommitted tail of them,
/// which the replay must make again, once.
const BURST: usize = 30;

/// The agent code. Steps 1, 4, 7 make a safe call; 2, 5, 8 an unsafe one;
/// step 4 also waits for an approval. A little computing between steps
/// spreads the kill points over the whole run.
fn script() -> String {
    format!(
        r#"
import {{ appendFileSync }} from "node:fs";
import {{ post, approve }} from "ws:remote";
function work() {{ let x = 0; for (let k = 0; k < 20000; k++) x += k % 7; return x; }}
for (let i = 0; i < {STEPS}; i++) {{
  appendFileSync("/log", `step ${{i}}\n`);
  for (let k = 0; k < {BURST}; k++) appendFileSync("/burst", `${{i}}.${{k}}\n`);
  console.log(`line ${{i}}`);
  work();
  if (i % 3 === 1) post("safe", i);
  if (i % 3 === 2) {{
    try {{ post("unsafe", i); }}
    catch (e) {{ appendFileSync("/lost", `${{i}} ${{e.code}}\n`); }}
  }}
  if (i === 4) approve("half way");
}}
console.log("done");
"#
    )
}

/// The agent code, also listing `/churn`, which another process keeps
/// changing: the listing is journalled like any read, and must not disturb
/// the run's own effects.
fn churn_script() -> String {
    script()
        .replace(
            "import { appendFileSync }",
            "import { appendFileSync, readdirSync }",
        )
        .replace(
            "  work();\n",
            "  work();\n  try { readdirSync(\"/churn\", { recursive: true }); } catch (e) {}\n",
        )
}

/// A `durable-child … churn` process, killed when dropped.
struct Churn(Child);

impl Churn {
    fn start(db: &Path) -> Churn {
        // Created first, so the two processes don't race to set it up.
        drop(Workspace::open(db).unwrap());
        let child = Command::new(env!("CARGO_BIN_EXE_durable-child"))
            .arg(db)
            .arg("churn")
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("spawn durable-child churn");
        Churn(child)
    }
}

impl Drop for Churn {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Requests the server received: (idempotency key, body), in order.
type Seen = Arc<Mutex<Vec<(String, String)>>>;

fn counting_server() -> (String, Seen) {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1");
    let addr = listener.local_addr().unwrap().to_string();
    let seen: Seen = Arc::default();
    let log = seen.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let log = log.clone();
            std::thread::spawn(move || {
                let mut reader = BufReader::new(stream.try_clone().unwrap());
                let (mut key, mut len) = (String::new(), 0usize);
                loop {
                    let mut line = String::new();
                    if reader.read_line(&mut line).unwrap_or(0) == 0 {
                        return;
                    }
                    let line = line.trim_end();
                    if line.is_empty() {
                        break;
                    }
                    if let Some((name, value)) = line.split_once(':') {
                        match name.to_ascii_lowercase().as_str() {
                            "idempotency-key" => key = value.trim().to_owned(),
                            "content-length" => len = value.trim().parse().unwrap_or(0),
                            _ => {}
                        }
                    }
                }
                let mut body = vec![0; len];
                if reader.read_exact(&mut body).is_err() {
                    return;
                }
                let count = {
                    let mut seen = log.lock().unwrap();
                    seen.push((key.clone(), String::from_utf8_lossy(&body).into_owned()));
                    seen.iter().filter(|(k, _)| *k == key).count()
                };
                let reply = count.to_string();
                let _ = write!(
                    stream,
                    "HTTP/1.1 200 OK\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{reply}",
                    reply.len()
                );
            });
        }
    });
    (addr, seen)
}

/// A small deterministic generator, so a failing trial can be replayed.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

struct Trial<'a> {
    dir: PathBuf,
    addr: &'a str,
    run_id: String,
    rng: Lcg,
    log: Vec<String>,
}

impl Trial<'_> {
    fn child(&self, args: &[&str]) -> Child {
        Command::new(env!("CARGO_BIN_EXE_durable-child"))
            .arg(self.dir.join("ws.db"))
            .args(args)
            .env("COUNTER_ADDR", self.addr)
            .env("COMPUTER_TEST_COMMAND_WASM", test_command_wasm())
            .env("COMPUTER_CACHE_DIR", component_cache_dir())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("spawn durable-child")
    }

    /// Runs the child; with probability `kill_odds`/100, kills it after a
    /// random delay (if it is still running by then).
    fn run(&mut self, args: &[&str], kill_odds: u64, max_delay_ms: u64) {
        let mut child = self.child(args);
        let kill = self.rng.below(100) < kill_odds;
        if kill {
            let delay = Duration::from_millis(self.rng.below(max_delay_ms));
            let start = Instant::now();
            while start.elapsed() < delay {
                if child.try_wait().unwrap().is_some() {
                    break;
                }
                std::thread::sleep(Duration::from_millis(2));
            }
            let _ = child.kill(); // SIGKILL
            self.log.push(format!("{args:?} killed after {delay:?}"));
        }
        let status = child.wait().unwrap();
        if !kill {
            self.log.push(format!("{args:?} exited {status}"));
        }
    }

    /// Starts the run with `durable-child … EXEC RUN_ID SCRIPT`, killing
    /// processes at random points, then recovers and answers its approvals
    /// (killing those processes too, now and then) until it has ended.
    fn drive(&mut self, exec: &str, script: &str) {
        let run_id = self.run_id.clone();
        // A whole attempt takes about 100 ms here (debug build, cached
        // component): kill points are drawn over that span.
        // The first attempt: almost always killed somewhere.
        self.run(&[exec, &run_id, script], 90, 150);
        for round in 0..40 {
            match self.status() {
                // Killed before the run was even recorded: nothing happened; start over.
                None => self.run(&[exec, &run_id, script], 50, 150),
                Some(RunStatus::Running) => {
                    self.run(&["recover"], if round < 6 { 50 } else { 0 }, 150)
                }
                Some(RunStatus::Waiting) => {
                    let ws = Workspace::open(self.dir.join("ws.db")).unwrap();
                    let pending = ws.interrupts().pending().unwrap();
                    drop(ws);
                    match pending.first() {
                        Some(p) => {
                            let call = p.call_id.clone();
                            self.run(
                                &["respond", &run_id, &call],
                                if round < 6 { 40 } else { 0 },
                                150,
                            )
                        }
                        // Answered, but the answering process died before resuming.
                        None => self.run(&["recover"], 0, 0),
                    }
                }
                Some(_) => break,
            }
        }
    }

    fn status(&self) -> Option<RunStatus> {
        let ws = Workspace::open(self.dir.join("ws.db")).unwrap();
        ws.runs().get(&self.run_id).unwrap().map(|r| r.status)
    }
}

fn trial(
    n: u64,
    seed: u64,
    addr: &str,
    seen: &Seen,
    (script_path, churn): (&Path, bool),
) -> Result<(), String> {
    let dir = tempfile::tempdir().unwrap();
    let mut t = Trial {
        dir: dir.path().to_path_buf(),
        addr,
        run_id: format!("{}-{n}", if churn { "churn" } else { "trial" }),
        rng: Lcg(seed),
        log: Vec::new(),
    };
    let _churn = churn.then(|| Churn::start(&t.dir.join("ws.db")));
    let script = script_path.to_str().unwrap().to_owned();
    let run_id = t.run_id.clone();
    t.drive("exec", &script);
    let ws = Workspace::open(t.dir.join("ws.db")).unwrap();
    let record = ws.runs().get(&run_id).unwrap().ok_or("no run record")?;
    let history = t.log.join("\n  ");
    let fail = |what: String| Err(format!("{what}\n  history:\n  {history}"));
    if record.status != RunStatus::Completed {
        return fail(format!(
            "the run ended {} ({:?}): {}",
            record.status,
            record.error,
            String::from_utf8_lossy(&record.stderr)
        ));
    }
    let file = String::from_utf8(ws.read("/log").unwrap()).unwrap();
    let want: String = (0..STEPS).map(|i| format!("step {i}\n")).collect();
    if file != want {
        return fail(format!("/log is not one execution's:\n{file}"));
    }
    let burst = String::from_utf8(ws.read("/burst").unwrap()).unwrap();
    let want: String = (0..STEPS)
        .flat_map(|i| (0..BURST).map(move |k| format!("{i}.{k}\n")))
        .collect();
    if burst != want {
        return fail(format!("/burst is not one execution's:\n{burst}"));
    }
    let out = String::from_utf8_lossy(&record.stdout).into_owned();
    let want_out: String = (0..STEPS)
        .map(|i| format!("line {i}\n"))
        .chain(["done\n".to_owned()])
        .collect();
    if out != want_out {
        return fail(format!("the output is not one execution's:\n{out}"));
    }
    let lost: Vec<String> = ws
        .read("/lost")
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .unwrap_or_default()
        .lines()
        .map(str::to_owned)
        .collect();
    // Requests of this trial, by body ("safe 1", "unsafe 2", ...).
    let prefix = format!("{run_id}/");
    let mut keys_by_body: BTreeMap<String, BTreeMap<String, usize>> = BTreeMap::new();
    for (key, body) in seen.lock().unwrap().iter() {
        if key.starts_with(&prefix) {
            *keys_by_body
                .entry(body.clone())
                .or_default()
                .entry(key.clone())
                .or_default() += 1;
        }
    }
    for i in 0..STEPS {
        if i % 3 == 1 {
            let body = format!("safe {i}");
            let keys = keys_by_body.get(&body).map_or(0, BTreeMap::len);
            if keys != 1 {
                return fail(format!(
                    "safe call {i} reached the server under {keys} keys: {keys_by_body:?}"
                ));
            }
        }
        if i % 3 == 2 {
            let body = format!("unsafe {i}");
            let requests: usize = keys_by_body.get(&body).map_or(0, |k| k.values().sum());
            let was_lost = lost.iter().any(|l| l.starts_with(&format!("{i} ")));
            if requests > 1 {
                return fail(format!("unsafe call {i} was sent {requests} times"));
            }
            if requests == 0 && !was_lost {
                return fail(format!(
                    "unsafe call {i} completed without reaching the server"
                ));
            }
            if was_lost
                && !lost
                    .iter()
                    .any(|l| l == &format!("{i} may-have-taken-effect"))
            {
                return fail(format!(
                    "unsafe call {i} failed with the wrong error: {lost:?}"
                ));
            }
        }
    }
    Ok(())
}

#[test]
fn runs_survive_random_kills_with_exactly_one_execution_of_effects() {
    let trials: u64 = std::env::var("DURABLE_CRASH_TRIALS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(30);
    let base_seed: u64 = std::env::var("DURABLE_CRASH_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0x5eed);
    let (addr, seen) = counting_server();
    let scripts = tempfile::tempdir().unwrap();
    let script_path = scripts.path().join("agent.js");
    std::fs::write(&script_path, script()).unwrap();
    // Warm the compiled-component cache so kill points land in the run,
    // not in compilation.
    {
        let dir = tempfile::tempdir().unwrap();
        let status = Command::new(env!("CARGO_BIN_EXE_durable-child"))
            .arg(dir.path().join("ws.db"))
            .args(["exec", "warmup"])
            .arg(&script_path)
            .env("COUNTER_ADDR", &addr)
            .env("COMPUTER_CACHE_DIR", component_cache_dir())
            .status()
            .unwrap();
        assert_eq!(
            status.code(),
            Some(75),
            "the warm-up run parks at its approval"
        );
    }
    let mut failures = Vec::new();
    for n in 0..trials {
        let seed = base_seed.wrapping_add(n.wrapping_mul(0x9e37_79b9));
        if let Err(e) = trial(n, seed, &addr, &seen, (&script_path, false)) {
            failures.push(format!("trial {n} (DURABLE_CRASH_SEED={base_seed}): {e}"));
        }
    }
    let churn_path = scripts.path().join("agent-churn.js");
    std::fs::write(&churn_path, churn_script()).unwrap();
    for n in 0..(trials / 3).max(1) {
        let seed = base_seed.wrapping_add(0xc4u64 << 32).wrapping_add(n);
        if let Err(e) = trial(n, seed, &addr, &seen, (&churn_path, true)) {
            failures.push(format!(
                "trial {n} with a concurrent writer (DURABLE_CRASH_SEED={base_seed}): {e}"
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {trials} trials (and the concurrent-writer ones) failed:\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

fn test_command_wasm() -> PathBuf {
    computer_tests::workspace_root().join("guests/target/wasm32-wasip2/release/test_command.wasm")
}

/// A shell script whose steps run command components: each step appends
/// through one command, pipes a file through two more, and prints. Their
/// host calls share the run's journal with the shell's.
const SHELL_SCRIPT: &str = r#"
for i in 0 1 2 3 4 5 6 7 8; do
  test_command append /log "step $i"
  test_command read /log | test_command upper > /upper
  echo "line $i"
done
echo done
"#;

/// One shell trial: killed at random points and recovered until it ends;
/// then the file and the output must be one execution's.
fn shell_trial(n: u64, seed: u64, addr: &str, script_path: &Path) -> Result<(), String> {
    let dir = tempfile::tempdir().unwrap();
    let mut t = Trial {
        dir: dir.path().to_path_buf(),
        addr,
        run_id: format!("shell-{n}"),
        rng: Lcg(seed),
        log: Vec::new(),
    };
    let script = script_path.to_str().unwrap().to_owned();
    let run_id = t.run_id.clone();
    t.drive("exec-shell", &script);
    let ws = Workspace::open(t.dir.join("ws.db")).unwrap();
    let record = ws.runs().get(&run_id).unwrap().ok_or("no run record")?;
    let history = t.log.join("\n  ");
    let fail = |what: String| Err(format!("{what}\n  history:\n  {history}"));
    if record.status != RunStatus::Completed {
        return fail(format!(
            "the run ended {} ({:?}): {}",
            record.status,
            record.error,
            String::from_utf8_lossy(&record.stderr)
        ));
    }
    let want: String = (0..STEPS).map(|i| format!("step {i}\n")).collect();
    let file = String::from_utf8(ws.read("/log").unwrap()).unwrap();
    if file != want {
        return fail(format!("/log is not one execution's:\n{file}"));
    }
    let upper = String::from_utf8(ws.read("/upper").unwrap()).unwrap();
    if upper != want.to_uppercase() {
        return fail(format!("/upper is not one execution's:\n{upper}"));
    }
    let out = String::from_utf8_lossy(&record.stdout).into_owned();
    let want_out: String = (0..STEPS)
        .map(|i| format!("line {i}\n"))
        .chain(["done\n".to_owned()])
        .collect();
    if out != want_out {
        return fail(format!("the output is not one execution's:\n{out}"));
    }
    Ok(())
}

#[test]
fn shell_runs_calling_commands_survive_random_kills() {
    assert!(
        test_command_wasm().is_file(),
        "{} is missing: run scripts/build-guests.sh",
        test_command_wasm().display()
    );
    let trials: u64 = std::env::var("DURABLE_CRASH_TRIALS")
        .ok()
        .and_then(|v| v.parse().ok())
        .map_or(12, |n: u64| (n / 2).max(1));
    let (addr, _seen) = counting_server();
    let scripts = tempfile::tempdir().unwrap();
    let script_path = scripts.path().join("agent.sh");
    std::fs::write(&script_path, SHELL_SCRIPT).unwrap();
    // Warm the compile cache (the shell and the command) outside the trials.
    {
        let dir = tempfile::tempdir().unwrap();
        let status = Command::new(env!("CARGO_BIN_EXE_durable-child"))
            .arg(dir.path().join("ws.db"))
            .args(["exec-shell", "warmup"])
            .arg(&script_path)
            .env("COUNTER_ADDR", &addr)
            .env("COMPUTER_TEST_COMMAND_WASM", test_command_wasm())
            .env("COMPUTER_CACHE_DIR", component_cache_dir())
            .status()
            .unwrap();
        assert_eq!(status.code(), Some(0), "the warm-up run completes");
    }
    let mut failures = Vec::new();
    for n in 0..trials {
        let seed = 0x5eed_0000 + n;
        if let Err(e) = shell_trial(n, seed, &addr, &script_path) {
            failures.push(format!("trial {n} (seed {seed}): {e}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
