//! A guest blocked in a sleep stops at the run's limits (item 6): Python's
//! `time.sleep`, `select.select` and `asyncio.sleep` wait inside the host,
//! where the epoch callback that enforces them never runs.

use std::time::Duration;

use computer_tests::corpus::{Outcome, run_with_timeout};
use computer_tests::{Ws, component_cache_dir, text};

fn exec(ws: &Ws, args: &[&str]) -> Outcome {
    let mut all = vec!["exec"];
    all.extend_from_slice(args);
    let mut cmd = ws.command(&all);
    cmd.env("COMPUTER_CACHE_DIR", component_cache_dir());
    // Far past the run's own timeout: a sleep that outlives it fails here.
    run_with_timeout(cmd, Duration::from_secs(240))
}

const SLEEPS: [(&str, &str); 3] = [
    ("time.sleep", "import time\ntime.sleep(1e6)\n"),
    ("select", "import select\nselect.select([], [], [], 1e6)\n"),
    (
        "asyncio",
        "import asyncio\nasyncio.run(asyncio.sleep(1e6))\n",
    ),
];

#[test]
fn python_sleeps_end_at_the_timeout() {
    let ws = Ws::new();
    for (name, script) in SLEEPS {
        ws.put(
            "/s.py",
            format!("print('start', flush=True)\n{script}print('woke')\n"),
        );
        let o = exec(&ws, &["--timeout", "3", "python3 /s.py"]);
        assert_eq!(o.error, None, "{name}: the run outlived its timeout");
        assert_eq!(o.exit, 124, "{name}: {}", text(&o.stderr));
        assert!(!text(&o.stdout).contains("woke"), "{name}");
        // The python backend runs the source itself.
        let source = format!("print('start', flush=True)\n{script}print('woke')\n");
        let o = exec(&ws, &["--backend", "python", "--timeout", "15", &source]);
        assert_eq!(o.error, None, "{name}: the python run outlived its timeout");
        assert_eq!(o.exit, 124, "{name} (python backend): {}", text(&o.stderr));
        // Not whether `start` was printed: on a slow enough machine the
        // timeout may come before the program gets that far.
        assert!(!text(&o.stdout).contains("woke"), "{name} (python backend)");
    }
    let runs = ws.json(&["runs"]);
    assert!(
        runs["runs"]
            .as_array()
            .unwrap()
            .iter()
            .all(|r| r["exit_code"] == 124),
        "{runs}"
    );
}

#[test]
fn a_signal_ends_a_sleeping_python() {
    use std::process::Stdio;
    let ws = Ws::new();
    // The script says it is about to sleep through the workspace (a run's
    // changes are committed within milliseconds), so the signal comes while
    // it sleeps, not before.
    ws.put(
        "/s.py",
        "open('/started', 'w').write('1')\nimport time\ntime.sleep(1e6)\n",
    );
    let mut child = ws
        .command(&["exec", "--timeout", "900", "python3 /s.py"])
        .env("COMPUTER_CACHE_DIR", component_cache_dir())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("starting computer exec");
    let mut started = false;
    for _ in 0..3000 {
        if ws.exists("/started") {
            started = true;
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(started, "the script never started");
    let killed = std::process::Command::new("kill")
        .args(["-s", "INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    for _ in 0..1200 {
        if let Some(status) = child.try_wait().unwrap() {
            assert_eq!(status.code(), Some(130));
            assert_eq!(ws.json(&["runs"])["runs"][0]["status"], "cancelled");
            return;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let _ = child.kill();
    panic!("a sleeping python outlived SIGINT by two minutes");
}
