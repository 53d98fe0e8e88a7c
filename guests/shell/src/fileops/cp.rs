//! `cp`: files, and trees with `-r`/`-R`/`-a`; symlinks followed or copied as GNU
//! decides (`-L`, `-P`/`-d`, `-H`, and by default: followed unless recursive);
//! `-p`/`-a` keep modes and times; `-n`, `-u`, `-f`, `-i` (as `-f`: no terminal),
//! `-v`, `-s`, `-T`, `-t`.

use std::future::Future;
use std::path::{Path, PathBuf};
use std::pin::Pin;

use bashkit::{BuiltinContext, ExecResult, FileSystem, Metadata, async_trait};

use super::args::{self, Parsed};
use super::{is_within, lstat, reason, stat};

pub struct Cp;

const LETTERS: &str = "abdfHilLnpPrRsuvxTZ";
const LONGS: &[(&str, char)] = &[
    ("archive", 'a'),
    ("backup", 'b'),
    ("no-dereference", 'P'),
    ("dereference", 'L'),
    ("force", 'f'),
    ("interactive", 'i'),
    ("link", 'l'),
    ("no-clobber", 'n'),
    ("preserve", 'p'),
    ("no-preserve", 'Z'),
    ("recursive", 'r'),
    ("symbolic-link", 's'),
    ("update", 'u'),
    ("verbose", 'v'),
    ("one-file-system", 'x'),
    ("no-target-directory", 'T'),
    ("remove-destination", 'f'),
    ("strip-trailing-slashes", 'Z'),
    ("sparse", 'Z'),
    ("reflink", 'Z'),
    ("attributes-only", 'Z'),
    ("context", 'Z'),
    ("copy-contents", 'Z'),
    // No short form: `D` stands for it here.
    ("parents", 'D'),
];

/// Whether symlinks are followed: at the top (the operands) and below.
#[derive(Clone, Copy)]
struct Follow {
    top: bool,
    below: bool,
}

/// What one `cp` does, and what it has said.
struct Copy<'c> {
    fs: &'c dyn FileSystem,
    recursive: bool,
    follow: Follow,
    preserve: bool,
    no_clobber: bool,
    update: bool,
    verbose: bool,
    symbolic: bool,
    out: String,
    err: String,
}

fn follow_mode(p: &Parsed, recursive: bool) -> Follow {
    match p.last_of(&['L', 'P', 'd', 'H', 'a']) {
        Some('L') => Follow {
            top: true,
            below: true,
        },
        Some('H') => Follow {
            top: true,
            below: false,
        },
        Some(_) => Follow {
            top: false,
            below: false,
        },
        None => Follow {
            top: !recursive,
            below: !recursive,
        },
    }
}

#[async_trait]
impl bashkit::Builtin for Cp {
    async fn execute(&self, ctx: BuiltinContext<'_>) -> bashkit::Result<ExecResult> {
        let parsed = match args::parse("cp", ctx.args, LETTERS, LONGS) {
            Ok(p) => p,
            Err(message) => return Ok(ExecResult::err(message, 1)),
        };
        if parsed.has('l') {
            let message = "cp: hard links are not supported in the workspace\n";
            return Ok(ExecResult::err(message, 1));
        }
        let split = match args::split("cp", &parsed) {
            Ok(s) => s,
            Err(message) => return Ok(ExecResult::err(message, 1)),
        };
        let target = args::resolve(ctx.cwd, &split.1);
        let target_name = split.1.trim_end_matches('/').to_string();
        let target_is_dir = stat(&*ctx.fs, &target)
            .await
            .is_some_and(|m| m.file_type.is_dir());
        if parsed.has('D') && !target_is_dir {
            let message = format!(
                "cp: with --parents, the destination must be a directory\n{}",
                args::usage("cp", "").lines().nth(1).unwrap_or_default()
            );
            return Ok(ExecResult::err(format!("{message}\n"), 1));
        }
        let jobs = match args::jobs("cp", &parsed, split, target_is_dir) {
            Ok(j) => j,
            Err(message) => return Ok(ExecResult::err(message, 1)),
        };
        let recursive = parsed.has('r') || parsed.has('R') || parsed.has('a');
        let mut copy = Copy {
            fs: &*ctx.fs,
            recursive,
            follow: follow_mode(&parsed, recursive),
            preserve: parsed.has('p') || parsed.has('a'),
            no_clobber: parsed.last_of(&['f', 'i', 'n']) == Some('n'),
            update: parsed.has('u'),
            verbose: parsed.has('v'),
            symbolic: parsed.has('s'),
            out: String::new(),
            err: String::new(),
        };
        for job in &jobs {
            let from = args::resolve(ctx.cwd, &job.source);
            if parsed.has('D') {
                // `--parents`: the source's path, as written, is recreated below
                // the target directory.
                let dest = format!("{target_name}/{}", job.source.trim_start_matches('/'));
                let to = args::resolve(ctx.cwd, &dest);
                if let Some(parent) = to.parent() {
                    let _ = ctx.fs.mkdir(parent, true).await;
                }
                copy.node(from, to, (job.source.clone(), dest), true).await;
                continue;
            }
            let to = args::resolve(ctx.cwd, &job.dest);
            let names = (job.source.clone(), job.dest.clone());
            copy.node(from, to, names, true).await;
        }
        let mut result = ExecResult::with_code(copy.out, i32::from(!copy.err.is_empty()));
        result.stderr = copy.err.into();
        Ok(result)
    }
}

impl Copy<'_> {
    fn fail(&mut self, message: String) {
        self.err.push_str(&format!("cp: {message}\n"));
    }

    fn said(&mut self, s: &str, d: &str) {
        if self.verbose {
            self.out.push_str(&format!("'{s}' -> '{d}'\n"));
        }
    }

    /// Copy `from` to `to`; `names` are how the user wrote them (for messages).
    fn node(
        &mut self,
        from: PathBuf,
        to: PathBuf,
        names: (String, String),
        top: bool,
    ) -> Pin<Box<dyn Future<Output = ()> + Send + '_>> {
        Box::pin(async move {
            let follow = if top {
                self.follow.top
            } else {
                self.follow.below
            };
            let meta = if follow {
                stat(self.fs, &from).await
            } else {
                lstat(self.fs, &from).await
            };
            let Some(meta) = meta else {
                let message = format!("cannot stat '{}': No such file or directory", names.0);
                return self.fail(message);
            };
            if meta.file_type.is_dir() {
                self.dir(&from, &to, &names, &meta).await;
            } else if meta.file_type.is_symlink() {
                self.link(&from, &to, &names).await;
            } else {
                self.file(&from, &to, &names, &meta).await;
            }
        })
    }

    async fn dir(&mut self, from: &Path, to: &Path, names: &(String, String), meta: &Metadata) {
        let (s, d) = (&names.0, &names.1);
        if !self.recursive {
            return self.fail(format!("-r not specified; omitting directory '{s}'"));
        }
        if is_within(to, from) {
            return self.fail(format!(
                "cannot copy a directory, '{s}', into itself, '{d}'"
            ));
        }
        match stat(self.fs, to).await {
            Some(m) if m.file_type.is_dir() => {}
            Some(_) => {
                return self.fail(format!(
                    "cannot overwrite non-directory '{d}' with directory '{s}'"
                ));
            }
            None => {
                if let Err(e) = self.fs.mkdir(to, false).await {
                    let message = format!("cannot create directory '{d}': {}", reason(&e));
                    return self.fail(message);
                }
                self.said(s, d);
            }
        }
        let mut entries = match self.fs.read_dir(from).await {
            Ok(entries) => entries,
            Err(e) => return self.fail(format!("cannot access '{s}': {}", reason(&e))),
        };
        entries.sort_by(|a, b| a.name.cmp(&b.name));
        for entry in entries {
            let child = (
                format!("{}/{}", s.trim_end_matches('/'), entry.name),
                format!("{}/{}", d.trim_end_matches('/'), entry.name),
            );
            self.node(from.join(&entry.name), to.join(&entry.name), child, false)
                .await;
        }
        self.keep_attributes(to, meta).await;
    }

    /// Whether an existing destination stops the copy (`-n`, `-u`, the same file).
    async fn skips(&mut self, from: &Path, to: &Path, names: &(String, String)) -> bool {
        let Some(dst) = lstat(self.fs, to).await else {
            return false;
        };
        if from == to {
            self.fail(format!("'{}' and '{}' are the same file", names.0, names.1));
            return true;
        }
        let newer = match lstat(self.fs, from).await {
            Some(src) => dst.modified >= src.modified,
            None => false,
        };
        self.no_clobber || (self.update && newer)
    }

    async fn link(&mut self, from: &Path, to: &Path, names: &(String, String)) {
        if self.skips(from, to, names).await {
            return;
        }
        let target = match self.fs.read_link(from).await {
            Ok(t) => t,
            Err(e) => {
                let message = format!("cannot read symbolic link '{}': {}", names.0, reason(&e));
                return self.fail(message);
            }
        };
        if lstat(self.fs, to).await.is_some() {
            let _ = self.fs.remove(to, false).await;
        }
        match self.fs.symlink(&target, to).await {
            Ok(()) => self.said(&names.0, &names.1),
            Err(e) => self.fail(format!(
                "cannot create symbolic link '{}': {}",
                names.1,
                reason(&e)
            )),
        }
    }

    async fn file(&mut self, from: &Path, to: &Path, names: &(String, String), meta: &Metadata) {
        if self.skips(from, to, names).await {
            return;
        }
        let (s, d) = (&names.0, &names.1);
        if stat(self.fs, to)
            .await
            .is_some_and(|m| m.file_type.is_dir())
        {
            return self.fail(format!(
                "cannot overwrite directory '{d}' with non-directory"
            ));
        }
        let done = if self.symbolic {
            // `cp -s` links to the operand as written, as `ln -s` would.
            self.fs.symlink(Path::new(s), to).await
        } else {
            self.fs.copy(from, to).await
        };
        match done {
            Ok(()) => {
                self.said(s, d);
                if !self.symbolic {
                    self.keep_attributes(to, meta).await;
                }
            }
            Err(e) => self.fail(format!("cannot create regular file '{d}': {}", reason(&e))),
        }
    }

    async fn keep_attributes(&self, to: &Path, meta: &Metadata) {
        if self.preserve {
            let _ = self.fs.chmod(to, meta.mode & 0o7777).await;
            let _ = self.fs.set_modified_time(to, meta.modified).await;
        }
    }
}
