//! The guest components built into this binary, and their registration as
//! the `js` and `shell` backends. `build.rs` embeds each one that
//! `scripts/build-guests.sh` has built; a missing one is simply absent.
//! This is the one place in the runtime that names a backend.

use std::sync::{Arc, OnceLock};

use crate::backend::Commands;
use crate::backend::guest::{GuestBackend, GuestProfile, GuestSlot};
use crate::commands::registry::RunnerCommand;
use crate::run::limits::Limits;

/// Backend name of the built-in JavaScript guest.
pub const JS_BACKEND: &str = "js";
/// Backend name of the built-in shell guest.
pub const SHELL_BACKEND: &str = "shell";

/// The QuickJS guest, if it was built before this crate.
#[cfg(computer_js_guest)]
pub const JS_GUEST: Option<&[u8]> = Some(include_bytes!(env!("COMPUTER_JS_GUEST_WASM")));
/// The QuickJS guest, if it was built before this crate.
#[cfg(not(computer_js_guest))]
pub const JS_GUEST: Option<&[u8]> = None;

/// The bash (bashkit) guest, if it was built before this crate.
#[cfg(computer_shell_guest)]
pub const SHELL_GUEST: Option<&[u8]> = Some(include_bytes!(env!("COMPUTER_SHELL_GUEST_WASM")));
/// The bash (bashkit) guest, if it was built before this crate.
#[cfg(not(computer_shell_guest))]
pub const SHELL_GUEST: Option<&[u8]> = None;

/// The build's SHA-256 of each embedded guest, by backend name.
fn builtin_digest(name: &str) -> Option<&'static str> {
    match name {
        #[cfg(computer_js_guest)]
        JS_BACKEND => Some(env!("COMPUTER_JS_GUEST_WASM_SHA256")),
        #[cfg(computer_shell_guest)]
        SHELL_BACKEND => Some(env!("COMPUTER_SHELL_GUEST_WASM_SHA256")),
        _ => None,
    }
}

/// `(backend name, component bytes)` of every built-in guest.
pub fn builtin_guests() -> Vec<(&'static str, &'static [u8])> {
    let mut out = Vec::new();
    if let Some(js) = JS_GUEST {
        out.push((JS_BACKEND, js));
    }
    if let Some(sh) = SHELL_GUEST {
        out.push((SHELL_BACKEND, sh));
    }
    out
}

/// The profile of the built-in guest called `name`.
pub(crate) fn profile(name: &str) -> GuestProfile {
    match name {
        SHELL_BACKEND => GuestProfile {
            description: "bash (built-in commands: grep, sed, awk, find, jq, sort, ...). Use it for file manipulation and text pipelines.".into(),
            source: "bash script".into(),
            commands: Commands::Listed(Vec::new()),
            // So messages read `bash: NAME: command not found`, as agents expect.
            program: Some("bash".into()),
            limits_env: Some(shell_env),
            wasi_files: false,
        },
        JS_BACKEND => GuestProfile {
            description: "JavaScript (ES module, QuickJS) with node:fs, node:path, process, Buffer. `export default (input) => value` returns a JSON value.".into(),
            source: "ES module".into(),
            commands: Commands::None,
            program: None,
            limits_env: None,
            wasi_files: false,
        },
        _ => GuestProfile::custom(),
    }
}

fn shell_env(limits: &Limits) -> Vec<(&'static str, String)> {
    limits.shell_env().to_vec()
}

/// The built-in guests as backends, compiled on first use.
pub(crate) fn backends() -> Vec<Arc<GuestBackend>> {
    let mut all: Vec<Arc<GuestBackend>> = builtin_guests()
        .into_iter()
        .map(|(name, bytes)| {
            Arc::new(GuestBackend {
                name: name.to_owned(),
                slot: GuestSlot::Lazy {
                    bytes: bytes::Bytes::from_static(bytes),
                    digest: builtin_digest(name)
                        .and_then(crate::engine::component_cache::parse_digest),
                    loaded: OnceLock::new(),
                },
                profile: profile(name),
                mounts: Vec::new(),
            })
        })
        .collect();
    all.push(command_guest_backend());
    all
}

/// The backend that runs one command component directly.
pub const COMMAND_BACKEND: &str = "command";

/// The `command` backend, for a runtime made with [`Runtime::new`]
/// (`with_builtin_guests` registers it): it runs one command component,
/// named by the first word of the source.
///
/// [`Runtime::new`]: crate::Runtime::new
pub fn command_backend() -> Arc<dyn crate::Backend> {
    command_guest_backend()
}

pub(crate) fn command_guest_backend() -> Arc<GuestBackend> {
    Arc::new(GuestBackend {
        name: COMMAND_BACKEND.to_owned(),
        slot: GuestSlot::Commands,
        profile: GuestProfile {
            description: "Runs one registered command component (a WASI program such as `rg`, \
                          listed by `computer commands ls`) directly, without a shell. Its \
                          source is the command line: words and quotes, no pipes, redirects \
                          or variables."
                .into(),
            source: "command line".into(),
            commands: Commands::None,
            program: None,
            limits_env: None,
            wasi_files: true,
        },
        mounts: Vec::new(),
    })
}

/// The source a shell runs when started as a command (`sh ARGS`): its
/// `bash` built-in reads `-c`, a script file or stdin as bash would.
const SHELL_AS_COMMAND: &str = "bash \"$@\"";

/// The sources that start the JavaScript guest as Node's command line
/// (`node ARGS`) and npm's (`npm run NAME`). Not JavaScript: the guest
/// recognizes these exact strings (a NUL cannot start a real program), so
/// no run of the `js` backend can ask for them by accident.
pub const NODE_AS_COMMAND: &str = "\0computer:node";
/// See [`NODE_AS_COMMAND`].
pub const NPM_AS_COMMAND: &str = "\0computer:npm";

/// The built-in backends that runs may also start as commands, by command
/// name: the shell as `sh` and `bash`, the JavaScript guest as `node` and
/// `npm`.
pub(crate) fn runner_commands(
    backends: &[Arc<GuestBackend>],
) -> Vec<(&'static str, RunnerCommand)> {
    let mut out = Vec::new();
    if let Some(shell) = backends.iter().find(|b| b.name == SHELL_BACKEND) {
        for name in ["sh", "bash"] {
            out.push((
                name,
                RunnerCommand {
                    backend: shell.clone(),
                    source: SHELL_AS_COMMAND,
                    listed: None,
                },
            ));
        }
    }
    if let Some(js) = backends.iter().find(|b| b.name == JS_BACKEND) {
        let node = (
            "node",
            NODE_AS_COMMAND,
            "Node.js-compatible JavaScript on QuickJS: node FILE, -e, -p, --test; require, node_modules, node:* modules",
        );
        let npm = (
            "npm",
            NPM_AS_COMMAND,
            "npm run NAME / npm test: package.json scripts in the shell (npm install needs the container backend)",
        );
        for (name, source, description) in [node, npm] {
            out.push((
                name,
                RunnerCommand {
                    backend: js.clone(),
                    source,
                    listed: Some(description),
                },
            ));
        }
    }
    out
}
