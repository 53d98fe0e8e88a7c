//! `mv`: rename, into a directory or onto a name, with `-n`, `-u`, `-v`, `-f`,
//! `-i` (no terminal to ask: as `-f`), `-T`, `-t` and GNU's checks and messages.

use std::path::Path;

use bashkit::{BuiltinContext, ExecResult, async_trait};

use super::args::{self, Job};
use super::{is_within, lstat, reason, stat};

pub struct Mv;

const LETTERS: &str = "bfinuvTZ";
const LONGS: &[(&str, char)] = &[
    ("backup", 'b'),
    ("force", 'f'),
    ("interactive", 'i'),
    ("no-clobber", 'n'),
    ("update", 'u'),
    ("verbose", 'v'),
    ("no-target-directory", 'T'),
    ("strip-trailing-slashes", 'S'),
    ("context", 'Z'),
];

#[async_trait]
impl bashkit::Builtin for Mv {
    async fn execute(&self, ctx: BuiltinContext<'_>) -> bashkit::Result<ExecResult> {
        let parsed = match args::parse("mv", ctx.args, LETTERS, LONGS) {
            Ok(p) => p,
            Err(message) => return Ok(ExecResult::err(message, 1)),
        };
        let split = match args::split("mv", &parsed) {
            Ok(s) => s,
            Err(message) => return Ok(ExecResult::err(message, 1)),
        };
        let target = args::resolve(ctx.cwd, &split.1);
        let target_is_dir = stat(&*ctx.fs, &target)
            .await
            .is_some_and(|m| m.file_type.is_dir());
        let jobs = match args::jobs("mv", &parsed, split, target_is_dir) {
            Ok(j) => j,
            Err(message) => return Ok(ExecResult::err(message, 1)),
        };
        let no_clobber = parsed.last_of(&['f', 'i', 'n']) == Some('n');
        let (mut out, mut err) = (String::new(), String::new());
        for job in &jobs {
            match move_one(&ctx, job, no_clobber, parsed.has('u')).await {
                Ok(true) if parsed.has('v') => {
                    out.push_str(&format!("renamed '{}' -> '{}'\n", job.source, job.dest));
                }
                Ok(_) => {}
                Err(message) => err.push_str(&format!("mv: {message}\n")),
            }
        }
        let mut result = ExecResult::with_code(out, i32::from(!err.is_empty()));
        result.stderr = err.into();
        Ok(result)
    }
}

/// Move one source; `Ok(false)` when it was left alone (`-n`, `-u`).
async fn move_one(
    ctx: &BuiltinContext<'_>,
    job: &Job,
    no_clobber: bool,
    update: bool,
) -> Result<bool, String> {
    let fs = &*ctx.fs;
    let (from, to) = (
        args::resolve(ctx.cwd, &job.source),
        args::resolve(ctx.cwd, &job.dest),
    );
    let (s, d) = (&job.source, &job.dest);
    let Some(src) = lstat(fs, &from).await else {
        return Err(format!("cannot stat '{s}': No such file or directory"));
    };
    if let Some(dst) = lstat(fs, &to).await {
        if from == to {
            return Err(format!("'{s}' and '{d}' are the same file"));
        }
        if no_clobber || (update && dst.modified >= src.modified) {
            return Ok(false);
        }
        let dst_is_dir = stat(fs, &to).await.is_some_and(|m| m.file_type.is_dir());
        if dst_is_dir && !src.file_type.is_dir() {
            return Err(format!(
                "cannot overwrite directory '{d}' with non-directory"
            ));
        }
        if !dst_is_dir && src.file_type.is_dir() {
            return Err(format!(
                "cannot overwrite non-directory '{d}' with directory '{s}'"
            ));
        }
    }
    if src.file_type.is_dir() && is_within(&to, &from) {
        return Err(format!(
            "cannot move '{s}' to a subdirectory of itself, '{d}'"
        ));
    }
    fs.rename(&from, Path::new(&to))
        .await
        .map(|()| true)
        .map_err(|e| format!("cannot move '{s}' to '{d}': {}", reason(&e)))
}
