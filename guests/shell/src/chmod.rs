//! `chmod`, as GNU's: bashkit's takes no options (so `chmod -R 755 dir` fails) and stops
//! at the first missing file. This one has `-R`, `-v`, `-c`, `-f`, octal and symbolic
//! modes (`u+x,go-w`, `a=rX`, `g=u`, `-x`), with the umask (022) applied where GNU
//! applies it. Modes go straight to the workspace (`fs.chmod`, which follows symlinks);
//! a recursive walk skips the symlinks it meets, as GNU does.

use std::path::Path;
use std::sync::Arc;

use bashkit::{BuiltinContext, ExecResult, async_trait};

use crate::computer::workspace::fs::{self, NodeKind};
use crate::fs_errors;
use crate::workspace_fs::WorkspaceFs;
use crate::{devices, modes};

pub struct Chmod {
    pub fs: Arc<WorkspaceFs>,
}

/// The umask the shell runs with (bashkit's `umask` reports 0022).
const UMASK: u32 = 0o022;

#[derive(Default)]
struct Options {
    recursive: bool,
    verbose: bool,
    changes: bool,
    quiet: bool,
}

/// One clause of a symbolic mode: `who op perms`.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Clause {
    /// Bits of `ugo` this clause touches; `None` means "all, minus the umask".
    who: Option<u32>,
    op: char,
    perm: Perm,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Perm {
    /// `rwxXst` letters.
    Letters(String),
    /// Copy another class's bits (`g=u`).
    Copy(char),
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Mode {
    Octal(u32),
    Symbolic(Vec<Clause>),
}

/// Whether `arg` is a mode rather than an option (`-x`, `-rw` are modes, as in GNU).
fn looks_like_mode(arg: &str) -> bool {
    let body = arg.strip_prefix('-').unwrap_or(arg);
    !body.is_empty() && body.chars().all(|c| "rwxXstugoa,+-=01234567".contains(c))
}

fn parse_mode(text: &str) -> Option<Mode> {
    if !text.is_empty() && text.len() <= 4 && text.bytes().all(|b| (b'0'..=b'7').contains(&b)) {
        return u32::from_str_radix(text, 8).ok().map(Mode::Octal);
    }
    let mut clauses = Vec::new();
    for part in text.split(',') {
        let mut chars = part.chars().peekable();
        let mut who = 0u32;
        let mut any_who = false;
        while let Some(&c) = chars.peek() {
            let bits = match c {
                'u' => 0o4700,
                'g' => 0o2070,
                'o' => 0o1007,
                'a' => 0o7777,
                _ => break,
            };
            who |= bits;
            any_who = true;
            chars.next();
        }
        let mut saw_op = false;
        while let Some(op) = chars.next() {
            if !matches!(op, '+' | '-' | '=') {
                return None;
            }
            saw_op = true;
            let mut letters = String::new();
            let mut copy = None;
            while let Some(&c) = chars.peek() {
                match c {
                    'r' | 'w' | 'x' | 'X' | 's' | 't' if copy.is_none() => letters.push(c),
                    'u' | 'g' | 'o' if letters.is_empty() && copy.is_none() => copy = Some(c),
                    _ => break,
                }
                chars.next();
            }
            let perm = match copy {
                Some(c) => Perm::Copy(c),
                None => Perm::Letters(letters),
            };
            clauses.push(Clause {
                who: any_who.then_some(who),
                op,
                perm,
            });
        }
        if !saw_op {
            return None;
        }
    }
    Some(Mode::Symbolic(clauses))
}

/// The new permission bits of a node with bits `old`.
fn apply(mode: &Mode, old: u32, is_dir: bool) -> u32 {
    let clauses = match mode {
        Mode::Octal(bits) => return *bits,
        Mode::Symbolic(clauses) => clauses,
    };
    let mut m = old & 0o7777;
    for clause in clauses {
        let (who, masked) = match clause.who {
            Some(w) => (w, false),
            None => (0o7777, true),
        };
        let bits = match &clause.perm {
            Perm::Letters(letters) => {
                let mut b = 0;
                for c in letters.chars() {
                    b |= match c {
                        'r' => 0o444,
                        'w' => 0o222,
                        'x' => 0o111,
                        // Execute only for directories and what is executable already.
                        'X' if is_dir || old & 0o111 != 0 => 0o111,
                        's' => 0o6000,
                        't' => 0o1000,
                        _ => 0,
                    };
                }
                b
            }
            Perm::Copy(from) => {
                let src = match from {
                    'u' => (m >> 6) & 7,
                    'g' => (m >> 3) & 7,
                    _ => m & 7,
                };
                src * 0o111
            }
        };
        let mut affected = bits & who;
        if masked {
            affected &= !UMASK;
        }
        match clause.op {
            '+' => m |= affected,
            '-' => m &= !affected,
            _ => {
                let cleared = if masked { who & !UMASK } else { who };
                // `=` keeps a directory's set-id bits unless they are named.
                let keep = if is_dir { 0o6000 & !bits } else { 0 };
                m = (m & !(cleared & !keep)) | affected;
            }
        }
    }
    m
}

struct Run<'a> {
    o: &'a Options,
    mode: &'a Mode,
    out: String,
    err: String,
    failed: bool,
}

impl Run<'_> {
    fn change(&mut self, shown: &str, path: &str, followed_operand: bool) {
        let stat = devices::stat(path, followed_operand);
        let stat = match stat {
            Ok(s) => s,
            Err(e) => {
                if !self.o.quiet {
                    self.err.push_str(&format!(
                        "chmod: cannot access '{shown}': {}\n",
                        fs_errors::strerror(e.code)
                    ));
                }
                self.failed = true;
                return;
            }
        };
        if stat.kind == NodeKind::Symlink {
            // Met during a recursive walk: GNU leaves links alone.
            if self.o.verbose {
                self.out.push_str(&format!(
                    "neither symbolic link '{shown}' nor referent has been changed\n"
                ));
            }
            return;
        }
        let is_dir = stat.kind == NodeKind::Directory;
        let old = stat.mode & 0o7777;
        let new = apply(self.mode, old, is_dir);
        if new != old
            && let Err(e) = fs::chmod(path, new)
        {
            if !self.o.quiet {
                self.err.push_str(&format!(
                    "chmod: changing permissions of '{shown}': {}\n",
                    fs_errors::strerror(e.code)
                ));
            }
            self.failed = true;
            return;
        }
        if self.o.verbose || (self.o.changes && new != old) {
            if new == old {
                self.out.push_str(&format!(
                    "mode of '{shown}' retained as {old:04o} ({})\n",
                    modes::permissions(old)
                ));
            } else {
                self.out.push_str(&format!(
                    "mode of '{shown}' changed from {old:04o} ({}) to {new:04o} ({})\n",
                    modes::permissions(old),
                    modes::permissions(new)
                ));
            }
        }
        if self.o.recursive && is_dir {
            let entries = match devices::readdir(path) {
                Ok(entries) => entries,
                Err(e) => {
                    if !self.o.quiet {
                        self.err.push_str(&format!(
                            "chmod: cannot read directory '{shown}': {}\n",
                            fs_errors::strerror(e.code)
                        ));
                    }
                    self.failed = true;
                    return;
                }
            };
            for entry in entries {
                let child = if path == "/" {
                    format!("/{}", entry.name)
                } else {
                    format!("{path}/{}", entry.name)
                };
                let child_shown = if shown.ends_with('/') {
                    format!("{shown}{}", entry.name)
                } else {
                    format!("{shown}/{}", entry.name)
                };
                self.change(&child_shown, &child, false);
            }
        }
    }
}

fn usage(message: &str) -> ExecResult {
    ExecResult::err(
        format!("chmod: {message}\nTry 'chmod --help' for more information.\n"),
        1,
    )
}

#[async_trait]
impl bashkit::Builtin for Chmod {
    async fn execute(&self, ctx: BuiltinContext<'_>) -> bashkit::Result<ExecResult> {
        let mut o = Options::default();
        let mut mode_text: Option<String> = None;
        let mut files = Vec::new();
        let mut options_done = false;
        for arg in ctx.args {
            if !options_done && arg.starts_with('-') && arg.len() > 1 {
                match arg.as_str() {
                    "--" => {
                        options_done = true;
                        continue;
                    }
                    "--recursive" => o.recursive = true,
                    "--verbose" => o.verbose = true,
                    "--changes" => o.changes = true,
                    "--silent" | "--quiet" => o.quiet = true,
                    "--preserve-root" | "--no-preserve-root" => {}
                    "--help" => {
                        return Ok(ExecResult::ok(
                            "Usage: chmod [OPTION]... MODE[,MODE]... FILE...\n  or:  chmod [OPTION]... OCTAL-MODE FILE...\nChange the mode of each FILE to MODE.\n\n  -c, --changes          like verbose but report only when a change is made\n  -f, --silent, --quiet  suppress most error messages\n  -v, --verbose          output a diagnostic for every file processed\n  -R, --recursive        change files and directories recursively\n".to_string(),
                        ));
                    }
                    _ if mode_text.is_none() && looks_like_mode(arg) => {
                        mode_text = Some(arg.clone());
                    }
                    long if long.starts_with("--") => {
                        return Ok(usage(&format!("unrecognized option '{long}'")));
                    }
                    short => {
                        for c in short[1..].chars() {
                            match c {
                                'R' => o.recursive = true,
                                'v' => o.verbose = true,
                                'c' => o.changes = true,
                                'f' => o.quiet = true,
                                'H' | 'L' | 'P' => {}
                                other => return Ok(usage(&format!("invalid option -- '{other}'"))),
                            }
                        }
                    }
                }
                continue;
            }
            if mode_text.is_none() {
                mode_text = Some(arg.clone());
            } else {
                files.push(arg.clone());
            }
        }
        let Some(mode_text) = mode_text else {
            return Ok(usage("missing operand"));
        };
        if files.is_empty() {
            return Ok(usage(&format!("missing operand after '{mode_text}'")));
        }
        let Some(mode) = parse_mode(&mode_text) else {
            return Ok(usage(&format!("invalid mode: '{mode_text}'")));
        };
        self.fs.appends().flush();
        let cwd = ctx.cwd.to_string_lossy().into_owned();
        let mut run = Run {
            o: &o,
            mode: &mode,
            out: String::new(),
            err: String::new(),
            failed: false,
        };
        for file in &files {
            let path = bashkit::normalize_path(&bashkit::vfs_join(Path::new(&cwd), file))
                .to_string_lossy()
                .into_owned();
            if devices::Device::at(&path).is_some() {
                continue;
            }
            run.change(file, &path, true);
        }
        let mut result = ExecResult::ok(run.out);
        result.stderr = run.err.into();
        result.exit_code = i32::from(run.failed);
        Ok(result)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mode(text: &str, old: u32, dir: bool) -> u32 {
        apply(&parse_mode(text).expect("valid mode"), old, dir)
    }

    #[test]
    fn octal_and_symbolic() {
        assert_eq!(mode("755", 0o644, false), 0o755);
        assert_eq!(mode("+x", 0o644, false), 0o755);
        assert_eq!(mode("u+x", 0o644, false), 0o744);
        assert_eq!(mode("go-r", 0o644, false), 0o600);
        assert_eq!(mode("a=rX", 0o644, false), 0o444);
        assert_eq!(mode("a=rX", 0o644, true), 0o555);
        assert_eq!(mode("u=rwx,g=rx,o=", 0o777, false), 0o750);
        assert_eq!(mode("g=u", 0o740, false), 0o770);
        assert_eq!(mode("+w", 0o444, false), 0o644);
        assert_eq!(mode("-x", 0o755, false), 0o644);
        assert_eq!(mode("+t", 0o755, true), 0o1755);
        assert_eq!(mode("u+s", 0o755, false), 0o4755);
    }

    #[test]
    fn modes_and_options() {
        assert!(looks_like_mode("-x"));
        assert!(looks_like_mode("-rw"));
        assert!(!looks_like_mode("-R"));
        assert!(!looks_like_mode("-v"));
        assert!(parse_mode("abc").is_none());
        assert!(parse_mode("u+").is_some());
    }
}
