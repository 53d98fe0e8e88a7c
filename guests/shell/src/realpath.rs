//! `realpath`, resolving symlinks through the host.
//!
//! bashkit's `realpath` only normalizes the path text, so `realpath link` names the
//! link instead of its target. This one asks the workspace (`fs.realpath`), with
//! GNU's modes: by default every component but the last must exist, `-e` needs all
//! of them, `-m` none, and `-s` does not resolve links at all.

use std::path::Path;

use bashkit::{BuiltinContext, ExecResult, async_trait};

use crate::computer::workspace::fs::{self, ErrorCode};
use crate::fs_errors;

pub struct Realpath;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// Every component but the last must exist (GNU's default, `-E`).
    ParentMustExist,
    /// `-e`: every component must exist.
    AllMustExist,
    /// `-m`: nothing needs to exist.
    Missing,
    /// `-s`: no symlink resolution, only `.`/`..`.
    Lexical,
}

struct Options {
    mode: Mode,
    quiet: bool,
    zero: bool,
    relative_to: Option<String>,
    relative_base: Option<String>,
}

fn usage(message: &str) -> ExecResult {
    ExecResult::err(
        format!("realpath: {message}\nTry 'realpath --help' for more information.\n"),
        1,
    )
}

fn lexical(cwd: &str, path: &str) -> String {
    let joined = bashkit::vfs_join(Path::new(cwd), path);
    bashkit::normalize_path(&joined)
        .to_string_lossy()
        .into_owned()
}

fn split_last(path: &str) -> (&str, &str) {
    match path.rfind('/') {
        Some(0) => ("/", &path[1..]),
        Some(i) => (&path[..i], &path[i + 1..]),
        None => ("/", path),
    }
}

fn join(dir: &str, name: &str) -> String {
    if name.is_empty() {
        dir.to_string()
    } else if dir == "/" {
        format!("/{name}")
    } else {
        format!("{dir}/{name}")
    }
}

/// The canonical form of the absolute, normalized `path`.
fn canonical(path: &str, mode: Mode) -> Result<String, ErrorCode> {
    if mode == Mode::Lexical {
        return Ok(path.to_string());
    }
    if crate::devices::Device::at(path).is_some() {
        return Ok(path.to_string());
    }
    match fs::realpath(path) {
        Ok(p) => Ok(p),
        Err(e) if e.code != ErrorCode::Enoent || mode == Mode::AllMustExist => Err(e.code),
        Err(e) => {
            if path == "/" {
                return Err(e.code);
            }
            let (parent, name) = split_last(path);
            let parent_mode = if mode == Mode::Missing {
                Mode::Missing
            } else {
                Mode::AllMustExist
            };
            // A dangling symlink at the end resolves to its (missing) target.
            if let Ok(target) = fs::readlink(path) {
                let base = canonical(parent, parent_mode)?;
                let next = lexical(&base, &target);
                return canonical(&next, mode);
            }
            Ok(join(&canonical(parent, parent_mode)?, name))
        }
    }
}

/// `target` relative to directory `base` (both canonical).
fn relative(target: &str, base: &str) -> String {
    let t: Vec<&str> = target.split('/').filter(|c| !c.is_empty()).collect();
    let b: Vec<&str> = base.split('/').filter(|c| !c.is_empty()).collect();
    let common = t.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let mut parts: Vec<&str> = vec![".."; b.len() - common];
    parts.extend(&t[common..]);
    if parts.is_empty() {
        ".".to_string()
    } else {
        parts.join("/")
    }
}

fn is_within(path: &str, base: &str) -> bool {
    base == "/" || path == base || path.starts_with(&format!("{base}/"))
}

/// Parses realpath's arguments: its options and the files, or the result
/// to return at once (`--help`, a usage error).
fn parse(argv: &[String]) -> Result<(Options, Vec<String>), Box<ExecResult>> {
    let mut o = Options {
        mode: Mode::ParentMustExist,
        quiet: false,
        zero: false,
        relative_to: None,
        relative_base: None,
    };
    let mut files = Vec::new();
    let mut args = argv.iter();
    let mut options_done = false;
    while let Some(arg) = args.next() {
        if options_done || !arg.starts_with('-') || arg == "-" {
            files.push(arg.clone());
            continue;
        }
        let (name, value) = match arg.split_once('=') {
            Some((n, v)) => (n, Some(v.to_string())),
            None => (arg.as_str(), None),
        };
        match name {
            "--" => options_done = true,
            "-e" | "--canonicalize-existing" => o.mode = Mode::AllMustExist,
            "-m" | "--canonicalize-missing" => o.mode = Mode::Missing,
            "-E" => o.mode = Mode::ParentMustExist,
            "-s" | "--strip" | "--no-symlinks" => o.mode = Mode::Lexical,
            "-L" | "--logical" | "-P" | "--physical" => {}
            "-q" | "--quiet" => o.quiet = true,
            "-z" | "--zero" => o.zero = true,
            "--relative-to" | "--relative-base" => {
                let Some(v) = value.or_else(|| args.next().cloned()) else {
                    return Err(Box::new(usage(&format!(
                        "option '{name}' requires an argument"
                    ))));
                };
                if name == "--relative-to" {
                    o.relative_to = Some(v);
                } else {
                    o.relative_base = Some(v);
                }
            }
            "--help" => {
                return Err(Box::new(ExecResult::ok(
                    "Usage: realpath [OPTION]... FILE...\nPrint the resolved absolute file name.\n\n  -e, --canonicalize-existing  all components of the path must exist\n  -m, --canonicalize-missing   no path components need exist or be a directory\n  -q, --quiet                  suppress most error messages\n      --relative-to=DIR        print the resolved path relative to DIR\n      --relative-base=DIR      print absolute paths unless paths below DIR\n  -s, --strip, --no-symlinks   don't expand symlinks\n  -z, --zero                   end each output line with NUL, not newline\n".to_string(),
                )));
            }
            _ if !name.starts_with("--") && name.len() > 2 => {
                // Bundled short options (`-ms`).
                for c in name[1..].chars() {
                    match c {
                        'e' => o.mode = Mode::AllMustExist,
                        'm' => o.mode = Mode::Missing,
                        'E' => o.mode = Mode::ParentMustExist,
                        's' => o.mode = Mode::Lexical,
                        'q' => o.quiet = true,
                        'z' => o.zero = true,
                        'L' | 'P' => {}
                        other => {
                            return Err(Box::new(usage(&format!("invalid option -- '{other}'"))));
                        }
                    }
                }
            }
            _ => return Err(Box::new(usage(&format!("unrecognized option '{arg}'")))),
        }
    }
    Ok((o, files))
}

/// How `resolved` is printed given `--relative-to` and `--relative-base`
/// (both canonical).
fn shown(resolved: String, relative_to: &Option<String>, relative_base: &Option<String>) -> String {
    match (relative_to, relative_base) {
        (Some(to), Some(base)) if is_within(&resolved, base) && is_within(to, base) => {
            relative(&resolved, to)
        }
        (Some(_), Some(_)) => resolved,
        (Some(to), None) => relative(&resolved, to),
        (None, Some(base)) if is_within(&resolved, base) => relative(&resolved, base),
        _ => resolved,
    }
}

#[async_trait]
impl bashkit::Builtin for Realpath {
    async fn execute(&self, ctx: BuiltinContext<'_>) -> bashkit::Result<ExecResult> {
        let (o, files) = match parse(ctx.args) {
            Ok(parsed) => parsed,
            Err(result) => return Ok(*result),
        };
        if files.is_empty() {
            return Ok(usage("missing operand"));
        }
        let cwd = ctx.cwd.to_string_lossy().into_owned();
        let mut err = String::new();
        let base_of = |dir: &Option<String>| -> Result<Option<String>, String> {
            match dir {
                None => Ok(None),
                Some(d) => canonical(&lexical(&cwd, d), o.mode)
                    .map(Some)
                    .map_err(|code| format!("realpath: {d}: {}\n", fs_errors::strerror(code))),
            }
        };
        let (relative_to, relative_base) =
            match (base_of(&o.relative_to), base_of(&o.relative_base)) {
                (Ok(to), Ok(base)) => (to, base),
                (Err(e), _) | (_, Err(e)) => return Ok(ExecResult::err(e, 1)),
            };
        let mut out = String::new();
        let mut failed = false;
        for file in &files {
            match canonical(&lexical(&cwd, file), o.mode) {
                Ok(resolved) => {
                    let shown = shown(resolved, &relative_to, &relative_base);
                    out.push_str(&shown);
                    out.push(if o.zero { '\0' } else { '\n' });
                }
                Err(code) => {
                    failed = true;
                    if !o.quiet {
                        err.push_str(&format!(
                            "realpath: {file}: {}\n",
                            fs_errors::strerror(code)
                        ));
                    }
                }
            }
        }
        let mut result = ExecResult::ok(out);
        result.exit_code = i32::from(failed);
        result.stderr = err.into();
        Ok(result)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_paths() {
        assert_eq!(relative("/a/b/c", "/a"), "b/c");
        assert_eq!(relative("/a/x", "/a/b"), "../x");
        assert_eq!(relative("/a", "/a"), ".");
        assert_eq!(relative("/", "/a/b"), "../..");
    }

    #[test]
    fn lexical_paths() {
        assert_eq!(lexical("/w", "../x/./y"), "/x/y");
        assert_eq!(split_last("/a/b"), ("/a", "b"));
        assert_eq!(split_last("/a"), ("/", "a"));
    }
}
