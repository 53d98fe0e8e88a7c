//! The host memory ceiling over MCP and the CLI (issue 41 item 13): execs
//! reserve their memory limit plus 32 MiB (a shell run: its `/tmp` is the
//! workspace's) from
//! `--host-memory`; one that does not fit waits for others to end, or is
//! refused naming the knob; one bigger than the whole ceiling is refused at
//! once.

use super::*;
use computer_tests::run_command;

/// Says it is in, then runs until the test writes `/go`.
const HOLD: &str = "echo in > /started; until [ -e /go ]; do sleep 0.05; done; echo held";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn execs_past_the_host_memory_ceiling_wait_or_are_refused_naming_it() {
    let ws = Ws::new();
    // An exec of 64 MiB reserves 96 MiB: one fits in 150.
    let s = Session::start(&ws, &["--backends", "shell", "--host-memory", "150"]).await;
    let big = s
        .err("exec", args(json!({"command": "echo no", "memoryMb": 128})))
        .await;
    for knob in [
        "--host-memory",
        "COMPUTER_HOST_MEMORY",
        "160 MiB",
        "150 MiB",
    ] {
        assert!(big.contains(knob), "{knob} not in: {big}");
    }

    let exec = |command: &str, timeout_ms: u64| json!({"command": command, "memoryMb": 64, "timeoutMs": timeout_ms});
    let holder = s.ok("exec", exec(HOLD, 600_000));
    let rest = async {
        // A state, polled: the holder has its memory and runs.
        while !ws.exists("/started") {}
        // It cannot wait long enough (1 ms).
        let late = s.err("exec", args(exec("echo late", 1))).await;
        assert!(late.contains("not enough host memory"), "{late}");
        assert!(late.contains("--host-memory"), "{late}");
        // This one waits for the holder to end: it reads what exists only
        // once the holder may end.
        let waiter = s.ok("exec", exec("cat /go", 600_000));
        let release = async {
            ws.put("/go", "go\n");
        };
        tokio::join!(waiter, release).0
    };
    let (held, waited) = tokio::join!(holder, rest);
    assert_eq!(held["stdout"], "held\n", "{held}");
    assert_eq!(
        (waited["exitCode"].as_i64(), waited["stdout"].as_str()),
        (Some(0), Some("go\n")),
        "{waited}"
    );
    s.stop().await;
}

#[test]
fn the_cli_refuses_a_run_bigger_than_the_ceiling_with_a_code() {
    let ws = Ws::new();
    let out = run_command(
        ws.exec_command(&["--backend", "shell", "--memory", "64", "echo no"])
            .env("COMPUTER_HOST_MEMORY", "90"),
        b"",
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.starts_with("computer: ENOMEM: "), "{stderr}");
    assert!(stderr.contains("COMPUTER_HOST_MEMORY"), "{stderr}");
}
