//! Command components through the public API: registered with
//! `Runtime::register_command` or stored in the workspace, called by name
//! from shell scripts (argv, env, cwd, stdin, pipes, exit codes, `command
//! -v`, shebangs, limits, nesting, stale locks) and run directly by the
//! `command` backend. The command is `tests/fixtures/test-command`.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use computer_runtime::{
    CommandOrigin, CommandSpec, ExecError, ExecOptions, Limits, RUN_OVERHEAD, RunResult, RunStatus,
    Runtime, RuntimeConfig, SHELL_GUEST,
};
use computer_store::{MkdirOptions, NewCommand, Workspace, WriteOptions};

use crate::support::{config, describe, ensure_default_engine, s, wait_watched};

fn test_command() -> computer_runtime::Bytes {
    static BYTES: std::sync::OnceLock<computer_runtime::Bytes> = std::sync::OnceLock::new();
    BYTES
        .get_or_init(|| {
            let path = std::env::var_os("COMPUTER_TEST_COMMAND_WASM")
                .map(PathBuf::from)
                .unwrap_or_else(|| {
                    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                        .join("../../guests/target/wasm32-wasip2/release/test_command.wasm")
                });
            std::fs::read(&path)
                .unwrap_or_else(|e| {
                    panic!(
                        "cannot read {} ({e}): run scripts/build-guests.sh to build it",
                        path.display()
                    )
                })
                .into()
        })
        .clone()
}

/// The shell, the `command` backend, and `test_command` registered.
fn runtime() -> Runtime {
    runtime_with(config())
}

fn runtime_with(config: RuntimeConfig) -> Runtime {
    let shell = SHELL_GUEST.expect("the shell guest is not embedded: run scripts/build-guests.sh");
    ensure_default_engine();
    let rt = Runtime::new(config).expect("runtime");
    rt.register_guest("shell", shell).expect("shell");
    rt.register_backend(computer_runtime::command_backend())
        .expect("command backend");
    rt.register_command(CommandSpec {
        name: "test_command".into(),
        description: "the test command".into(),
        component: test_command(),
        mounts: Vec::new(),
        sha256: None,
        own_cwd: false,
    })
    .expect("register");
    rt
}

fn workspace() -> Arc<Workspace> {
    let ws = Workspace::in_memory().expect("workspace");
    ws.mkdir("/work", &MkdirOptions::default()).expect("mkdir");
    Arc::new(ws)
}

fn exec_with(
    rt: &Runtime,
    ws: &Arc<Workspace>,
    backend: &str,
    source: &str,
    o: ExecOptions,
) -> RunResult {
    let options = ExecOptions {
        backend: backend.into(),
        cwd: Some("/work".into()),
        ..o
    };
    wait_watched(rt.exec(ws.clone(), source, options).expect("exec starts"))
}

fn sh(rt: &Runtime, ws: &Arc<Workspace>, script: &str) -> RunResult {
    exec_with(rt, ws, "shell", script, ExecOptions::default())
}

fn sh_ok(rt: &Runtime, ws: &Arc<Workspace>, script: &str) -> String {
    let r = sh(rt, ws, script);
    assert_eq!(r.exit_code, 0, "{script}\n{}", describe(&r));
    s(&r.stdout)
}

#[test]
fn argv_env_and_cwd_reach_the_command() {
    let (rt, ws) = (runtime(), workspace());
    let out = sh_ok(
        &rt,
        &ws,
        "mkdir -p sub && cd sub && export GREETING='hi there' && LOCAL=1 \
         test_command argv a 'b c' '' && test_command env GREETING && test_command pwd \
         && test_command env LOCAL; echo \"unexported: $?\"; NOTE=x; test_command env NOTE; echo \"$?\"",
    );
    assert_eq!(
        out,
        "[test_command]\n[argv]\n[a]\n[b c]\n[]\nhi there\n/work/sub\nunexported: 3\n3\n"
    );
}

#[test]
fn stdin_from_pipes_heredocs_and_redirects() {
    let (rt, ws) = (runtime(), workspace());
    let out = sh_ok(
        &rt,
        &ws,
        "printf 'from a pipe\\n' | test_command upper\n\
         test_command upper <<EOF\nfrom a here-doc\nEOF\n\
         echo 'from a file' > in.txt; test_command upper < in.txt\n\
         test_command upper < /dev/null; echo \"empty: $?\"",
    );
    assert_eq!(out, "FROM A PIPE\nFROM A HERE-DOC\nFROM A FILE\nempty: 0\n");
}

#[test]
fn output_streams_into_pipelines_both_ways() {
    let (rt, ws) = (runtime(), workspace());
    // 200,000 lines cross several hand-overs; `head` leaving early must not
    // hang the producer; a command between two shell stages streams too.
    let out = sh_ok(
        &rt,
        &ws,
        "test_command yes 200000 | wc -l\n\
         test_command yes 10000000 | head -n 2\n\
         seq 1 50000 | test_command cat | tail -n 1\n\
         test_command stderr to-stderr 2>&1 | test_command upper\n\
         test_command yes 3 > out.txt; cat out.txt | wc -l\n\
         x=$(test_command echo substituted); echo \"[$x]\"\n\
         test_command echo backgrounded > bg.txt & wait; cat bg.txt",
    );
    assert_eq!(
        out,
        "200000\ny\ny\n50000\nTO-STDERR\n3\n[substituted]\nbackgrounded\n"
    );
}

#[test]
fn exit_codes_survive() {
    let (rt, ws) = (runtime(), workspace());
    let out = sh_ok(
        &rt,
        &ws,
        "test_command exit 7; echo $?; test_command exit 0 && echo ok; \
         test_command exit 200 || echo \"failed $?\"; if test_command exit 1; then echo no; else echo \"else $?\"; fi",
    );
    assert_eq!(out, "7\nok\nfailed 200\nelse 1\n");
    let r = sh(&rt, &ws, "set -e; test_command exit 4; echo unreachable");
    assert_eq!(r.exit_code, 4, "{}", describe(&r));
    assert_eq!(s(&r.stdout), "");
}

#[test]
fn command_v_which_type_and_unknown_names() {
    let (rt, ws) = (runtime(), workspace());
    let out = sh_ok(
        &rt,
        &ws,
        "command -v test_command; which test_command; type test_command >/dev/null && echo typed; \
         command -v nosuch || echo \"none $?\"",
    );
    assert_eq!(
        out,
        "/usr/bin/test_command\n/usr/bin/test_command\ntyped\nnone 1\n"
    );
    let r = sh(&rt, &ws, "nosuch_cmd --flag");
    assert_eq!(r.exit_code, 127, "{}", describe(&r));
    assert!(s(&r.stderr).contains("nosuch_cmd: command not found"));
}

#[test]
fn shebang_scripts_run_with_their_interpreter() {
    let (rt, ws) = (runtime(), workspace());
    let out = sh_ok(
        &rt,
        &ws,
        "printf '#!/usr/bin/env test_command\\nline two\\n' > tool; chmod +x tool; ./tool x y\n\
         printf '#!/bin/bash\\necho \"bash got $1\"\\n' > b.sh; chmod +x b.sh; ./b.sh one",
    );
    assert_eq!(
        out,
        "script ./tool args [\"x\", \"y\"] lines 2\nbash got one\n"
    );
}

#[test]
fn files_are_shared_with_the_script_both_ways() {
    let (rt, ws) = (runtime(), workspace());
    let out = sh_ok(
        &rt,
        &ws,
        "echo one >> log.txt; echo two >> log.txt; test_command read log.txt\n\
         test_command write made.txt 'by the command'; cat made.txt; echo\n\
         echo shell > /tmp/shared.txt 2>/dev/null || { mkdir -p /tmp && echo shell > /tmp/shared.txt; }; \
         test_command read /tmp/shared.txt",
    );
    assert_eq!(out, "one\ntwo\nby the command\nshell\n");
    assert_eq!(ws.read("/work/made.txt").unwrap(), b"by the command");
}

#[test]
fn stale_locks_are_removed_however_the_command_ends() {
    let (rt, ws) = (runtime(), workspace());
    let out = sh_ok(
        &rt,
        &ws,
        "test_command lock db.lock db; ls -d db.lock 2>/dev/null || echo gone; cat db; echo",
    );
    assert_eq!(out, "gone\nlocked\n");
    let limits = Limits {
        timeout: Duration::from_secs(2),
        ..Limits::default()
    };
    let r = exec_with(
        &rt,
        &ws,
        "shell",
        "test_command lock x.lock x spin",
        ExecOptions {
            limits: Some(limits),
            ..ExecOptions::default()
        },
    );
    assert_eq!(r.status, RunStatus::TimedOut, "{}", describe(&r));
    assert_eq!(ws.read("/work/x").unwrap(), b"locked");
    assert!(
        ws.stat("/work/x.lock").is_err(),
        "the lock of a killed command is gone"
    );
}

#[test]
fn a_runaway_command_is_stopped_by_the_run_limits() {
    let (rt, ws) = (runtime(), workspace());
    let limits = Limits {
        timeout: Duration::from_secs(2),
        memory_bytes: 96 << 20,
        ..Limits::default()
    };
    let options = || ExecOptions {
        limits: Some(limits.clone()),
        ..ExecOptions::default()
    };
    let r = exec_with(
        &rt,
        &ws,
        "shell",
        "test_command alloc; echo \"after $?\"",
        options(),
    );
    assert_eq!(r.exit_code, 0, "{}", describe(&r));
    assert_eq!(s(&r.stdout), "after 1\n");
    assert!(
        s(&r.stderr).contains("memory limit exceeded"),
        "{}",
        describe(&r)
    );
    // The host's line, without the Rust runtime's own out-of-memory lines.
    assert!(
        !s(&r.stderr).contains("memory allocation of") && !s(&r.stderr).contains("RUST_BACKTRACE"),
        "{}",
        describe(&r)
    );

    let r = exec_with(
        &rt,
        &ws,
        "shell",
        "test_command spin; echo never",
        options(),
    );
    assert_eq!(r.status, RunStatus::TimedOut, "{}", describe(&r));
    assert_eq!(r.exit_code, 124);
    assert_eq!(s(&r.stdout), "");
}

#[test]
fn commands_may_start_commands_up_to_a_depth() {
    let (rt, ws) = (runtime(), workspace());
    assert_eq!(sh_ok(&rt, &ws, "test_command nest 3"), "bottom\n");
    let r = sh(&rt, &ws, "test_command nest 50");
    assert_eq!(r.exit_code, 5, "{}", describe(&r));
    assert!(
        s(&r.stdout).starts_with(&format!(
            "refused at {}: StartError::TooDeep({})",
            50 - computer_runtime::MAX_COMMAND_DEPTH + 1,
            computer_runtime::MAX_COMMAND_DEPTH
        )),
        "{}",
        describe(&r)
    );
}

#[test]
fn the_command_backend_runs_one_directly() {
    let (rt, ws) = (runtime(), workspace());
    let r = exec_with(
        &rt,
        &ws,
        "command",
        "test_command echo 'a b' c",
        ExecOptions::default(),
    );
    assert_eq!(r.exit_code, 0, "{}", describe(&r));
    assert_eq!(s(&r.stdout), "a b c\n");
    assert_eq!(r.backend, "command");

    let r = exec_with(
        &rt,
        &ws,
        "command",
        "test_command",
        ExecOptions {
            args: vec!["exit".into(), "9".into()],
            ..ExecOptions::default()
        },
    );
    assert_eq!(r.exit_code, 9, "{}", describe(&r));

    let r = exec_with(
        &rt,
        &ws,
        "command",
        "test_command upper",
        ExecOptions {
            stdin: b"piped in".to_vec(),
            ..ExecOptions::default()
        },
    );
    assert_eq!(s(&r.stdout), "PIPED IN");

    let err = rt
        .exec(
            ws.clone(),
            "nosuch arg",
            ExecOptions {
                backend: "command".into(),
                ..ExecOptions::default()
            },
        )
        .err()
        .expect("an unknown command does not start");
    assert!(
        matches!(&err, ExecError::CommandNotFound { name } if name == "nosuch"),
        "{err}"
    );
    assert_eq!(err.exit_code(), 127);
    let err = rt
        .exec(
            ws.clone(),
            "  ",
            ExecOptions {
                backend: "command".into(),
                ..ExecOptions::default()
            },
        )
        .err()
        .expect("an empty command line does not start");
    assert!(err.to_string().contains("no command given"), "{err}");
}

#[test]
fn workspace_commands_are_listed_and_shadow_the_runtimes() {
    let (rt, ws) = (runtime(), workspace());
    let bytes = test_command();
    ws.commands()
        .add(&NewCommand {
            name: "tc2",
            component: &bytes,
            description: "stored in the workspace",
            mounts: &[],
        })
        .unwrap();
    let listed = rt.commands(&ws).unwrap();
    let names: Vec<(&str, CommandOrigin)> =
        listed.iter().map(|c| (c.name.as_str(), c.origin)).collect();
    assert_eq!(
        names,
        [
            ("tc2", CommandOrigin::Workspace),
            ("test_command", CommandOrigin::Runtime)
        ]
    );
    assert_eq!(sh_ok(&rt, &ws, "tc2 echo stored"), "stored\n");
    // Another workspace does not have it.
    let other = workspace();
    assert_eq!(sh(&rt, &other, "tc2 echo x").exit_code, 127);
    rt.check_command("tc2", &bytes).expect("a command");
    let err = rt
        .check_command("bad", b"not wasm")
        .expect_err("not a component");
    assert!(err.to_string().contains("bad"), "{err}");
}

#[test]
fn durable_runs_with_commands_finish_and_write() {
    let (rt, ws) = (runtime(), workspace());
    ws.write("/work/in.txt", b"abc\n", &WriteOptions::default())
        .unwrap();
    // A durable run (the default) journals the command's host calls with
    // the shell's; the run must end as an ephemeral one would.
    let script = "test_command read in.txt | test_command upper > up.txt; test_command write w.txt x; cat up.txt w.txt";
    let r = sh(&rt, &ws, script);
    assert_eq!(r.exit_code, 0, "{}", describe(&r));
    assert_eq!(s(&r.stdout), "ABC\nx");
}

#[test]
fn a_command_sees_only_its_preopens() {
    let (rt, ws) = (runtime(), workspace());
    // A workspace symlink to a host path resolves inside the workspace.
    ws.symlink("/etc/passwd", "/work/escape").unwrap();
    ws.symlink("../../../../etc/hostname", "/work/climb")
        .unwrap();
    let out = sh(
        &rt,
        &ws,
        "test_command read escape; echo \"abs $?\"; test_command read climb; echo \"rel $?\"; \
         test_command read ../../../../../etc/passwd; echo \"dots $?\"",
    );
    assert_eq!(
        s(&out.stdout),
        "abs 2\nrel 2\ndots 2\n",
        "{}",
        describe(&out)
    );
    assert!(!s(&out.stdout).contains("root:"), "{}", describe(&out));

    // A mount's own symlinks cannot leave the mount.
    let host = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink("/etc/passwd", host.path().join("out")).unwrap();
    std::fs::write(host.path().join("in.txt"), "inside").unwrap();
    rt.register_command(CommandSpec {
        name: "mounted".into(),
        description: "test_command with a mount".into(),
        component: test_command(),
        mounts: vec![computer_runtime::Mount {
            guest_path: "/opt/m".into(),
            source: computer_runtime::MountSource::HostDir(host.path().to_path_buf()),
        }],
        sha256: None,
        own_cwd: false,
    })
    .unwrap();
    let out = sh_ok(
        &rt,
        &ws,
        "mounted read /opt/m/in.txt; echo; mounted read /opt/m/out; echo \"link $?\"; \
         mounted read /opt/m/../../etc/passwd; echo \"dots $?\"; mounted write /opt/m/new x 2>/dev/null; echo \"write $?\"",
    );
    // The write panics in the command (a trap): exit 1.
    assert_eq!(out, "inside\nlink 2\ndots 2\nwrite 1\n");
    assert!(!host.path().join("new").exists());
}

#[test]
fn tmp_of_a_direct_run_is_private_and_capped_by_its_memory() {
    let (rt, ws) = (runtime(), workspace());
    let limits = Limits {
        memory_bytes: 64 << 20,
        ..Limits::default()
    };
    let options = || ExecOptions {
        limits: Some(limits.clone()),
        ..ExecOptions::default()
    };
    let r = exec_with(
        &rt,
        &ws,
        "command",
        "test_command fill /tmp/big 8",
        options(),
    );
    assert_eq!(r.exit_code, 0, "{}", describe(&r));
    assert!(ws.stat("/tmp/big").is_err(), "/tmp is not the workspace's");
    let r = exec_with(
        &rt,
        &ws,
        "command",
        "test_command fill /tmp/big 200",
        options(),
    );
    assert_eq!(r.exit_code, 28, "{}", describe(&r));
    assert!(s(&r.stderr).contains("fill:"), "{}", describe(&r));
    // The next run starts with an empty /tmp.
    let r = exec_with(&rt, &ws, "command", "test_command read /tmp/big", options());
    assert_eq!(r.exit_code, 2, "{}", describe(&r));
}

/// A direct command run may fill its private in-memory `/tmp` (above), so it
/// reserves its memory limit twice from the host memory ceiling; a shell
/// run's `/tmp` is the workspace's, so it reserves its limit once.
#[test]
fn a_direct_run_reserves_host_memory_for_its_private_tmp() {
    let memory = 64 << 20;
    let rt = runtime_with(RuntimeConfig {
        host_memory: memory + RUN_OVERHEAD,
        ..config()
    });
    let ws = workspace();
    let options = || ExecOptions {
        limits: Some(Limits {
            memory_bytes: memory as usize,
            ..Limits::default()
        }),
        ..ExecOptions::default()
    };
    let r = exec_with(&rt, &ws, "shell", "echo fits", options());
    assert_eq!(s(&r.stdout), "fits\n", "{}", describe(&r));
    let refused = rt
        .exec(
            ws.clone(),
            "test_command fill /tmp/big 8",
            ExecOptions {
                backend: "command".into(),
                cwd: Some("/work".into()),
                ..options()
            },
        )
        .err()
        .expect("refused");
    assert!(
        matches!(refused, ExecError::RunTooBig { needed, .. } if needed == 2 * memory + RUN_OVERHEAD),
        "{refused}"
    );
}
