//! Commands as background jobs (issue 32): `python3 … &` runs beside the
//! foreground, `wait`, `$!`, `kill %1` and exit codes are bash's. GNU bash
//! with the host's CPython is the oracle, run on the same script in a
//! temporary directory. The scripts order themselves through files, never
//! through how long something takes, so a loaded machine gives the same
//! output.

use std::process::{Child, Command, Stdio};

use computer_store::{RunStatus, Workspace};
use computer_tests::{Ws, component_cache_dir, run_command, text};

/// `bash -c SCRIPT` on the host, in a fresh directory: stdout and exit code.
fn bash(script: &str) -> (String, Option<i32>) {
    let dir = tempfile::tempdir().unwrap();
    let out = run_command(
        Command::new("bash")
            .arg("-c")
            .arg(script)
            .current_dir(dir.path()),
        b"",
    );
    (text(&out.stdout), out.status.code())
}

/// The same script in a fresh workspace (cwd `/`), with a timeout that
/// turns a job that never ends into exit code 124.
fn ours(script: &str) -> (String, Option<i32>, String) {
    ours_in(&Ws::new(), script)
}

fn ours_in(ws: &Ws, script: &str) -> (String, Option<i32>, String) {
    let mut cmd = ws.command(&["exec", "--timeout", "60", script]);
    cmd.env("COMPUTER_CACHE_DIR", component_cache_dir());
    let out = run_command(&mut cmd, b"");
    (text(&out.stdout), out.status.code(), text(&out.stderr))
}

fn same_as_bash(script: &str) {
    let (want, want_code) = bash(script);
    let (got, code, stderr) = ours(script);
    assert_eq!(got, want, "script: {script}\nstderr: {stderr}");
    assert_eq!(code, want_code, "script: {script}\nstderr: {stderr}");
}

/// `PROGRAM FILE` (a fixture of `tests/fixtures/background-jobs/`) on the
/// host, in a fresh directory, against the same in a fresh workspace.
fn same_as_host(program: &str, file: &str) {
    let source = std::fs::read_to_string(
        computer_tests::workspace_root()
            .join("tests/fixtures/background-jobs")
            .join(file),
    )
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(file), &source).unwrap();
    let want = run_command(Command::new(program).arg(file).current_dir(dir.path()), b"");
    let ws = Ws::new();
    ws.ok_with(&["fs", "write", &format!("/{file}")], source.as_bytes());
    let (got, code, stderr) = ours_in(&ws, &format!("{program} /{file}"));
    assert_eq!(got, text(&want.stdout), "stderr: {stderr}");
    assert_eq!(code, want.status.code(), "stderr: {stderr}");
}

/// A Python program that waits for the file `go` and then prints.
const WAITS_FOR_GO: &str = r#"python3 -c 'import os, time
while not os.path.exists("go"): time.sleep(0.01)
print("job saw go")'"#;

#[test]
fn a_job_runs_while_the_foreground_goes_on() {
    // Before jobs ran beside the foreground, the job blocked the shell and
    // `touch go` never came: the run timed out.
    same_as_bash(&format!(
        "rm -f go; {WAITS_FOR_GO} & echo foreground; touch go; wait; echo end"
    ));
}

#[test]
fn two_jobs_and_a_foreground_command_meet_through_files() {
    // Each job waits for the other's file; the foreground waits for both.
    let script = r#"rm -f a b
python3 -c 'import os, time
open("a", "w").close()
while not os.path.exists("b"): time.sleep(0.01)
print("one done")' > one.out &
python3 -c 'import os, time
while not os.path.exists("a"): time.sleep(0.01)
open("b", "w").close()
print("two done")' > two.out &
wait
cat one.out two.out"#;
    same_as_bash(script);
}

#[test]
fn wait_gives_a_jobs_exit_code_and_kill_ends_a_sleeping_one() {
    same_as_bash(r#"python3 -c 'import sys; sys.exit(3)' & wait $!; echo "status $?""#);
    // A job asleep in the host (a 10-minute sleep) is killed, not waited
    // for: the run's 60 s timeout would otherwise end it with 124.
    same_as_bash(
        r#"python3 -c 'import time; time.sleep(600)' & kill %1; wait %1; echo "killed $?""#,
    );
    same_as_bash(
        r#"python3 -c 'import time; time.sleep(600)' & pid=$!; kill $pid; wait $pid; echo "killed $?""#,
    );
}

#[test]
fn timeout_ends_a_command_that_runs_too_long() {
    // bashkit's `timeout` races the command against a timer on the shell's
    // task: a command that blocked the shell ran to its end (exit 0).
    same_as_bash(
        r#"timeout 1 python3 -c 'import time; time.sleep(600)'; echo "timed out $?"; timeout 60 python3 -c 'print(42)'; echo "ok $?""#,
    );
}

#[test]
fn a_pipeline_can_be_a_job() {
    same_as_bash(
        r#"seq 1 20000 | python3 -c 'import sys; print(sum(int(l) for l in sys.stdin))' > sum.txt & seq 3 | wc -l; wait; cat sum.txt"#,
    );
}

#[test]
fn a_job_in_a_script_the_script_runs_by_name() {
    // `bash start.sh`: the job is in the file, not in the command line.
    let script = format!(
        "rm -f go; printf '%s\\n' '{}' > start.sh; bash start.sh",
        format!("{WAITS_FOR_GO} & echo started; touch go; wait").replace('\'', r"'\''")
    );
    same_as_bash(&script);
}

#[test]
fn a_python_program_runs_beside_the_child_it_started() {
    // The parent sleeps until its child made a file, waits for it with a
    // timeout, then terminates it: CPython's output on the host is the
    // oracle. Before children ran beside their parent, the parent's sleep
    // loop never saw the file and the run timed out.
    same_as_host("python3", "popen_beside.py");
}

#[test]
fn a_node_program_runs_beside_the_child_it_spawned() {
    // node 20 on the host is the oracle.
    same_as_host("node", "spawn_beside.js");
}

/// Two jobs that each take 300 MiB, the second while the first holds its.
const TWO_HOLDERS: &str = r#"rm -f /a /b
python3 -c '
import os, time
x = bytearray(300 << 20)
open("/a", "w").close()
while not os.path.exists("/b"): time.sleep(0.01)
print("one held 300 MiB")
' &
python3 -c '
import os, time
while not os.path.exists("/a"): time.sleep(0.01)
try:
    y = bytearray(300 << 20)
    print("two got 300 MiB too")
except MemoryError:
    print("two: MemoryError")
open("/b", "w").close()
'
wait"#;

#[test]
fn commands_alive_at_once_share_the_runs_memory() {
    // Each command used to get what the run had left when it started, so
    // two at once could hold twice the run's cap. No bash oracle: bash has
    // no such cap; the run's own limit is what is checked.
    let ws = Ws::new();
    let run = |memory: &str| {
        let mut cmd = ws.command(&["exec", "--timeout", "120", "--memory", memory, TWO_HOLDERS]);
        cmd.env("COMPUTER_CACHE_DIR", component_cache_dir());
        let out = run_command(&mut cmd, b"");
        (text(&out.stdout), text(&out.stderr))
    };
    let (out, err) = run("512");
    assert_eq!(out, "two: MemoryError\none held 300 MiB\n", "stderr: {err}");
    let (out, err) = run("1024");
    assert_eq!(
        out, "two got 300 MiB too\none held 300 MiB\n",
        "stderr: {err}"
    );
}

/// `computer exec SCRIPT` started in the background.
fn spawn_exec(ws: &Ws, script: &str) -> Child {
    let mut cmd = ws.command(&["exec", "--timeout", "120", script]);
    cmd.env("COMPUTER_CACHE_DIR", component_cache_dir())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    cmd.spawn().expect("starting computer exec")
}

#[test]
fn a_run_whose_commands_ran_side_by_side_is_not_resumed_but_fails_saying_why() {
    let ws = Ws::new();
    // The job and the foreground wait for `/go`, which never comes: the
    // run is killed while both are running, after `/started` committed the
    // journal rows up to it.
    let mut child = spawn_exec(
        &ws,
        "python3 -c 'import os, time\nwhile not os.path.exists(\"/go\"): time.sleep(0.01)' & \
         echo yes > /started; while [ ! -e /go ]; do sleep 0.05; done",
    );
    let store = Workspace::open(ws.db()).unwrap();
    while store.stat("/started").is_err() {
        assert!(
            child.try_wait().unwrap().is_none(),
            "the run ended before it wrote /started"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    drop(store);
    let mut cmd = ws.command(&["recover"]);
    cmd.env("COMPUTER_CACHE_DIR", component_cache_dir());
    let out = run_command(&mut cmd, b"");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let store = Workspace::open(ws.db()).unwrap();
    let runs = store.runs().list(Default::default()).unwrap();
    assert_eq!(runs.len(), 1, "{runs:?}");
    let run = &runs[0];
    assert_eq!(run.status, RunStatus::Failed, "{run:?}");
    let error = run.error.clone().unwrap_or_default();
    assert!(
        error.contains("commands ran beside each other"),
        "the reason names the jobs: {error}"
    );
}
