//! Programs installed beside the binary, registered as built-in commands at
//! run time: `git` (GPL-2.0) and `pandoc` (GPL-2.0-or-later), which are so
//! never linked into or embedded in this MIT binary. scripts/build-git.sh
//! builds git from its own source into `target/programs/git/`;
//! scripts/fetch-pandoc.sh installs the pandoc project's own `pandoc.wasm`
//! (a wasip1 module: the runtime adapts it) into `target/programs/pandoc/`.
//! An installation puts those directories beside the `computer` binary.
//!
//! A program's bytes are mapped, not read: a process that never runs
//! pandoc (58 MB) pays nothing for it, since with its digest file beside it
//! and its compiled form cached, nothing touches the pages.
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

/// What this binary knows of a program it may find installed.
struct Known {
    name: &'static str,
    description: &'static str,
    /// Its files directories.
    files: &'static [FilesAt],
    /// It changes to `$PWD` itself (our glue does); a third-party program
    /// run as it is gets the runtime's cwd anchor instead.
    own_cwd: bool,
}

const KNOWN: &[Known] = &[
    Known {
        name: "git",
        description: "git 2.39.5, the real one (built from git's source, GPL-2.0, installed \
                      beside the binary): every git command, with its hooks, aliases, gc and \
                      local clone, fetch and push",
        // What `git init` copies, and git's shell scripts (bisect, submodule,
        // git-sh-setup) where Debian's git has them.
        files: &[
            ("templates", "/usr/share/git-core/templates"),
            ("libexec", "/usr/lib/git-core"),
        ],
        own_cwd: true,
    },
    Known {
        name: "pandoc",
        description: "pandoc 3.10, the real one (the pandoc project's own WebAssembly build, \
                      GPL-2.0-or-later, installed beside the binary): its whole command line, \
                      templates, Lua filters, docx/odt/epub/pptx/html/latex/typst/gfm output",
        // Its data files (templates, reference docs, Lua modules) are
        // inside the module.
        files: &[],
        // Its relative paths resolve through the runtime's cwd anchor.
        own_cwd: false,
    },
];

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
            .any(|known| wasm_path(dir, known.name).is_file())
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
        .filter(|known| wasm_path(&dir, known.name).is_file())
        .map(|known| Program {
            name: known.name,
            description: known.description,
            dir: dir.join(known.name),
        })
        .collect()
}

/// Registers each installed program. One that cannot be read is an error
/// naming it (an installation that is half there should say so).
pub(crate) fn register(runtime: &Runtime) -> Result<(), ExecError> {
    for program in installed_programs() {
        let known = KNOWN
            .iter()
            .find(|known| known.name == program.name)
            .expect("installed programs are known ones");
        let wasm = wasm_path(program.dir.parent().unwrap_or(Path::new(".")), program.name);
        let component = map(&wasm).map_err(|e| ExecError::BadGuest {
            name: program.name.to_owned(),
            reason: format!("cannot read {}: {e}", wasm.display()),
        })?;
        // The build writes the digest beside it, so no process hashes the
        // program at every start; without it the runtime hashes it.
        let sha256 = std::fs::read_to_string(wasm.with_extension("wasm.sha256"))
            .ok()
            .map(|s| s.trim().to_owned())
            .filter(|s| s.len() == 64);
        let mounts = known
            .files
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
            component,
            mounts,
            sha256,
            own_cwd: known.own_cwd,
        })?;
    }
    Ok(())
}

/// The file's bytes, mapped: pages are read only when something reads them
/// (a compile, or hashing when the digest file is missing).
#[allow(unsafe_code)] // mapping a file; see the SAFETY note
fn map(path: &Path) -> std::io::Result<Bytes> {
    let file = std::fs::File::open(path)?;
    // SAFETY: the programs directory is an installation: its files are
    // replaced by new files (the scripts remove and rename), never written
    // in place, so the mapped pages do not change under us.
    let mapped = unsafe { memmap2::Mmap::map(&file)? };
    Ok(Bytes::from_owner(mapped))
}
