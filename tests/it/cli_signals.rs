//! A signal to `computer exec` cancels its run: the process exits with
//! 128 + the signal, the run is recorded `cancelled`, and `recover` does
//! not run it again (issue 18, item 12).

use std::io::{BufRead, BufReader};
use std::process::{Child, Stdio};
use std::time::Duration;

use computer_tests::{Ws, component_cache_dir, describe, one_json};

/// Appends a numbered line to /log, then says so, until it is stopped.
const APPENDER: &str = "for i in $(seq 1 100000); do echo $i >> /log; echo tick; sleep 0.05; done";

/// `computer exec APPENDER`, once it has appended at least one line.
fn start_appender(ws: &Ws) -> Child {
    let mut child = ws
        .command(&["exec", "--timeout", "300", APPENDER])
        .env("COMPUTER_CACHE_DIR", component_cache_dir())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starting computer exec");
    let mut first = String::new();
    BufReader::new(child.stdout.as_mut().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert_eq!(first, "tick\n", "the run did not start");
    child
}

fn signal(child: &Child, name: &str) {
    let status = std::process::Command::new("kill")
        .args(["-s", name, &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success(), "kill -s {name}");
}

/// Waits for `child`, at most a minute.
fn wait(mut child: Child) -> std::process::Output {
    for _ in 0..600 {
        if child.try_wait().unwrap().is_some() {
            return child.wait_with_output().unwrap();
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let _ = child.kill();
    panic!("computer exec did not exit within a minute of the signal");
}

fn lines(ws: &Ws) -> usize {
    ws.cat("/log").lines().count()
}

#[test]
fn a_signal_cancels_the_run_and_recover_leaves_it_alone() {
    for (name, code) in [("INT", 130), ("TERM", 143), ("HUP", 129)] {
        let ws = Ws::new();
        let child = start_appender(&ws);
        signal(&child, name);
        let out = wait(child);
        assert_eq!(
            out.status.code(),
            Some(code),
            "SIG{name}: {}",
            describe(&["exec"], &out)
        );
        let runs = ws.json(&["runs"]);
        let run = &runs["runs"][0];
        assert_eq!(run["status"], "cancelled", "SIG{name}: {runs}");
        assert_eq!(run["exit_code"], 130, "SIG{name}: {runs}");

        let appended = lines(&ws);
        assert!(appended >= 1);
        let out = ws
            .command(&["--json", "recover"])
            .env("COMPUTER_CACHE_DIR", component_cache_dir())
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", describe(&["recover"], &out));
        assert_eq!(
            one_json(&out.stdout)["recovered"],
            serde_json::json!([]),
            "SIG{name}: recover must not take up a cancelled run"
        );
        assert_eq!(
            lines(&ws),
            appended,
            "SIG{name}: the run went on after recover"
        );
        assert_eq!(ws.json(&["runs"])["runs"][0]["status"], "cancelled");
    }
}
