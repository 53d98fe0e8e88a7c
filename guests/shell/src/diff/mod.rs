//! `diff`, GNU's: normal, unified (`-u`, `-U N`), context (`-c`, `-C N`) and
//! side-by-side (`-y`, `-W N`) output,
//! `-q`, `-s`, `-r`, `-N`, the white-space and blank-line options (`-w -b -Z -E -B
//! -i --strip-trailing-cr`), `-a`, `--label`, and a directory against a directory
//! or a file. bashkit's `diff` has only `-u` and `-q` and no directories.
//!
//! Exit status as GNU's: 0 no differences, 1 some, 2 trouble.

mod compare;
mod discard;
mod files;
mod lines;
mod options;
mod render;
mod side_by_side;
mod tree;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use bashkit::{BuiltinContext, ExecResult, FileSystem, async_trait};

use options::{Options, TRY_HELP};

pub struct Diff;

/// One `diff` invocation: what it compares with, and what it has written so far.
pub(crate) struct Run {
    fs: Arc<dyn FileSystem>,
    cwd: PathBuf,
    opts: Options,
    stdin: Vec<u8>,
    tz: Option<String>,
    out: Vec<u8>,
    err: String,
    /// 0, 1 (differences) or 2 (trouble); the highest wins.
    status: i32,
}

impl Run {
    fn resolve(&self, operand: &str) -> PathBuf {
        bashkit::normalize_path(&bashkit::vfs_join(&self.cwd, operand))
    }

    fn differ(&mut self) {
        self.status = self.status.max(1);
    }

    fn trouble(&mut self, name: &str, e: &bashkit::Error) {
        let reason = match e {
            bashkit::Error::Io(io) => io.to_string(),
            other => other.to_string(),
        };
        self.err.push_str(&format!("diff: {name}: {reason}\n"));
        self.status = 2;
    }
}

fn operands(opts: &Options) -> Result<(String, String), String> {
    match opts.operands.as_slice() {
        [a, b] => Ok((a.clone(), b.clone())),
        [] => Err(format!("diff: missing operand after 'diff'\n{TRY_HELP}")),
        [a] => Err(format!("diff: missing operand after '{a}'\n{TRY_HELP}")),
        [_, _, extra, ..] => Err(format!("diff: extra operand '{extra}'\n{TRY_HELP}")),
    }
}

#[async_trait]
impl bashkit::Builtin for Diff {
    async fn execute(&self, ctx: BuiltinContext<'_>) -> bashkit::Result<ExecResult> {
        let opts = match Options::parse(ctx.args) {
            Ok(o) => o,
            Err(message) => return Ok(ExecResult::err(message, 2)),
        };
        let (a, b) = match operands(&opts) {
            Ok(pair) => pair,
            Err(message) => return Ok(ExecResult::err(message, 2)),
        };
        let mut run = Run {
            fs: ctx.fs.clone(),
            cwd: ctx.cwd.clone(),
            opts,
            stdin: ctx.stdin.map(|s| s.as_bytes().to_vec()).unwrap_or_default(),
            tz: ctx.env.get("TZ").cloned(),
            out: Vec::new(),
            err: String::new(),
            status: 0,
        };
        tree::top(&mut run, &a, &b).await;
        let mut result = ExecResult::with_code(std::mem::take(&mut run.out), run.status);
        result.stderr = run.err.into();
        Ok(result)
    }
}

/// `dir` joined with `name` as GNU shows it: `a/` and `x` give `a/x`.
fn join_display(dir: &str, name: &str) -> String {
    if dir.ends_with('/') {
        format!("{dir}{name}")
    } else {
        format!("{dir}/{name}")
    }
}

fn file_name(operand: &str) -> String {
    Path::new(operand)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| operand.to_string())
}

/// Our output against GNU diff's on many small random files, where GNU diff is
/// installed (the guest's unit tests run natively).
#[cfg(test)]
mod against_gnu {
    use super::files::marked_changes;
    use super::lines::Text;
    use super::options::Ignore;
    use super::render;
    use super::side_by_side;

    fn gnu(args: &[&str], a: &[u8], b: &[u8]) -> Option<Vec<u8>> {
        let dir = std::env::temp_dir().join(format!("guest-diff-{}", std::process::id()));
        std::fs::create_dir_all(&dir).ok()?;
        std::fs::write(dir.join("a"), a).ok()?;
        std::fs::write(dir.join("b"), b).ok()?;
        let out = std::process::Command::new("/usr/bin/diff")
            .args(args)
            .arg(dir.join("a"))
            .arg(dir.join("b"))
            .output()
            .ok()?;
        Some(out.stdout)
    }

    fn ours(unified: Option<usize>, ignore: &Ignore, a: &[u8], b: &[u8]) -> Vec<u8> {
        let (ta, tb) = (Text::split(a), Text::split(b));
        let marked = marked_changes(&ta, &tb, ignore, unified.unwrap_or(0));
        let mut out = Vec::new();
        match unified {
            None => render::normal(&mut out, &ta, &tb, &marked),
            Some(n) => render::unified(&mut out, &ta, &tb, &render::hunks(&marked, n), n),
        }
        out
    }

    /// A file of up to 30 lines drawn from a few words, so that lines repeat.
    fn random_file(seed: &mut u64) -> Vec<u8> {
        let mut next = || {
            *seed ^= *seed << 13;
            *seed ^= *seed >> 7;
            *seed ^= *seed << 17;
            *seed
        };
        let words: [&[u8]; 5] = [b"a", b"b", b"c", b"", b"d\td"];
        let n = next() % 31;
        let mut out = Vec::new();
        for _ in 0..n {
            out.extend_from_slice(words[(next() % 5) as usize]);
            out.push(b'\n');
        }
        if next() % 8 == 0 && !out.is_empty() {
            out.pop();
        }
        out
    }

    /// The output without its two header lines (names and times).
    fn after_header(out: &[u8]) -> Vec<u8> {
        let mut newlines = out.iter().enumerate().filter(|(_, c)| **c == b'\n');
        match newlines.nth(1) {
            Some((i, _)) => out[i + 1..].to_vec(),
            None => Vec::new(),
        }
    }

    #[test]
    fn random_files_match() {
        if !std::path::Path::new("/usr/bin/diff").exists() {
            return;
        }
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let plain = Ignore::default();
        let blank = Ignore {
            blank_lines: true,
            ..Ignore::default()
        };
        for round in 0..600 {
            let (a, b) = (random_file(&mut seed), random_file(&mut seed));
            let normal = gnu(&[], &a, &b).unwrap();
            assert_eq!(
                ours(None, &plain, &a, &b),
                normal,
                "round {round}: {a:?} {b:?}"
            );
            let unified = gnu(&["-U2"], &a, &b).unwrap();
            assert_eq!(
                ours(Some(2), &plain, &a, &b),
                after_header(&unified),
                "round {round} -U2"
            );
            let context = gnu(&["-C1"], &a, &b).unwrap();
            let (ta, tb) = (Text::split(&a), Text::split(&b));
            let mut ctx = Vec::new();
            let marked = marked_changes(&ta, &tb, &plain, 1);
            render::context(&mut ctx, &ta, &tb, &render::hunks(&marked, 1), 1);
            assert_eq!(ctx, after_header(&context), "round {round} -C1");
            let sides = gnu(&["-y"], &a, &b).unwrap();
            let mut ours_y = Vec::new();
            let layout = side_by_side::Layout {
                width: 130,
                suppress_common: false,
                left_column: false,
            };
            side_by_side::render(
                &mut ours_y,
                &ta,
                &tb,
                &marked_changes(&ta, &tb, &plain, 0),
                &layout,
            );
            assert_eq!(ours_y, sides, "round {round} -y: {a:?} {b:?}");
            let normal_b = gnu(&["-B"], &a, &b).unwrap();
            assert_eq!(
                ours(None, &blank, &a, &b),
                normal_b,
                "round {round} -B: {a:?} {b:?}"
            );
        }
    }
}
