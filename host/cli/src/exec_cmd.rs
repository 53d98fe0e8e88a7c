//! `computer exec` and `computer runs`.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use computer_runtime::{
    Event, ExecError, ExecOptions, LimitNames, Limits, RunHandle, RunStatus, Runtime, RuntimeConfig,
};
use computer_store::{Page, Workspace};
use serde_json::json;

use crate::args::{ExecArgs, PageArgs, RunsCommand};
use crate::error::{CliError, CliResult};
use crate::input::HostInput;
use crate::output::{Out, time_string};
use crate::signals::Interrupts;

impl From<ExecError> for CliError {
    fn from(e: ExecError) -> Self {
        let code = match &e {
            ExecError::Workspace(fs) => fs.code.as_str(),
            ExecError::TooManyRuns { .. } | ExecError::HostMemoryBusy { .. } => "EAGAIN",
            ExecError::RunTooBig { .. } => "ENOMEM",
            ExecError::Cancelled => "ECANCELED",
            ExecError::RunBusy { .. } => "EBUSY",
            ExecError::TooLarge { .. } => "EFBIG",
            ExecError::CommandNotFound { .. } => "ENOENT",
            ExecError::Denied(_) => "EPERM",
            ExecError::Engine(_) | ExecError::Unavailable { .. } => "EIO",
            _ => "EINVAL",
        };
        CliError {
            code: code.to_owned(),
            message: e.to_string(),
        }
    }
}

/// The run's source: inline, or read from `--file` or stdin within the
/// source limit.
fn source_of(args: &ExecArgs, limits: &Limits) -> CliResult<String> {
    let source = args.source();
    let path = match (&args.file, source.as_deref()) {
        (Some(file), _) => file.clone(),
        (None, Some("-")) => PathBuf::from("-"),
        (None, Some(text)) => return Ok(text.to_owned()),
        (None, None) => {
            return Err(CliError::invalid(
                "no source: give it inline, as - for stdin, or with --file PATH",
            ));
        }
    };
    let bytes = HostInput {
        what: "the source",
        path: &path,
        limit: limits.source_bytes,
        hint: "run a program stored in the workspace instead (computer fs write, then exec 'bash /prog.sh')",
        within: Some(limits.timeout),
    }
    .read()?;
    String::from_utf8(bytes).map_err(|_| CliError::invalid("the source is not UTF-8 text"))
}

/// What `--stdin` feeds the run, within the input limit.
fn stdin_of(args: &ExecArgs, limits: &Limits) -> CliResult<Vec<u8>> {
    let Some(path) = &args.stdin else {
        return Ok(Vec::new());
    };
    HostInput {
        what: "stdin",
        path,
        limit: limits.input_bytes,
        hint: "write large input to the workspace (computer fs write /input < FILE) and redirect from it ('cmd < /input')",
        within: Some(limits.timeout),
    }
    .read()
}

/// The longest `--timeout`: a year, in seconds.
const MAX_TIMEOUT_SECS: f64 = 86_400.0 * 365.0;

/// The backend's default limits with the ones `args` sets.
fn limits_of(args: &ExecArgs, mut limits: Limits) -> CliResult<Limits> {
    if let Some(secs) = args.timeout {
        // Each way of being wrong says which bound it crossed: a value too
        // large must not read as one too small.
        let why = if secs.is_nan() {
            Some("not a number".to_owned())
        } else if secs > MAX_TIMEOUT_SECS {
            Some(format!(
                "too large: at most {MAX_TIMEOUT_SECS} seconds (a year)"
            ))
        } else if secs <= 0.0 {
            Some("too small: give seconds above 0".to_owned())
        } else {
            None
        };
        if let Some(why) = why {
            return Err(CliError::invalid(format!(
                "invalid --timeout {secs}: {why}"
            )));
        }
        limits.timeout = Duration::from_secs_f64(secs);
    }
    if let Some(mib) = args.memory {
        if mib == 0 || mib > 64 * 1024 {
            return Err(CliError::invalid(format!(
                "invalid --memory {mib}: give MiB between 1 and 65536"
            )));
        }
        limits.memory_bytes = (mib as usize) << 20;
    }
    Ok(limits)
}

/// The CLI's knobs, named in the limit errors of its runs.
pub fn cli_limit_names() -> LimitNames {
    LimitNames {
        memory: "--memory MIB".into(),
        timeout: "--timeout SECS".into(),
        output: "write large output to a file in the workspace (cmd > /out.txt) and read it \
                 with computer fs cat"
            .into(),
    }
}

/// Runs the code; returns the process exit code (the guest's).
pub fn exec(ws: Workspace, args: ExecArgs, out: Out) -> CliResult<u8> {
    if args.source().as_deref() == Some("-")
        && args.stdin.as_deref().is_some_and(|p| p.as_os_str() == "-")
    {
        return Err(CliError::invalid(
            "stdin cannot carry both the source and --stdin -",
        ));
    }
    let mut env = BTreeMap::new();
    for kv in &args.env {
        let (k, v) = kv.split_once('=').ok_or_else(|| {
            CliError::invalid(format!("invalid --env {kv:?}: expected KEY=VALUE"))
        })?;
        env.insert(k.to_owned(), v.to_owned());
    }
    let (runtime, container_error) = crate::backends::runtime(RuntimeConfig::default(), true)?;
    runtime.register_workspace_modules(&ws)?;
    for g in &args.guests {
        let (name, path) = g.split_once('=').ok_or_else(|| {
            CliError::invalid(format!("invalid --guest {g:?}: expected NAME=PATH"))
        })?;
        runtime.register_guest_file(name, std::path::Path::new(path))?;
    }
    let limits = match runtime.default_limits(&args.backend) {
        Ok(defaults) => limits_of(&args, defaults)?,
        Err(e) => return Err(container_error.map_or_else(|| e.into(), CliError::from)),
    };
    let source = source_of(&args, &limits)?;
    let stdin = stdin_of(&args, &limits)?;
    let options = ExecOptions {
        backend: args.backend.clone(),
        cwd: args.cwd.clone(),
        env,
        program: args
            .file
            .as_ref()
            .and_then(|f| f.file_name())
            .map(|n| n.to_string_lossy().into_owned()),
        args: args.args.clone(),
        stdin,
        input: args.input.clone(),
        limits: Some(limits),
        id: args.id.clone(),
        on_interrupt: args.on_interrupt,
        image: args.image.clone(),
        limit_names: cli_limit_names(),
        read_only: args.read_only,
        allow_hosts: args.allow_hosts.clone(),
    };
    let ws = Arc::new(ws);
    // Before the run exists, so no signal falls between its record and the handler.
    let interrupts = Interrupts::install(ws.clone())?;
    let handle = match runtime.exec(ws.clone(), &source, options) {
        Ok(h) => h,
        // No run happened: say why, with the backend's exit code (125 for
        // a container engine).
        Err(e) if e.exit_code() != 1 => {
            let code = e.exit_code();
            CliError::from(e).print(out.json);
            return Ok(process_exit_code(code));
        }
        Err(e) => return Err(e.into()),
    };
    Ok(follow(&ws, handle, out, Some(&runtime), &interrupts))
}

/// Copies a run's output to ours as it comes (not under `--json`).
pub fn stream(out: Out, mut next: impl FnMut() -> Option<Event>) {
    if out.json {
        return;
    }
    let mut stdout = std::io::stdout();
    let mut stderr = std::io::stderr();
    while let Some(ev) = next() {
        match ev {
            Event::Stdout(b) => {
                let _ = stdout.write_all(&b);
                let _ = stdout.flush();
            }
            Event::Stderr(b) => {
                let _ = stderr.write_all(&b);
                let _ = stderr.flush();
            }
            Event::Exit { .. } => break,
        }
    }
}

/// Streams a run's output as it comes (or prints its result as JSON), and
/// returns the process exit code. A run parked at an interrupt says what it
/// waits for and how to answer; a command not found (exit 127) says which
/// backend of `runtime` could run it, or that none can.
/// A signal cancels the run (`interrupts`), and the process then exits
/// with 128 + the signal's number.
pub fn follow(
    ws: &Workspace,
    handle: RunHandle,
    out: Out,
    runtime: Option<&Runtime>,
    interrupts: &Interrupts,
) -> u8 {
    interrupts.watch(handle.run_id(), handle.killer());
    stream(out, || handle.next_event());
    let result = handle.wait();
    let hint = runtime
        .filter(|_| result.exit_code == computer_runtime::EXIT_NOT_FOUND)
        .map(|rt| rt.not_found_hint(&result, &rt.backends(), &|b| format!("`--backend {b}`")));
    let waiting = if result.status == RunStatus::Waiting {
        ws.interrupts()
            .pending()
            .unwrap_or_default()
            .into_iter()
            .filter(|p| p.run_id == result.run_id)
            .collect()
    } else {
        Vec::new()
    };
    if out.json {
        let mut doc = json!(result);
        if result.status == RunStatus::Waiting {
            doc["pending"] = json!(waiting);
        }
        if let Some(h) = &hint {
            doc["hint"] = json!(h);
        }
        println!("{doc}");
    } else {
        print_value(result.value.as_ref());
        if let Some(h) = &hint {
            eprintln!("computer: {h}");
        }
        for p in &waiting {
            eprintln!(
                "computer: run {} is waiting: ws:{}.{} asks {}\n  answer with: computer respond {} {} 'JSON'   (or --reject REASON)",
                p.run_id, p.module, p.function, p.payload, p.run_id, p.call_id
            );
        }
    }
    interrupts
        .exit_code()
        .unwrap_or_else(|| process_exit_code(result.exit_code))
}

/// The run's value (a JS default export's result), after its output, as
/// `node -p` prints one: a string as it is, anything else as JSON.
fn print_value(value: Option<&serde_json::Value>) {
    match value {
        None | Some(serde_json::Value::Null) => {}
        Some(serde_json::Value::String(s)) => println!("{s}"),
        Some(other) => println!("{other}"),
    }
}

pub fn runs(ws: &Workspace, command: Option<RunsCommand>, page: PageArgs, out: Out) -> CliResult {
    match command {
        None => {
            let runs = ws
                .runs()
                .list(Page::new(page.offset, page.limit.or(Some(50))))?;
            let docs: Vec<serde_json::Value> = runs.iter().map(run_json).collect();
            out.emit(json!({"runs": docs}), || {
                for r in &runs {
                    let code = r.exit_code.map_or("-".to_string(), |c| c.to_string());
                    println!(
                        "{}  {:<9}  {:<6}  exit {:>3}  {}",
                        r.id,
                        r.status,
                        r.backend,
                        code,
                        time_string(r.started_ns.max(0) as u64)
                    );
                }
            });
            Ok(())
        }
        Some(RunsCommand::Show { id }) => {
            let Some(r) = ws.runs().get(&id)? else {
                return Err(CliError {
                    code: "ENOENT".into(),
                    message: format!("no run with id {id}"),
                });
            };
            let stdout = String::from_utf8_lossy(&r.stdout).into_owned();
            let stderr = String::from_utf8_lossy(&r.stderr).into_owned();
            let mut doc = run_json(&r);
            doc["stdout"] = json!(stdout);
            doc["stderr"] = json!(stderr);
            out.emit(doc, || {
                println!("id: {}", r.id);
                println!("backend: {}", r.backend);
                println!("status: {}", r.status);
                println!(
                    "exit code: {}",
                    r.exit_code.map_or("-".into(), |c| c.to_string())
                );
                println!("started: {}", time_string(r.started_ns.max(0) as u64));
                if let Some(end) = r.ended_ns {
                    println!("ended: {}", time_string(end.max(0) as u64));
                }
                println!("options: {}", r.options);
                if let Some(v) = &r.value {
                    println!("value: {v}");
                }
                if let Some(e) = &r.error {
                    println!("error: {e}");
                }
                println!("--- source\n{}", r.source);
                println!("--- stdout\n{stdout}");
                println!("--- stderr\n{stderr}");
            });
            Ok(())
        }
    }
}

/// A run record as `--json` shows it: its `options` (kept as JSON text in
/// the store) as the object they are.
fn run_json(r: &computer_store::RunRecord) -> serde_json::Value {
    let mut doc = json!(r);
    if let Ok(options) = serde_json::from_str::<serde_json::Value>(&r.options) {
        doc["options"] = options;
    }
    doc
}

/// The guest's exit code as a process exit code: 0..=255 as is, others
/// wrapped as a shell does (-1 is 255), never 0 for a code that was not 0.
fn process_exit_code(code: i32) -> u8 {
    let wrapped = code.rem_euclid(256) as u8;
    if code != 0 && wrapped == 0 {
        1
    } else {
        wrapped
    }
}

#[cfg(test)]
mod tests {
    use super::process_exit_code;

    #[test]
    fn exit_codes_wrap_but_never_turn_into_success() {
        assert_eq!(process_exit_code(0), 0);
        assert_eq!(process_exit_code(7), 7);
        assert_eq!(process_exit_code(255), 255);
        assert_eq!(process_exit_code(-1), 255);
        assert_eq!(process_exit_code(256), 1);
        assert_eq!(process_exit_code(257), 1);
    }
}
