//! `rm`, GNU's. bashkit's drops every removal error under `-f`, so `rm -rf` of a
//! read-only subtree exited 0 having removed nothing; `-f` only silences a missing
//! operand. Also `-d`, `-v`, and GNU's refusals (`/` without
//! `--no-preserve-root`, `.` and `..`).

use std::path::Path;

use bashkit::{BuiltinContext, ExecResult, async_trait};

use super::args;
use super::{lstat, reason};

pub struct Rm;

const LETTERS: &str = "fiIrRdv";
const LONGS: &[(&str, char)] = &[
    ("force", 'f'),
    ("interactive", 'i'),
    ("recursive", 'r'),
    ("dir", 'd'),
    ("verbose", 'v'),
    ("one-file-system", 'x'),
    ("preserve-root", 'p'),
    ("no-preserve-root", 'P'),
];

#[async_trait]
impl bashkit::Builtin for Rm {
    async fn execute(&self, ctx: BuiltinContext<'_>) -> bashkit::Result<ExecResult> {
        let parsed = match args::parse("rm", ctx.args, LETTERS, LONGS) {
            Ok(p) if p.target_dir.is_none() => p,
            Ok(_) => {
                return Ok(ExecResult::err(
                    args::usage("rm", "invalid option -- 't'"),
                    1,
                ));
            }
            Err(message) => return Ok(ExecResult::err(message, 1)),
        };
        let force = parsed.last_of(&['f', 'i', 'I']) == Some('f');
        if parsed.operands.is_empty() {
            if force {
                return Ok(ExecResult::ok(String::new()));
            }
            return Ok(ExecResult::err(args::usage("rm", "missing operand"), 1));
        }
        let how = How {
            force,
            recursive: parsed.has('r') || parsed.has('R'),
            empty_dirs: parsed.has('d'),
            preserve_root: parsed.last_of(&['p', 'P']) != Some('P'),
        };
        let (mut out, mut err) = (String::new(), String::new());
        for operand in &parsed.operands {
            match remove_one(&ctx, operand, &how).await {
                Ok(Some(what)) if parsed.has('v') => {
                    out.push_str(&format!("removed {what}'{operand}'\n"));
                }
                Ok(_) => {}
                Err(message) => err.push_str(&format!("rm: {message}\n")),
            }
        }
        let mut result = ExecResult::with_code(out, i32::from(!err.is_empty()));
        result.stderr = err.into();
        Ok(result)
    }
}

struct How {
    force: bool,
    recursive: bool,
    empty_dirs: bool,
    preserve_root: bool,
}

/// Remove one operand: `Ok(Some(kind))` once removed (`"directory "` or `""`, for
/// `-v`), `Ok(None)` when `-f` let a missing one pass.
async fn remove_one(
    ctx: &BuiltinContext<'_>,
    operand: &str,
    how: &How,
) -> Result<Option<&'static str>, String> {
    let last = operand
        .trim_end_matches('/')
        .rsplit('/')
        .next()
        .unwrap_or("");
    if matches!(last, "." | "..") && !operand.trim_end_matches('/').is_empty() {
        return Err(format!(
            "refusing to remove '.' or '..' directory: skipping '{operand}'"
        ));
    }
    let path = args::resolve(ctx.cwd, operand);
    let Some(meta) = lstat(&*ctx.fs, &path).await else {
        if how.force {
            return Ok(None);
        }
        return Err(format!(
            "cannot remove '{operand}': No such file or directory"
        ));
    };
    let is_dir = meta.file_type.is_dir();
    if is_dir {
        if how.recursive && how.preserve_root && path == Path::new("/") {
            return Err(format!(
                "it is dangerous to operate recursively on '{operand}'\n\
                 rm: use --no-preserve-root to override this failsafe"
            ));
        }
        if !how.recursive && !how.empty_dirs {
            return Err(format!("cannot remove '{operand}': Is a directory"));
        }
    }
    match ctx.fs.remove(&path, is_dir && how.recursive).await {
        Ok(()) => Ok(Some(if is_dir { "directory " } else { "" })),
        Err(e) => Err(format!("cannot remove '{operand}': {}", reason(&e))),
    }
}
