//! `head`, streaming: files are read in ranges, stdin chunk by chunk and the endless
//! devices (`/dev/zero`, `/dev/urandom`) piece by piece, and reading stops once the
//! count is reached. So `head -c 2G /dev/zero > f` writes 2 GiB (within the run's
//! limits) and `cat /dev/urandom | head -c N` ends, where bashkit's `head` reads each
//! input whole, which cuts the devices at their bounded whole-read size (see
//! `devices`).
//!
//! Options and messages are GNU's: `-c`/`-n` with `-` (all but the last N) and the
//! size suffixes (`b`, `kB`, `K`, `KiB`, `MB`, `M`, ...), the obsolete `-NUM`, `-q`,
//! `-v`, `-z`, and `==> NAME <==` headers for several inputs.

use std::sync::Arc;

use bashkit::{Command, CommandContext, CommandStatus, async_trait};

use crate::computer::workspace::fs::ErrorCode;
use crate::fs_errors;
use crate::streaming::{ReadError, Reader, Source};
use crate::workspace_fs::WorkspaceFs;

mod select;

use select::{Count, Selector};

pub struct Head {
    pub fs: Arc<WorkspaceFs>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Headers {
    Auto,
    Never,
    Always,
}

#[derive(Debug)]
struct Options {
    count: Count,
    headers: Headers,
    zero_terminated: bool,
    files: Vec<String>,
}

/// GNU's multiplier for a size suffix; `None` for an unknown one.
fn multiplier(suffix: &str) -> Option<u64> {
    if suffix.is_empty() {
        return Some(1);
    }
    if suffix == "b" {
        return Some(512);
    }
    let mut chars = suffix.chars();
    let power = match chars.next()? {
        'k' | 'K' => 1,
        'M' => 2,
        'G' => 3,
        'T' => 4,
        'P' => 5,
        'E' => 6,
        _ => return None,
    };
    let base: u64 = match chars.as_str() {
        "" | "iB" => 1024,
        "B" => 1000,
        _ => return None,
    };
    Some(base.saturating_pow(power))
}

/// A `-c`/`-n` value: `(all but the last, count)`. Counts past `u64` mean
/// "everything", as in GNU.
fn parse_count(value: &str) -> Option<(bool, u64)> {
    let (but_last, rest) = match value.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, value.strip_prefix('+').unwrap_or(value)),
    };
    let digits = rest
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(rest.len());
    if digits == 0 {
        return None;
    }
    let n = rest[..digits]
        .parse::<u64>()
        .unwrap_or(u64::MAX)
        .saturating_mul(multiplier(&rest[digits..])?);
    Some((but_last, n))
}

fn count(value: &str, bytes: bool) -> Result<Count, String> {
    let what = if bytes { "bytes" } else { "lines" };
    let (but_last, n) =
        parse_count(value).ok_or_else(|| format!("invalid number of {what}: '{value}'"))?;
    Ok(Count { bytes, but_last, n })
}

/// A usage error: the message, then GNU's hint.
fn usage(message: String) -> String {
    format!("head: {message}\nTry 'head --help' for more information.\n")
}

fn parse(args: &[String]) -> Result<Options, String> {
    let mut opts = Options {
        count: Count {
            bytes: false,
            but_last: false,
            n: 10,
        },
        headers: Headers::Auto,
        zero_terminated: false,
        files: Vec::new(),
    };
    let mut args = args.iter();
    let mut options_done = false;
    while let Some(arg) = args.next() {
        if options_done || arg == "-" || !arg.starts_with('-') {
            opts.files.push(arg.clone());
            continue;
        }
        if arg == "--" {
            options_done = true;
            continue;
        }
        if let Some(long) = arg.strip_prefix("--") {
            let (name, inline) = match long.split_once('=') {
                Some((name, value)) => (name, Some(value.to_string())),
                None => (long, None),
            };
            let mut value = |name: &str| {
                inline
                    .clone()
                    .or_else(|| args.next().cloned())
                    .ok_or_else(|| usage(format!("option '--{name}' requires an argument")))
            };
            match name {
                "bytes" => opts.count = count(&value("bytes")?, true).map_err(usage_plain)?,
                "lines" => opts.count = count(&value("lines")?, false).map_err(usage_plain)?,
                "quiet" | "silent" => opts.headers = Headers::Never,
                "verbose" => opts.headers = Headers::Always,
                "zero-terminated" => opts.zero_terminated = true,
                _ => return Err(usage(format!("unrecognized option '{arg}'"))),
            }
            continue;
        }
        let short = &arg[1..];
        // The obsolete `-NUM` (lines), as GNU still takes it.
        if short.bytes().all(|b| b.is_ascii_digit()) {
            opts.count = count(short, false).map_err(usage_plain)?;
            continue;
        }
        for (i, c) in short.char_indices() {
            match c {
                'c' | 'n' => {
                    let rest = &short[i + 1..];
                    let value = if rest.is_empty() {
                        args.next()
                            .cloned()
                            .ok_or_else(|| usage(format!("option requires an argument -- '{c}'")))?
                    } else {
                        rest.to_string()
                    };
                    opts.count = count(&value, c == 'c').map_err(usage_plain)?;
                    break;
                }
                'q' => opts.headers = Headers::Never,
                'v' => opts.headers = Headers::Always,
                'z' => opts.zero_terminated = true,
                other => return Err(usage(format!("invalid option -- '{other}'"))),
            }
        }
    }
    if opts.files.is_empty() {
        opts.files.push("-".to_string());
    }
    Ok(opts)
}

/// A bad count is reported without the `--help` hint, as GNU does.
fn usage_plain(message: String) -> String {
    format!("head: {message}\n")
}

/// The name GNU prints for an operand.
fn shown(file: &str) -> &str {
    if file == "-" { "standard input" } else { file }
}

#[async_trait]
impl Command for Head {
    async fn execute(&self, ctx: CommandContext<'_>) -> bashkit::Result<CommandStatus> {
        let opts = match parse(ctx.args) {
            Ok(opts) => opts,
            Err(message) => {
                ctx.stderr.write_all(message.as_bytes()).await?;
                return Ok(CommandStatus::with_code(1));
            }
        };
        let headers = match opts.headers {
            Headers::Auto => opts.files.len() > 1,
            Headers::Never => false,
            Headers::Always => true,
        };
        let terminator = if opts.zero_terminated { b'\0' } else { b'\n' };
        let stdin_cut = self.fs.stdin_is_device_prefix();
        let mut status = 0;
        let mut first = true;
        for file in &opts.files {
            let source = match Source::open(file, ctx.cwd, &self.fs) {
                Ok(source) => source,
                Err(e) => {
                    let reason = fs_errors::strerror(e.0);
                    let text = if e.0 == ErrorCode::Eisdir {
                        format!("head: error reading '{file}': {reason}\n")
                    } else {
                        format!("head: cannot open '{file}' for reading: {reason}\n")
                    };
                    ctx.stderr.write_all(text.as_bytes()).await?;
                    status = 1;
                    continue;
                }
            };
            if headers {
                let gap = if first { "" } else { "\n" };
                let line = format!("{gap}==> {} <==\n", shown(file));
                ctx.stdout.write_all(line.as_bytes()).await?;
            }
            first = false;
            let mut selector = Selector::new(opts.count, terminator);
            let mut reader = Reader::new(&source, &ctx.stdin).stdin_cut(stdin_cut);
            while !selector.done() {
                let piece = match reader.next().await {
                    Ok(Some(piece)) => piece,
                    Ok(None) => break,
                    Err(ReadError::Shell(e)) => return Err(e),
                    Err(ReadError::Fs(code)) => {
                        let text = format!(
                            "head: error reading '{file}': {}\n",
                            fs_errors::strerror(code)
                        );
                        ctx.stderr.write_all(text.as_bytes()).await?;
                        status = 1;
                        break;
                    }
                    Err(e) => {
                        let text = e.message("head", file).unwrap_or_default();
                        ctx.stderr.write_all(text.as_bytes()).await?;
                        status = 1;
                        break;
                    }
                };
                let out = selector.feed(&piece);
                if !out.is_empty() {
                    ctx.stdout.write_all(&out).await?;
                }
            }
            let tail = selector.finish();
            if !tail.is_empty() {
                ctx.stdout.write_all(&tail).await?;
            }
        }
        let status =
            crate::streaming::written_status(&self.fs, "head", &ctx.stderr, status).await?;
        Ok(CommandStatus::with_code(status))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn counts_and_suffixes() {
        assert_eq!(parse_count("10"), Some((false, 10)));
        assert_eq!(parse_count("-3"), Some((true, 3)));
        assert_eq!(parse_count("2G"), Some((false, 2 << 30)));
        assert_eq!(parse_count("1kB"), Some((false, 1000)));
        assert_eq!(parse_count("1KiB"), Some((false, 1024)));
        assert_eq!(parse_count("2b"), Some((false, 1024)));
        assert_eq!(parse_count("99999999999999999999"), Some((false, u64::MAX)));
        assert_eq!(parse_count("x"), None);
        assert_eq!(parse_count("3X"), None);
    }

    #[test]
    fn option_forms() {
        let o = parse(&args(&["-c", "5", "f"])).expect("parses");
        assert!(o.count.bytes && o.count.n == 5 && o.files == ["f"]);
        let o = parse(&args(&["-n-2"])).expect("parses");
        assert!(!o.count.bytes && o.count.but_last && o.count.n == 2);
        let o = parse(&args(&["-5", "--", "-x"])).expect("parses");
        assert!(o.count.n == 5 && o.files == ["-x"]);
        let o = parse(&args(&["--bytes=3", "-qz"])).expect("parses");
        assert!(o.count.bytes && o.headers == Headers::Never && o.zero_terminated);
        let o = parse(&args(&["-vn", "1", "a", "b"])).expect("parses");
        assert!(o.headers == Headers::Always && o.files == ["a", "b"]);
        assert_eq!(
            parse(&args(&["-n", "x"])).err().as_deref(),
            Some("head: invalid number of lines: 'x'\n")
        );
        assert!(parse(&args(&["-y"])).is_err());
        assert!(parse(&args(&["-c"])).is_err());
    }
}
