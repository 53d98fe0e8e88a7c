//! The gate and policy files (issue 38): `computer policy set|show|check|rm`
//! and its path, command and limit rules, through the CLI, MCP and the
//! library (a `Gate` of the embedder's own).

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use computer_store::{Action, Decision, Gate, Narrowing, Workspace};
use computer_tests::{Ws, component_cache_dir, describe, run_command, text};

const POLICY: &str = r#"
[[paths]]
glob = "/secrets/**"
access = "deny"
reason = "secrets are off limits"

[[paths]]
glob = "/etc/**"
access = "read-only"

[[commands]]
pattern = "rm -rf /"

[[commands]]
name = "shutdown"
reason = "not here"

[limits.shell]
timeout_ms = 5000
"#;

fn run(ws: &Ws, args: &[&str]) -> std::process::Output {
    let mut cmd = ws.command(args);
    cmd.env("COMPUTER_CACHE_DIR", component_cache_dir());
    run_command(&mut cmd, b"")
}

pub(crate) fn with_policy() -> Ws {
    let ws = Ws::new();
    ws.ok(&[
        "exec",
        "mkdir -p /secrets /etc && echo k > /secrets/key && echo c > /etc/conf",
    ]);
    std::fs::write(ws.host("policy.toml"), POLICY).unwrap();
    let out = ws.ok(&["policy", "set", "policy.toml"]);
    assert!(
        out.starts_with("policy set: 2 path rules, 2 command rules"),
        "{out}"
    );
    ws
}

#[test]
fn path_rules_refuse_changes_in_place_symlinks_included() {
    let ws = with_policy();
    let out = run(
        &ws,
        &[
            "exec",
            "echo x > /secrets/key; rm -rf /secrets; echo y > /etc/conf; ln -s /secrets /s; \
             echo z > /s/key; mv /secrets /moved; echo ok > /ok; cat /secrets/key /etc/conf",
        ],
    );
    assert_eq!(text(&out.stdout), "k\nc\n", "{}", describe(&["exec"], &out));
    let err = text(&out.stderr);
    assert_eq!(err.matches("Operation not permitted").count(), 4, "{err}");
    assert_eq!(err.matches("Read-only file system").count(), 1, "{err}");
    assert_eq!(ws.cat("/ok"), "ok\n");
    // The CLI's own commands are gated too.
    let (code, msg) = ws.err_with(&["fs", "write", "/secrets/new"], "x");
    assert_eq!(code, "EPERM", "{msg}");
    assert!(msg.contains("secrets are off limits"), "{msg}");
    // Each refusal is in the audit log as a gate decision.
    let audit = ws.json(&["audit"]);
    let gate: Vec<_> = audit["audit"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["operation"] == "gate")
        .map(|r| {
            (
                r["target"].as_str().unwrap().to_owned(),
                r["outcome"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert!(
        gate.contains(&("/secrets/key".into(), "denied".into())),
        "{gate:?}"
    );
    assert!(
        gate.contains(&("/etc/conf".into(), "narrowed".into())),
        "{gate:?}"
    );
}

#[test]
fn command_rules_deny_runs_and_check_says_so_without_running() {
    let ws = with_policy();
    let rev = ws.rev();
    for script in [
        "rm -rf /",
        "sudo rm -fr /",
        "echo a && bash -c 'rm -r -f /'",
        "/sbin/shutdown now",
    ] {
        let out = run(&ws, &["exec", script]);
        assert!(!out.status.success(), "{script}");
        let err = text(&out.stderr);
        assert!(
            err.contains("EPERM") && err.contains("denied"),
            "{script}: {err}"
        );
    }
    assert_eq!(ws.rev(), rev, "a denied run changes nothing");
    let out = run(&ws, &["policy", "check", "ls; rm -fr / ; shutdown -h now"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stdout),
        "denied: rm -fr /: \"rm -rf /\" is denied by the policy\n\
         denied: shutdown -h now: the command shutdown is denied by the policy: not here\n"
    );
    let out = run(&ws, &["policy", "check", "rm -rf /tmp/x; echo 'rm -rf /'"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        text(&out.stdout),
        "allowed: no command rule denies this script\n"
    );
    // Limits narrow a run (never widen): the run's record says so.
    let out = run(
        &ws,
        &[
            "--json",
            "exec",
            "--id",
            "narrow-1",
            "--timeout",
            "60",
            "true",
        ],
    );
    assert!(out.status.success(), "{}", describe(&["exec"], &out));
    let r = ws.json(&["runs", "show", "narrow-1"]);
    assert_eq!(r["options"]["timeout_ms"], 5000, "{r}");
    let out = run(
        &ws,
        &[
            "--json",
            "exec",
            "--id",
            "narrow-2",
            "--timeout",
            "2",
            "true",
        ],
    );
    assert!(out.status.success());
    assert_eq!(
        ws.json(&["runs", "show", "narrow-2"])["options"]["timeout_ms"],
        2000
    );
    // Without the policy the same script runs.
    ws.ok(&["policy", "rm"]);
    assert!(ws.ok(&["policy", "show"]).starts_with("no policy"));
    ws.ok(&["exec", "echo x > /secrets/key"]);
    assert_eq!(ws.cat("/secrets/key"), "x\n");
}

#[test]
fn a_bad_policy_is_refused_and_nothing_is_set() {
    let ws = Ws::new();
    std::fs::write(
        ws.host("bad.toml"),
        "[[paths]]\nglob = \"x\"\naccess = \"deny\"\n",
    )
    .unwrap();
    let (code, msg) = ws.err(&["policy", "set", "bad.toml"]);
    assert_eq!(code, "EINVAL");
    assert!(msg.contains("must start with /"), "{msg}");
    std::fs::write(
        ws.host("bad.toml"),
        "[[paths]]\nglob = \"/x\"\naccess = \"maybe\"\n",
    )
    .unwrap();
    assert_eq!(ws.err(&["policy", "set", "bad.toml"]).0, "EINVAL");
    assert!(ws.ok(&["policy", "show"]).starts_with("no policy"));
}

/// The library: a gate of the embedder's own sees every exec and change,
/// and its narrowing makes a run read-only.
#[test]
fn an_embedders_gate_sees_execs_and_changes_and_narrows() {
    struct Counting {
        execs: AtomicUsize,
        changes: AtomicUsize,
    }
    impl Gate for Counting {
        fn check(&self, action: &Action<'_>) -> Decision {
            match action {
                Action::Exec(e) if e.source.contains("readonly-please") => {
                    self.execs.fetch_add(1, Ordering::SeqCst);
                    Decision::Narrow(Narrowing {
                        read_only: true,
                        reason: "asked".into(),
                        ..Default::default()
                    })
                }
                Action::Exec(_) => {
                    self.execs.fetch_add(1, Ordering::SeqCst);
                    Decision::Allow
                }
                Action::Change { path, .. } if path.starts_with("/no") => {
                    Decision::Deny(format!("{path} is not for you"))
                }
                Action::Change { .. } => {
                    self.changes.fetch_add(1, Ordering::SeqCst);
                    Decision::Allow
                }
            }
        }
    }
    let gate = Arc::new(Counting {
        execs: AtomicUsize::new(0),
        changes: AtomicUsize::new(0),
    });
    let ws = Arc::new(Workspace::in_memory().unwrap());
    ws.add_gate(gate.clone());
    let rt = computer_runtime::Runtime::with_builtin_guests(computer_runtime::RuntimeConfig {
        cache_dir: Some(component_cache_dir()),
        ..Default::default()
    })
    .unwrap();
    let exec = |src: &str| {
        rt.exec(
            ws.clone(),
            src,
            computer_runtime::ExecOptions {
                backend: "shell".into(),
                ..Default::default()
            },
        )
        .unwrap()
        .wait()
    };
    let r = exec("echo a > /a; echo b > /b; echo n > /no 2>&1 || echo refused");
    assert_eq!(String::from_utf8_lossy(&r.stdout), "refused\n");
    assert_eq!(gate.execs.load(Ordering::SeqCst), 1);
    assert!(gate.changes.load(Ordering::SeqCst) >= 2);
    let e = ws.write("/nothing", b"1", &Default::default()).unwrap_err();
    assert_eq!(e.code, computer_store::Errno::EPERM);
    assert!(e.message.contains("is not for you"), "{e}");
    let r = exec("echo readonly-please; echo c > /c");
    assert!(
        String::from_utf8_lossy(&r.stderr).contains("Read-only file system"),
        "{r:?}"
    );
    assert!(ws.read("/c").is_err());
}
