//! The backends this binary offers: the built-in guests, and the container
//! with `auto` (the shell, falling back to the container). Everything else
//! in the CLI reaches backends through the runtime's registry.

use computer_container::{
    AUTO_BACKEND, CONTAINER_BACKEND, ContainerBackend, ContainerConfig, ContainerError,
};
use std::io::IsTerminal;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use computer_runtime::{CompileEvent, CompileObserver, Runtime, RuntimeConfig};
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::json;

use crate::output::Out;

use crate::error::{CliError, CliResult};

/// The container backends' names, for `--backends` checks.
pub const CONTAINER_BACKENDS: [&str; 2] = [CONTAINER_BACKEND, AUTO_BACKEND];

/// A runtime with the built-in guests and, when `container` is true, the
/// container backends. A container configuration that cannot be used
/// (a bad `COMPUTER_CONTAINER_*` value) leaves them out; the reason is
/// returned with the runtime so a run that asks for them can say why.
pub fn runtime(
    mut config: RuntimeConfig,
    container: bool,
) -> CliResult<(Runtime, Option<ContainerError>)> {
    if config.on_compile.is_none() {
        config.on_compile = Some(compile_spinner(true));
    }
    let runtime = Runtime::with_builtin_guests(config)?;
    computer_builtins::register(&runtime)?;
    if !container {
        return Ok((runtime, None));
    }
    match container_backend() {
        Ok(backend) => {
            computer_container::register(&runtime, backend)?;
            Ok((runtime, None))
        }
        Err(e) => {
            tracing::warn!("the container backends are unavailable: {e}");
            Ok((runtime, Some(e)))
        }
    }
}

/// What a user sees while a component compiles (the first run of the shell
/// on a machine waits seconds for it): a spinner on a terminal, else one
/// `computer:` line on stderr when the compile starts, so that an agent or a
/// log reading piped stderr knows why nothing else comes. `computer prepare`
/// (run by the set-up scripts) compiles everything ahead, so runs after it
/// print neither.
fn compile_spinner(hint: bool) -> CompileObserver {
    let current: Mutex<Option<ProgressBar>> = Mutex::new(None);
    let terminal = std::io::stderr().is_terminal();
    CompileObserver(Arc::new(move |event| {
        let mut slot = current.lock().unwrap_or_else(|e| e.into_inner());
        match event {
            CompileEvent::Started { name, bytes } if !terminal => {
                eprintln!("{}", compile_line(name, *bytes, hint));
            }
            CompileEvent::Started { name, bytes } => {
                let bar = ProgressBar::new_spinner();
                bar.set_style(
                    ProgressStyle::with_template("{spinner} {msg} {elapsed}")
                        .unwrap_or_else(|_| ProgressStyle::default_spinner()),
                );
                bar.set_message(compile_line(name, *bytes, hint));
                bar.enable_steady_tick(Duration::from_millis(120));
                *slot = Some(bar);
            }
            CompileEvent::Finished { .. } => {
                if let Some(bar) = slot.take() {
                    bar.finish_and_clear();
                }
            }
        }
    }))
}

/// `hint`: name `computer prepare`, to a user who did not run it.
fn compile_line(name: &str, bytes: usize, hint: bool) -> String {
    let line = format!("computer: {}", compiling(name, bytes));
    if hint {
        format!(
            "{line}, once: later runs load it from the cache (`computer prepare` compiles them all ahead)"
        )
    } else {
        line
    }
}

/// What a compile is, in the words every surface uses (CLI, MCP progress).
pub(crate) fn compiling(name: &str, bytes: usize) -> String {
    let mib = bytes as f64 / f64::from(1 << 20);
    let size = if mib < 10.0 {
        format!("{mib:.1}")
    } else {
        format!("{mib:.0}")
    };
    format!("compiling {name} ({size} MB) for this machine")
}

/// `computer prepare`: every built-in component compiled into the cache,
/// one line each; exit 1 if one cannot be.
pub fn prepare(out: Out) -> CliResult<u8> {
    let config = RuntimeConfig {
        on_compile: Some(compile_spinner(false)),
        ..RuntimeConfig::default()
    };
    let (runtime, _) = runtime(config, false)?;
    let started = Instant::now();
    let results: Vec<(String, Result<(), String>)> = runtime
        .prepare()
        .into_iter()
        .map(|(name, r)| (name, r.map_err(|e| e.to_string())))
        .collect();
    let failed = results.iter().any(|(_, r)| r.is_err());
    out.emit(
        json!({
            "cache_dir": runtime.cache_dir(),
            "prepared": results.iter().map(|(name, r)| match r {
                Ok(()) => json!({"name": name, "ok": true}),
                Err(e) => json!({"name": name, "ok": false, "error": e}),
            }).collect::<Vec<_>>(),
        }),
        || {
            for (name, r) in &results {
                match r {
                    Ok(()) => println!("{name}: ready"),
                    Err(e) => println!("{name}: {e}"),
                }
            }
            println!(
                "cache: {} ({:.1} s)",
                runtime.cache_dir().display(),
                started.elapsed().as_secs_f64()
            );
        },
    );
    Ok(u8::from(failed))
}

/// The container backend as `COMPUTER_CONTAINER_*` configures it; image
/// pulls report their progress on stderr.
pub fn container_backend() -> Result<ContainerBackend, ContainerError> {
    let config = ContainerConfig::from_env()?;
    Ok(ContainerBackend::new(config)?.with_progress(|line| eprintln!("computer: {line}")))
}

impl From<ContainerError> for CliError {
    fn from(e: ContainerError) -> Self {
        let code = match &e {
            ContainerError::Workspace(fs) => fs.code.as_str(),
            ContainerError::InvalidOption(_) => "EINVAL",
            _ => "EIO",
        };
        CliError {
            code: code.to_owned(),
            message: e.to_string(),
        }
    }
}
