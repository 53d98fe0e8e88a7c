//! One run: read the request and the WASI inputs, build a bashkit `Bash` over the
//! workspace, run the script with live output, and turn the result into an exit code.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use bashkit::{Bash, ExecOptions, LimitExceeded};

use crate::limits::Limits;
use crate::output::{self, Meter, Stream};
use crate::wasi::cli::{environment, stdin};
use crate::workspace_commands::{self, WorkspaceCommand};
use crate::workspace_fs::WorkspaceFs;
use crate::{RunOutcome, RunRequest, commands};

/// `$0` when the request has no argv (bash's own name, as `bash -c` without a name).
const DEFAULT_ARG0: &str = "bash";
/// The host name `hostname` and `uname -n` report (the user, `whoami` and `id`'s,
/// comes from `computer:workspace/process`, as every guest's does).
const HOSTNAME: &str = "computer";
/// `$HOME` when the run's environment has none: the workspace root, which exists, so
/// `cd` and `~` work. It is a shell variable only: the environment stays as given.
const DEFAULT_HOME: &str = "/";

/// Exit code for a usage problem of the run itself (bad limit variables).
const EXIT_USAGE: i32 = 2;
/// Exit code when the script was stopped by a limit (commands, loops, output...).
const EXIT_LIMIT: i32 = 1;

fn outcome(exit_code: i32) -> RunOutcome {
    RunOutcome {
        exit_code,
        value_json: None,
    }
}

fn report(message: &str) {
    output::write(Stream::Stderr, message.as_bytes());
}

pub fn run(request: RunRequest) -> RunOutcome {
    let mut env: HashMap<String, String> = environment::get_environment().into_iter().collect();
    let limits = match Limits::take_from(&mut env) {
        Ok(limits) => limits,
        Err(e) => {
            report(&format!("bash: {e}\n"));
            return outcome(EXIT_USAGE);
        }
    };
    let mut argv = request.argv.into_iter();
    let arg0 = argv.next().unwrap_or_else(|| DEFAULT_ARG0.into());
    let options = ExecOptions::new()
        .arg0(arg0)
        .positional(argv.collect::<Vec<String>>())
        .stdin(read_stdin());
    let fs = Arc::new(WorkspaceFs::new());
    let mut bash = build_shell(&fs, env, &limits, &request.cwd);

    crate::background::note_script(&request.source, &request.cwd);
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            report(&format!("bash: cannot start the shell: {e}\n"));
            return outcome(1);
        }
    };
    let breached = Arc::new(AtomicBool::new(false));
    let out = Meter::new(Stream::Stdout, limits.max_output_bytes, breached.clone());
    let err = Meter::new(Stream::Stderr, limits.max_output_bytes, breached.clone());
    let result = runtime.block_on(async {
        let execution = bash
            .execute(&request.source)
            .options(options)
            .stdout_fn(|bytes| {
                let r = out.deliver(&bytes);
                async move { r }
            })
            .stderr_fn(|bytes| {
                let r = err.deliver(&bytes);
                async move { r }
            });
        tokio::select! {
            result = execution => result,
            never = flush_appends(&fs) => match never {},
        }
    });
    let all_written = fs.appends().finish_run();
    let code = match result {
        // An append the script was told had succeeded did not reach the workspace.
        Ok(r) if r.exit_code == 0 && !all_written => 1,
        Ok(r) => r.exit_code,
        // The sink already said why.
        Err(_) if breached.load(std::sync::atomic::Ordering::Relaxed) => EXIT_LIMIT,
        Err(e) => failure(e),
    };
    // The instance is thrown away after the run; freeing the interpreter piece by
    // piece would be wasted time.
    std::mem::forget(bash);
    std::mem::forget(runtime);
    outcome(code)
}

/// A `Bash` over the workspace, with the run's environment, limits and commands.
fn build_shell(
    fs: &Arc<WorkspaceFs>,
    env: HashMap<String, String>,
    limits: &Limits,
    cwd: &str,
) -> Bash {
    let given_home = env.contains_key("HOME");
    let given_user = env.get("USER").cloned();
    let who = crate::computer::workspace::process::get_identity();
    let mut builder = Bash::builder()
        .fs(fs.clone())
        .cwd(bashkit::normalize_path(std::path::Path::new(cwd)))
        .username(who.user.as_str())
        .hostname(HOSTNAME)
        .limits(limits.execution())
        .memory_limits(Limits::memory())
        .session_limits(Limits::session())
        // The workspace is the whole filesystem: no synthetic /etc, /proc or /usr/bin.
        .rootfs(false)
        .builtin_filter(commands::keep)
        .command_resolver(Arc::new(crate::unavailable::Resolver))
        .before_exec(crate::cond_tests::hook())
        .before_exec(crate::pipe_stages::hook())
        .before_tool(crate::printf_nul::hook())
        .before_tool(crate::appends::hook(fs.clone()));
    for (key, value) in env {
        builder = builder.env(key, value);
    }
    for (name, builtin) in commands::replacements(fs) {
        builder = builder.builtin(name, builtin);
    }
    builder = builder.command("cat", commands::streaming_cat(fs));
    builder = builder.command("head", commands::streaming_head(fs));
    builder = builder.command("wc", commands::streaming_wc(fs));
    builder = builder.command("seq", crate::seq::Seq);
    for (name, to_stdout) in [("gunzip", false), ("zcat", true)] {
        let fs = fs.clone();
        builder = builder.command(name, crate::gunzip::Gunzip { fs, to_stdout });
    }
    // After the guest's own: a command the workspace registered under a
    // built-in's name (`grep`) is the one its owner wants.
    for name in workspace_commands::listed() {
        builder = builder.command(name, WorkspaceCommand { fs: fs.clone() });
    }
    let mut bash = builder.build();
    crate::bin_stubs::install(bash.builtin_names());
    // bashkit sets and exports `USER` for the virtual identity, over a given one, and
    // defaults `HOME` to a directory the workspace lacks; bash exports neither unless
    // it was given them.
    let mut state = bash.shell_state();
    // bashkit starts every shell as uid 1000 with parent 0; a shell started as a
    // command has a parent of its own. (`$$` stays bashkit's 1.)
    for (name, value) in [("UID", who.uid), ("EUID", who.uid), ("PPID", who.ppid)] {
        state.variables.insert(name.into(), value.to_string());
    }
    if !given_home {
        state.variables.insert("HOME".into(), DEFAULT_HOME.into());
    }
    match given_user {
        Some(user) => {
            state.env.insert("USER".into(), user.clone());
            state.variables.insert("USER".into(), user);
        }
        None => {
            state.env.remove("USER");
        }
    }
    // A bash started by a login has PATH in its environment, and programs it runs
    // (node's `process.env.PATH`, npm, Python's `shutil.which`) expect to find it.
    if !state.env.contains_key("PATH")
        && let Some(path) = state.variables.get("PATH").cloned()
    {
        state.env.insert("PATH".into(), path);
    }
    bash.restore_shell_state(&state);
    bash
}

/// Send held-back appends once they are `appends::MAX_AGE` old, for as long as the
/// script runs (see `appends`).
async fn flush_appends(fs: &WorkspaceFs) -> std::convert::Infallible {
    loop {
        tokio::time::sleep(crate::appends::MAX_AGE).await;
        fs.appends().flush_stale();
    }
}

/// Report an error that ended the script, and the exit code it ends with.
fn failure(e: bashkit::Error) -> i32 {
    match e {
        bashkit::Error::ResourceLimit(limit) => {
            report(&format!("bash: {}\n", limit_message(&limit)));
            EXIT_LIMIT
        }
        bashkit::Error::Parse { message, line, .. } => {
            if line > 0 {
                report(&format!("bash: line {line}: {message}\n"));
            } else {
                report(&format!("bash: {message}\n"));
            }
            2
        }
        other => {
            report(&format!("bash: {other}\n"));
            1
        }
    }
}

/// A limit breach, naming the variable that raises it when there is one.
fn limit_message(limit: &LimitExceeded) -> String {
    use crate::limits::{
        ENV_MAX_COMMANDS, ENV_MAX_FUNCTION_DEPTH, ENV_MAX_LOOP_ITERATIONS, HARD_MAX_FUNCTION_DEPTH,
    };
    let knob = match limit {
        LimitExceeded::MaxCommands(_) => Some(ENV_MAX_COMMANDS),
        LimitExceeded::MaxLoopIterations(_) | LimitExceeded::MaxTotalLoopIterations(_) => {
            Some(ENV_MAX_LOOP_ITERATIONS)
        }
        // bashkit never goes deeper than 16, whatever is asked.
        LimitExceeded::MaxFunctionDepth(depth) if *depth >= HARD_MAX_FUNCTION_DEPTH => {
            return format!("{limit} (the shell's hard limit)");
        }
        LimitExceeded::MaxFunctionDepth(_) => Some(ENV_MAX_FUNCTION_DEPTH),
        _ => None,
    };
    match knob {
        Some(knob) => format!("{limit} (raise it with {knob})"),
        None => limit.to_string(),
    }
}

/// The run's whole stdin. bashkit takes stdin up front; the host's is finite.
fn read_stdin() -> Vec<u8> {
    let stream = stdin::get_stdin();
    let mut data = Vec::new();
    while let Ok(chunk) = stream.blocking_read(64 << 10) {
        data.extend_from_slice(&chunk);
    }
    data
}
