//! Programs installed beside the binary, registered as built-in commands at
//! run time: `git`, which is GPL-2.0 and so is never linked into or
//! embedded in this MIT binary. scripts/build-git.sh builds it from git's
//! own source into `target/programs/git/`; an installation puts that
//! directory beside the `computer` binary.
//!
//! Where they are looked for, first found wins:
//! 1. `$COMPUTER_PROGRAMS_DIR`;
//! 2. `programs/` or `lib/computer/programs/` in the binary's directory or
//!    one of its two parents (`target/debug/computer` finds
//!    `target/programs`);
//! 3. the checkout the binary was built from (`target/programs`).

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use computer_runtime::{Bytes, CommandSpec, ExecError, Mount, MountSource, Runtime};

/// One program this binary knows how to find.
#[derive(Debug, Clone)]
pub struct Program {
    /// The command's name.
    pub name: &'static str,
    pub description: &'static str,
    /// Its directory: `NAME.wasm`, `COPYING`, `SOURCE`, its files.
    pub dir: PathBuf,
}

/// A files directory under the program's directory, and where the program
/// sees it (read-only).
type FilesAt = (&'static str, &'static str);

/// (name, description, its files directories)
const KNOWN: &[(&str, &str, &[FilesAt])] = &[(
    "git",
    "git 2.39.5, the real one (built from git's source, GPL-2.0, installed beside the binary): \
     every git command, with its hooks, aliases, gc and local clone, fetch and push",
    // What `git init` copies, and git's shell scripts (bisect, submodule,
    // git-sh-setup) where Debian's git has them.
    &[
        ("templates", "/usr/share/git-core/templates"),
        ("libexec", "/usr/lib/git-core"),
    ],
)];

/// The directory the programs are installed in, if there is one.
pub fn programs_dir() -> Option<PathBuf> {
    static DIR: OnceLock<Option<PathBuf>> = OnceLock::new();
    DIR.get_or_init(find_dir).clone()
}

fn find_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("COMPUTER_PROGRAMS_DIR") {
        return Some(PathBuf::from(dir));
    }
    let holds_one = |dir: &Path| {
        KNOWN
            .iter()
            .any(|(name, ..)| wasm_path(dir, name).is_file())
    };
    if let Ok(exe) = std::env::current_exe() {
        for base in exe.ancestors().skip(1).take(3) {
            for candidate in [base.join("programs"), base.join("lib/computer/programs")] {
                if holds_one(&candidate) {
                    return Some(candidate);
                }
            }
        }
    }
    let checkout = PathBuf::from(env!("COMPUTER_CHECKOUT_PROGRAMS"));
    holds_one(&checkout).then_some(checkout)
}

fn wasm_path(dir: &Path, name: &str) -> PathBuf {
    dir.join(name).join(format!("{name}.wasm"))
}

/// The programs found installed.
pub fn installed_programs() -> Vec<Program> {
    let Some(dir) = programs_dir() else {
        return Vec::new();
    };
    KNOWN
        .iter()
        .filter(|(name, ..)| wasm_path(&dir, name).is_file())
        .map(|(name, description, _)| Program {
            name,
            description,
            dir: dir.join(name),
        })
        .collect()
}

/// Registers each installed program. One that cannot be read is an error
/// naming it (an installation that is half there should say so).
pub(crate) fn register(runtime: &Runtime) -> Result<(), ExecError> {
    for program in installed_programs() {
        let (_, _, files) = KNOWN
            .iter()
            .find(|(name, ..)| *name == program.name)
            .expect("installed programs are known ones");
        let wasm = wasm_path(program.dir.parent().unwrap_or(Path::new(".")), program.name);
        let component = std::fs::read(&wasm).map_err(|e| ExecError::BadGuest {
            name: program.name.to_owned(),
            reason: format!("cannot read {}: {e}", wasm.display()),
        })?;
        // The build writes the digest beside it, so no process hashes the
        // program at every start; without it the runtime hashes it.
        let sha256 = std::fs::read_to_string(wasm.with_extension("wasm.sha256"))
            .ok()
            .map(|s| s.trim().to_owned())
            .filter(|s| s.len() == 64);
        let mounts = files
            .iter()
            .map(|(sub, at)| (program.dir.join(sub), at))
            .filter(|(dir, _)| dir.is_dir())
            .map(|(dir, at)| Mount {
                guest_path: (*at).to_owned(),
                source: MountSource::HostDir(dir),
            })
            .collect();
        runtime.register_command(CommandSpec {
            name: program.name.to_owned(),
            description: program.description.to_owned(),
            component: Bytes::from(component),
            mounts,
            sha256,
            // Ours change to `$PWD` first thing.
            own_cwd: true,
        })?;
    }
    Ok(())
}
