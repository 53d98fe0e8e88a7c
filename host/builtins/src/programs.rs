//! Programs installed beside the binary, registered as built-in commands at
//! run time: `git`, `ffmpeg`/`ffprobe` and `pandoc`, which are GPL and so
//! are never linked into or embedded in this MIT binary, and ImageMagick's
//! tools (`convert`, `identify`, ...). scripts/build-git.sh,
//! build-ffmpeg.sh and build-magick.sh build them from their own source
//! into `target/programs/NAME/`; scripts/fetch-pandoc.sh installs the
//! pandoc project's own `pandoc.wasm`. pandoc and ImageMagick are wasip1
//! modules, which the runtime adapts. An installation puts those
//! directories beside the `computer` binary.
//!
//! Where they are looked for, first found wins:
//! 1. `$COMPUTER_PROGRAMS_DIR`;
//! 2. `programs/` or `lib/computer/programs/` in the binary's directory or
//!    one of its two parents (`target/debug/computer` finds
//!    `target/programs`);
//! 3. the checkout the binary was built from (`target/programs`).

use std::collections::HashMap;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use computer_runtime::{Bytes, CommandSpec, ExecError, Mount, MountSource, Runtime};

/// One program this binary knows how to find.
#[derive(Debug, Clone)]
pub struct Program {
    /// The command's name.
    pub name: &'static str,
    pub description: &'static str,
    /// Its directory: `WASM.wasm` (its component; several commands can be
    /// one program, as ffprobe is ffmpeg), `COPYING`, `SOURCE`, its files.
    pub dir: PathBuf,
    /// The component's file name without `.wasm`.
    wasm: &'static str,
}

/// A files directory under the program's directory, and where the program
/// sees it (read-only).
type FilesAt = (&'static str, &'static str);

/// A command an installation may hold.
struct Known {
    name: &'static str,
    description: &'static str,
    /// The directory under the programs directory, and its component's
    /// file name without `.wasm`: the program picks its tool by argv[0].
    program: &'static str,
    files: &'static [FilesAt],
    /// It changes to `$PWD` itself (our glue does); a third-party program
    /// run as it is gets the runtime's cwd anchor instead.
    own_cwd: bool,
}

/// ImageMagick's configuration (policy, delegates, colours) and messages,
/// where Debian installs them.
const MAGICK_FILES: &[FilesAt] = &[
    ("etc", "/etc/ImageMagick-6"),
    ("share", "/usr/share/ImageMagick-6"),
];

const KNOWN: &[Known] = &[
    Known {
        name: "git",
        description: "git 2.39.5, the real one (built from git's source, GPL-2.0, installed beside \
                      the binary): every git command, with its hooks, aliases, gc and local \
                      clone, fetch and push",
        program: "git",
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
        program: "pandoc",
        // Its data files (templates, reference docs, Lua modules) are
        // inside the module.
        files: &[],
        // Its relative paths resolve through the runtime's cwd anchor.
        own_cwd: false,
    },
    Known {
        name: "ffmpeg",
        description: "ffmpeg 5.1, the real one (built from FFmpeg's source with LAME, x264, \
                      libvorbis and opus, GPL, installed beside the binary, single-threaded): \
                      convert, transcode, cut, scale and filter audio and video",
        program: "ffmpeg",
        files: &[],
        own_cwd: true,
    },
    Known {
        name: "ffprobe",
        description: "ffprobe 5.1, the real one (FFmpeg's, GPL, installed beside the binary): \
                      streams, formats, packets and frames of media files as JSON, CSV, XML or \
                      text",
        program: "ffmpeg",
        files: &[],
        own_cwd: true,
    },
    Known {
        name: "convert",
        description: "convert 6.9.11, ImageMagick's own (installed beside the binary): convert, resize, crop, rotate, composite and annotate images between PNG, JPEG, GIF, WebP, TIFF, BMP and more",
        program: "magick",
        files: MAGICK_FILES,
        own_cwd: true,
    },
    Known {
        name: "identify",
        description: "identify 6.9.11, ImageMagick's own: an image's format, size, depth and properties (-format, -verbose)",
        program: "magick",
        files: MAGICK_FILES,
        own_cwd: true,
    },
    Known {
        name: "mogrify",
        description: "mogrify 6.9.11, ImageMagick's own: resize, convert or otherwise change images in place, many at once",
        program: "magick",
        files: MAGICK_FILES,
        own_cwd: true,
    },
    Known {
        name: "composite",
        description: "composite 6.9.11, ImageMagick's own: overlay one image on another",
        program: "magick",
        files: MAGICK_FILES,
        own_cwd: true,
    },
    Known {
        name: "compare",
        description: "compare 6.9.11, ImageMagick's own: how two images differ (-metric AE, PSNR, RMSE), with a difference image",
        program: "magick",
        files: MAGICK_FILES,
        own_cwd: true,
    },
    Known {
        name: "montage",
        description: "montage 6.9.11, ImageMagick's own: many images tiled into one",
        program: "magick",
        files: MAGICK_FILES,
        own_cwd: true,
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
    let holds_one = |dir: &Path| KNOWN.iter().any(|k| wasm_path(dir, k.program).is_file());
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

fn wasm_path(dir: &Path, program: &str) -> PathBuf {
    dir.join(program).join(format!("{program}.wasm"))
}

/// The programs found installed.
pub fn installed_programs() -> Vec<Program> {
    let Some(dir) = programs_dir() else {
        return Vec::new();
    };
    KNOWN
        .iter()
        .filter(|k| wasm_path(&dir, k.program).is_file())
        .map(|k| Program {
            name: k.name,
            description: k.description,
            dir: dir.join(k.program),
            wasm: k.program,
        })
        .collect()
}

/// Registers each installed program. One that cannot be read is an error
/// naming it (an installation that is half there should say so).
pub(crate) fn register(runtime: &Runtime) -> Result<(), ExecError> {
    // Several commands can be one program (ffmpeg and ffprobe).
    let mut mapped: HashMap<PathBuf, Bytes> = HashMap::new();
    for program in installed_programs() {
        let known = KNOWN
            .iter()
            .find(|k| k.name == program.name)
            .expect("installed programs are known ones");
        let files = known.files;
        let wasm = program.dir.join(format!("{}.wasm", program.wasm));
        let component = match mapped.get(&wasm) {
            Some(bytes) => bytes.clone(),
            None => {
                let bytes = map(&wasm).map_err(|e| ExecError::BadGuest {
                    name: program.name.to_owned(),
                    reason: format!("cannot read {}: {e}", wasm.display()),
                })?;
                mapped.insert(wasm.clone(), bytes.clone());
                bytes
            }
        };
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
            component,
            mounts,
            sha256,
            own_cwd: known.own_cwd,
        })?;
    }
    Ok(())
}

/// The program's file, mapped rather than read: every process registers
/// every installed program (tens of megabytes: ffmpeg is 22 MB), and one
/// that does not run it, or finds it compiled in the cache, never touches
/// its pages (pandoc is 58 MB).
fn map(path: &Path) -> std::io::Result<Bytes> {
    let file = File::open(path)?;
    // SAFETY: the mapping is read-only and private, and installed programs
    // are never rewritten in place: the build scripts write `NAME.wasm.tmp`
    // and rename it over, so a mapping keeps the file it was made from.
    #[allow(unsafe_code)]
    let map = unsafe { memmap2::Mmap::map(&file)? };
    Ok(Bytes::from_owner(map))
}
