//! The command components built into the binary, with their files.
//! `register` puts them on a runtime; see README.md.

mod blob;
mod programs;

pub use programs::{Program, installed_programs, programs_dir};

use std::sync::Arc;

use computer_runtime::{
    Bytes, CommandSpec, Commands, ExecError, FileTree, GuestProfile, Mount, MountSource,
    RunnerSpec, Runtime,
};

/// Where `python3` finds its standard library: the path componentize-py's
/// snapshot was taken with (every pre-imported module's `__file__` is
/// there). It shadows a workspace `/python` for python3 only.
pub const PYTHON_LIB: &str = "/python";

/// One built-in command.
struct BuiltIn {
    names: &'static [&'static str],
    description: &'static str,
    component: &'static [u8],
    /// The component's SHA-256, computed by the build.
    sha256: &'static str,
    /// Where its files are mounted, and the packed files.
    files: Option<(&'static str, &'static [u8])>,
    /// The backend the same component also serves (its runner-world face).
    backend: Option<fn() -> (&'static str, GuestProfile)>,
}

/// The backend name of Python source runs.
pub const PYTHON_BACKEND: &str = "python";

fn python_backend() -> (&'static str, GuestProfile) {
    let profile = GuestProfile {
        description: "Python 3.14 (CPython, whole standard library). The run's JSON input is \
                      the global `input`; the value of a last expression statement is returned \
                      as JSON; `from ws.NAME import fn` calls ws: modules; subprocess runs \
                      workspace commands and the shell."
            .into(),
        source: "Python source".into(),
        commands: Commands::None,
        program: Some("python".into()),
        limits_env: None,
        // CPython opens files through WASI: its `/tmp` is the private one.
        wasi_files: true,
    };
    (PYTHON_BACKEND, profile)
}

fn all() -> Vec<BuiltIn> {
    vec![
        #[cfg(computer_python)]
        BuiltIn {
            names: &["python3", "python"],
            description: "CPython 3.14 with the standard library: python3 script.py, -c CODE, -m MODULE",
            component: include_bytes!(env!("COMPUTER_PYTHON_WASM")),
            sha256: env!("COMPUTER_PYTHON_WASM_SHA256"),
            files: Some((
                PYTHON_LIB,
                include_bytes!(env!("COMPUTER_PYTHON_WASM_FILES")),
            )),
            backend: Some(python_backend),
        },
        #[cfg(computer_curl)]
        BuiltIn {
            names: &["curl", "wget"],
            description: "curl 7.88 / wget 1.21 over the host's HTTP client, only to allowed hosts (computer net allow HOST); every request is audited: curl -sSfL URL, -o/-O, -X, -H, -d/--data-binary @file, --json, -i/-I, -w '%{http_code}', -u, --max-time; wget -qO- URL",
            component: include_bytes!(env!("COMPUTER_CURL_WASM")),
            sha256: env!("COMPUTER_CURL_WASM_SHA256"),
            files: None,
            backend: None,
        },
        #[cfg(computer_sqlite3)]
        BuiltIn {
            names: &["sqlite3"],
            description: "SQLite's command-line shell (sqlite3 3.40's options, output modes and dot commands): sqlite3 DB \"SQL\", sqlite3 DB < script.sql",
            component: include_bytes!(env!("COMPUTER_SQLITE3_WASM")),
            sha256: env!("COMPUTER_SQLITE3_WASM_SHA256"),
            files: None,
            backend: None,
        },
    ]
}

/// The backends this binary's built-in components serve.
pub fn built_in_backends() -> Vec<&'static str> {
    all()
        .iter()
        .filter_map(|b| b.backend.map(|f| f().0))
        .collect()
}

/// The names of the commands this binary has built in, and of the
/// programs installed beside it (`git`, `pandoc`).
pub fn built_in() -> Vec<&'static str> {
    let mut names: Vec<&'static str> = all().iter().flat_map(|b| b.names.iter().copied()).collect();
    names.extend(installed_programs().iter().map(|p| p.name));
    names
}

/// Registers every built-in command on `runtime` (a workspace's own
/// command of the same name still wins), the backends their components
/// also serve (`python`), and the programs installed beside the binary
/// (`git`, `pandoc`, see programs.rs). Nothing is compiled or copied here.
pub fn register(runtime: &Runtime) -> Result<(), ExecError> {
    programs::register(runtime)?;
    for b in all() {
        let mounts = match b.files {
            None => Vec::new(),
            Some((at, packed)) => {
                // Unpacked on the first run that reads them: walking python's
                // 1,361 files was 3 ms of every process's start-up.
                let files = FileTree::lazy(move || {
                    blob::unpack(packed).map_err(|e| format!("{}: {e}", b.names[0]))
                });
                vec![Mount {
                    guest_path: at.to_owned(),
                    source: MountSource::Files(Arc::new(files)),
                }]
            }
        };
        for name in b.names {
            runtime.register_command(CommandSpec {
                name: (*name).to_owned(),
                description: b.description.to_owned(),
                component: Bytes::from_static(b.component),
                mounts: mounts.clone(),
                sha256: Some(b.sha256.to_owned()),
                // Each of ours changes to `$PWD` first thing.
                own_cwd: true,
            })?;
        }
        if let Some(backend) = b.backend {
            let (name, profile) = backend();
            runtime.register_runner(RunnerSpec {
                name: name.to_owned(),
                component: Bytes::from_static(b.component),
                sha256: Some(b.sha256.to_owned()),
                profile,
                mounts: mounts.clone(),
            })?;
        }
    }
    Ok(())
}
