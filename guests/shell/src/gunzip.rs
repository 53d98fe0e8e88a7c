//! `gunzip` and `zcat`, streaming: the compressed input is read in ranges (stdin in
//! chunks) and inflated a few KiB at a time, each piece written out before the next,
//! so a gzip bomb (`zcat 2GiB-of-zeros.gz | head -c 100`) takes a few MiB of memory
//! rather than all of its output at once. bashkit's `gunzip` inflates a whole input
//! in one piece, and only its first member. Messages and exit codes follow GNU gzip
//! (its messages start with `gzip:`, whichever name ran it): 1 for an error, 2 for a
//! warning (an unknown suffix, an output that exists).

use std::io::Write;
use std::sync::Arc;

use bashkit::{Command, CommandContext, CommandOutput, CommandStatus, async_trait};
use flate2::write::MultiGzDecoder;

use crate::computer::workspace::fs::{self, ErrorCode, WriteOptions};
use crate::fs_errors;
use crate::streaming::{ReadError, Reader, Source};
use crate::workspace_fs::WorkspaceFs;

/// Compressed bytes inflated per step: deflate's largest ratio is about 1032:1,
/// so one step makes at most a few MiB of output.
const STEP: usize = 4 << 10;

/// An output file is made or replaced.
const WRITE: WriteOptions = WriteOptions {
    mode: None,
    exclusive: false,
    create_parents: false,
};

pub struct Gunzip {
    pub fs: Arc<WorkspaceFs>,
    /// `zcat`: always to stdout.
    pub to_stdout: bool,
}

#[derive(Default)]
struct Options {
    to_stdout: bool,
    keep: bool,
    force: bool,
    quiet: bool,
    test: bool,
}

fn parse(args: &[String], opts: &mut Options) -> Result<Vec<String>, String> {
    let mut files = Vec::new();
    let mut options_done = false;
    for arg in args {
        if options_done || arg == "-" || !arg.starts_with('-') {
            files.push(arg.clone());
            continue;
        }
        match arg.as_str() {
            "--" => options_done = true,
            "--stdout" | "--to-stdout" => opts.to_stdout = true,
            "--keep" => opts.keep = true,
            "--force" => opts.force = true,
            "--quiet" => opts.quiet = true,
            "--test" => opts.test = true,
            "--decompress" | "--uncompress" | "--name" | "--no-name" => {}
            long if long.starts_with("--") => return Err(format!("unrecognized option '{long}'")),
            short => {
                for c in short[1..].chars() {
                    match c {
                        'c' => opts.to_stdout = true,
                        'k' => opts.keep = true,
                        'f' => opts.force = true,
                        'q' => opts.quiet = true,
                        't' => opts.test = true,
                        'd' | 'n' | 'N' => {}
                        other => return Err(format!("invalid option -- '{other}'")),
                    }
                }
            }
        }
    }
    if files.is_empty() {
        files.push("-".to_string());
    }
    Ok(files)
}

/// The name without its gzip suffix, as GNU gzip strips it.
fn strip_suffix(name: &str) -> Option<String> {
    let base = name.rsplit('/').next().unwrap_or(name);
    if let Some(stem) = base.strip_suffix(".tgz").filter(|s| !s.is_empty()) {
        return Some(format!("{}{stem}.tar", &name[..name.len() - base.len()]));
    }
    [".gz", "-gz", ".z", "-z", "_z", ".Z"]
        .iter()
        .find_map(|suffix| base.strip_suffix(suffix).filter(|s| !s.is_empty()))
        .map(|stem| format!("{}{stem}", &name[..name.len() - base.len()]))
}

/// Where one input's output goes.
enum Sink<'a> {
    Stdout(&'a CommandOutput),
    /// Nowhere (`-t`).
    Discard,
    /// A workspace file, written as it comes (`gunzip FILE.gz`).
    File {
        path: String,
        started: bool,
    },
}

impl Sink<'_> {
    async fn put(&mut self, bytes: &[u8]) -> Result<(), Failure> {
        match self {
            Sink::Stdout(out) => out.write_all(bytes).await.map_err(Failure::Shell),
            Sink::Discard => Ok(()),
            Sink::File { path, started } => {
                let written = if *started {
                    fs::append(path, bytes)
                } else {
                    *started = true;
                    fs::write(path, bytes, WRITE)
                };
                written.map_err(|e| Failure::Output(path.clone(), e.code))
            }
        }
    }
}

enum Failure {
    /// The input is not what gzip reads, with GNU's words for why.
    Data(&'static str),
    Read(ReadError),
    Output(String, ErrorCode),
    Shell(bashkit::Error),
}

/// Inflate `source` into `sink`, a step at a time.
async fn inflate(
    source: &Source,
    ctx: &CommandContext<'_>,
    stdin_cut: bool,
    sink: &mut Sink<'_>,
) -> Result<(), Failure> {
    let mut reader = Reader::new(source, &ctx.stdin).stdin_cut(stdin_cut);
    let mut decoder = MultiGzDecoder::new(Vec::new());
    let mut seen = 0usize;
    while let Some(piece) = reader.next().await.map_err(|e| match e {
        ReadError::Shell(e) => Failure::Shell(e),
        e => Failure::Read(e),
    })? {
        for step in piece.chunks(STEP) {
            if seen < 2 && !is_gzip_start(step, seen) {
                return Err(Failure::Data("not in gzip format"));
            }
            seen += step.len();
            let inflated = decoder.write_all(step);
            let out = std::mem::take(decoder.get_mut());
            sink.put(&out).await?;
            if inflated.is_err() {
                return Err(Failure::Data("invalid compressed data--format violated"));
            }
        }
    }
    if seen == 0 {
        return Err(Failure::Data("unexpected end of file"));
    }
    let finished = decoder.try_finish();
    let out = std::mem::take(decoder.get_mut());
    sink.put(&out).await?;
    finished.map_err(|_| Failure::Data("unexpected end of file"))
}

/// Whether the first bytes (from offset `seen`) can start gzip's magic 1f 8b.
fn is_gzip_start(step: &[u8], seen: usize) -> bool {
    const MAGIC: [u8; 2] = [0x1f, 0x8b];
    step.iter()
        .zip(&MAGIC[seen..])
        .all(|(got, want)| got == want)
}

#[async_trait]
impl Command for Gunzip {
    async fn execute(&self, ctx: CommandContext<'_>) -> bashkit::Result<CommandStatus> {
        let mut opts = Options {
            to_stdout: self.to_stdout,
            ..Options::default()
        };
        let files = match parse(ctx.args, &mut opts) {
            Ok(files) => files,
            Err(message) => {
                let text = format!("gzip: {message}\nTry `gzip --help' for more information.\n");
                ctx.stderr.write_all(text.as_bytes()).await?;
                return Ok(CommandStatus::with_code(1));
            }
        };
        let stdin_cut = self.fs.stdin_is_device_prefix();
        let mut status = 0;
        for file in &files {
            let (mut code, message) = self.one(file, &opts, &ctx, stdin_cut).await?;
            // `-q` silences warnings, and their exit code with them.
            if opts.quiet && code == 2 {
                code = 0;
            } else if let Some(message) = message {
                ctx.stderr.write_all(message.as_bytes()).await?;
            }
            // An error outranks a warning.
            if code == 1 || (code == 2 && status == 0) {
                status = code;
            }
        }
        let status =
            crate::streaming::written_status(&self.fs, "gzip", &ctx.stderr, status).await?;
        Ok(CommandStatus::with_code(status))
    }
}

impl Gunzip {
    /// One operand: its exit code (0, 1 or 2) and what to print about it.
    async fn one(
        &self,
        file: &str,
        opts: &Options,
        ctx: &CommandContext<'_>,
        stdin_cut: bool,
    ) -> bashkit::Result<(i32, Option<String>)> {
        let (source, name, path) = match open(file, ctx, &self.fs) {
            Ok(found) => found,
            Err(message) => return Ok((1, Some(message))),
        };
        let shown = if file == "-" { "stdin" } else { name.as_str() };
        let mut sink = if opts.test {
            Sink::Discard
        } else if opts.to_stdout || file == "-" {
            Sink::Stdout(&ctx.stdout)
        } else {
            let Some(out) = strip_suffix(&name) else {
                return Ok((
                    2,
                    Some(format!("gzip: {name}: unknown suffix -- ignored\n")),
                ));
            };
            let out_path = absolute(ctx, &out);
            if !opts.force && crate::devices::stat(&out_path, false).is_ok() {
                return Ok((
                    2,
                    Some(format!("gzip: {out} already exists;\tnot overwritten\n")),
                ));
            }
            Sink::File {
                path: out_path,
                started: false,
            }
        };
        let result = inflate(&source, ctx, stdin_cut, &mut sink).await;
        if let Sink::File { path: out, started } = &sink {
            match &result {
                // An empty output is a file still.
                Ok(()) if !*started => drop(fs::write(out, &[], WRITE)),
                // GNU gzip removes what it wrote of a failed output.
                Err(_) if *started => drop(fs::rm(out, false, true)),
                _ => {}
            }
            if result.is_ok() && !opts.keep {
                drop(fs::rm(&path, false, false));
            }
        }
        Ok(match result {
            Ok(()) => (0, None),
            Err(Failure::Shell(e)) => return Err(e),
            // GNU gzip starts a line of its own for what it found in the data.
            Err(Failure::Data(why)) => (1, Some(format!("\ngzip: {shown}: {why}\n"))),
            Err(Failure::Read(e)) => (1, e.message("gzip", shown)),
            Err(Failure::Output(path, code)) => (
                1,
                Some(format!("gzip: {path}: {}\n", fs_errors::strerror(code))),
            ),
        })
    }
}

/// The operand's source, the name gzip reports it by and its absolute path: a
/// missing `NAME` is looked for as `NAME.gz`, as GNU gzip does.
fn open(
    file: &str,
    ctx: &CommandContext<'_>,
    ws: &WorkspaceFs,
) -> Result<(Source, String, String), String> {
    if file == "-" {
        return Source::open(file, ctx.cwd, ws)
            .map(|s| (s, "stdin".to_string(), String::new()))
            .map_err(|e| format!("gzip: stdin: {}\n", fs_errors::strerror(e.0)));
    }
    let mut tried = file.to_string();
    let mut found = Source::open(file, ctx.cwd, ws);
    if matches!(&found, Err(e) if matches!(e.0, ErrorCode::Enoent)) && strip_suffix(file).is_none()
    {
        tried = format!("{file}.gz");
        found = Source::open(&tried, ctx.cwd, ws);
    }
    match found {
        Ok(source) => {
            let path = absolute(ctx, &tried);
            Ok((source, tried, path))
        }
        Err(e) => Err(format!("gzip: {tried}: {}\n", fs_errors::strerror(e.0))),
    }
}

fn absolute(ctx: &CommandContext<'_>, name: &str) -> String {
    bashkit::normalize_path(&bashkit::vfs_join(ctx.cwd, name))
        .to_string_lossy()
        .into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suffixes_as_gnu_strips_them() {
        assert_eq!(strip_suffix("a.gz").as_deref(), Some("a"));
        assert_eq!(strip_suffix("d/a.tgz").as_deref(), Some("d/a.tar"));
        assert_eq!(strip_suffix("a.txt"), None);
        assert_eq!(strip_suffix(".gz"), None);
    }

    #[test]
    fn the_magic_may_arrive_split() {
        assert!(is_gzip_start(&[0x1f], 0));
        assert!(is_gzip_start(&[0x8b, 0], 1));
        assert!(!is_gzip_start(b"pl", 0));
    }
}
