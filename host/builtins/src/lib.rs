//! The command components built into the binary, with their files.
//! `register` puts them on a runtime; see README.md.

mod blob;

use std::sync::Arc;

use computer_runtime::{Bytes, CommandSpec, ExecError, FileTree, Mount, MountSource, Runtime};

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
        },
    ]
}

/// The names of the commands this binary has built in.
pub fn built_in() -> Vec<&'static str> {
    all().iter().flat_map(|b| b.names.iter().copied()).collect()
}

/// Registers every built-in command on `runtime` (a workspace's own
/// command of the same name still wins). Nothing is compiled or copied
/// here.
pub fn register(runtime: &Runtime) -> Result<(), ExecError> {
    for b in all() {
        let mounts = match b.files {
            None => Vec::new(),
            Some((at, packed)) => {
                let files = blob::unpack(packed).map_err(|e| ExecError::BadGuest {
                    name: b.names[0].to_owned(),
                    reason: format!("its embedded files are damaged: {e}"),
                })?;
                vec![Mount {
                    guest_path: at.to_owned(),
                    source: MountSource::Files(Arc::new(FileTree::new(files))),
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
            })?;
        }
    }
    Ok(())
}
