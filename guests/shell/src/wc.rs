//! `wc`, counting as it reads: files are read in ranges, so counting a 100 MB file
//! takes a few MiB of memory (bashkit's own `wc` holds the whole input and a second,
//! text copy of it), and a missing file does not stop the others.
//!
//! stdin is read piece by piece too (a registered command), so `cat big | wc -c`
//! holds a pipe's worth at a time. bashkit would hand a pipeline's streaming stage
//! inside `... | while read x; do n=$(echo "$x" | wc -c); done` the loop's input as
//! well; `pipe_stages` respells such pipelines so that it does not.
//!
//! Counting follows GNU `wc`: lines are newlines, words are runs of non-whitespace,
//! `-L` is the widest line with tabs to the next multiple of 8, and characters are
//! UTF-8 sequences when the locale (`LC_ALL`, `LC_CTYPE`, `LANG`) is a UTF-8 one, else
//! bytes (the C locale, which is what an empty environment means). Column widths follow GNU's rule (unpadded for one count
//! of one input, else the width of the regular files' total size, at least 7 when an
//! input is a pipe).

use std::sync::Arc;

use bashkit::{Command, CommandContext, CommandStatus, async_trait};

use crate::computer::workspace::fs::ErrorCode;
use crate::fs_errors;
use crate::streaming::{OpenError, Source, read_range};
use crate::workspace_fs::WorkspaceFs;

pub struct Wc {
    pub fs: Arc<WorkspaceFs>,
}

#[derive(Default, Clone, Copy)]
struct Columns {
    lines: bool,
    words: bool,
    chars: bool,
    bytes: bool,
    max_line: bool,
}

impl Columns {
    fn count(&self) -> usize {
        [
            self.lines,
            self.words,
            self.chars,
            self.bytes,
            self.max_line,
        ]
        .iter()
        .filter(|b| **b)
        .count()
    }
}

#[derive(Default, Clone, Copy, Debug, PartialEq, Eq)]
struct Counts {
    lines: u64,
    words: u64,
    chars: u64,
    bytes: u64,
    max_line: u64,
}

/// Counting state carried from one piece to the next.
#[derive(Default)]
struct Counter {
    counts: Counts,
    in_word: bool,
    line_width: u64,
    /// Characters are UTF-8 sequences (else bytes).
    utf8: bool,
}

/// Whether the locale the environment selects is a UTF-8 one.
fn utf8_locale(env: &std::collections::HashMap<String, String>) -> bool {
    ["LC_ALL", "LC_CTYPE", "LANG"]
        .iter()
        .find_map(|k| env.get(*k).filter(|v| !v.is_empty()))
        .is_some_and(|v| {
            let v = v.to_ascii_lowercase();
            v.contains("utf-8") || v.contains("utf8")
        })
}

impl Counter {
    fn feed(&mut self, piece: &[u8]) {
        let c = &mut self.counts;
        c.bytes += piece.len() as u64;
        for &b in piece {
            // A UTF-8 character starts at every byte that is not a continuation byte.
            let starts_char = !self.utf8 || (b & 0xC0) != 0x80;
            if starts_char {
                c.chars += 1;
            }
            match b {
                b'\n' => {
                    c.lines += 1;
                    c.max_line = c.max_line.max(self.line_width);
                    self.line_width = 0;
                    self.in_word = false;
                }
                b'\t' => {
                    self.line_width = (self.line_width / 8 + 1) * 8;
                    self.in_word = false;
                }
                b'\r' | 0x0c => {
                    c.max_line = c.max_line.max(self.line_width);
                    self.line_width = 0;
                    self.in_word = false;
                }
                b' ' | 0x0b => {
                    self.line_width += 1;
                    self.in_word = false;
                }
                _ => {
                    if starts_char && b >= 0x20 && b != 0x7f {
                        self.line_width += 1;
                    }
                    if !self.in_word {
                        c.words += 1;
                        self.in_word = true;
                    }
                }
            }
        }
    }

    fn finish(mut self) -> Counts {
        self.counts.max_line = self.counts.max_line.max(self.line_width);
        self.counts
    }
}

fn parse(args: &[String]) -> Result<(Columns, Vec<String>), String> {
    let mut c = Columns::default();
    let mut files = Vec::new();
    let mut options_done = false;
    for arg in args {
        if options_done || arg == "-" || !arg.starts_with('-') {
            files.push(arg.clone());
            continue;
        }
        match arg.as_str() {
            "--" => options_done = true,
            "--lines" => c.lines = true,
            "--words" => c.words = true,
            "--chars" => c.chars = true,
            "--bytes" => c.bytes = true,
            "--max-line-length" => c.max_line = true,
            long if long.starts_with("--") => return Err(format!("unrecognized option '{long}'")),
            short => {
                for ch in short[1..].chars() {
                    match ch {
                        'l' => c.lines = true,
                        'w' => c.words = true,
                        'm' => c.chars = true,
                        'c' => c.bytes = true,
                        'L' => c.max_line = true,
                        other => return Err(format!("invalid option -- '{other}'")),
                    }
                }
            }
        }
    }
    if c.count() == 0 {
        c.lines = true;
        c.words = true;
        c.bytes = true;
    }
    Ok((c, files))
}

fn format_line(counts: &Counts, cols: &Columns, width: usize, name: Option<&str>) -> String {
    let mut fields = Vec::new();
    for (on, value) in [
        (cols.lines, counts.lines),
        (cols.words, counts.words),
        (cols.chars, counts.chars),
        (cols.bytes, counts.bytes),
        (cols.max_line, counts.max_line),
    ] {
        if on {
            fields.push(format!("{value:>width$}"));
        }
    }
    let mut line = fields.join(" ");
    if let Some(name) = name {
        line.push(' ');
        line.push_str(name);
    }
    line.push('\n');
    line
}

#[async_trait]
impl Command for Wc {
    async fn execute(&self, ctx: CommandContext<'_>) -> bashkit::Result<CommandStatus> {
        let (cols, files) = match parse(ctx.args) {
            Ok(parsed) => parsed,
            Err(message) => {
                let text = format!("wc: {message}\nTry 'wc --help' for more information.\n");
                ctx.stderr.write_all(text.as_bytes()).await?;
                return Ok(CommandStatus::with_code(1));
            }
        };
        let utf8 = utf8_locale(ctx.env);
        let named = !files.is_empty();
        let operands = if named { files } else { vec!["-".to_string()] };
        // GNU sizes the columns before reading, from what `stat` says.
        let sources: Vec<_> = operands
            .iter()
            .map(|f| Source::open(f, ctx.cwd, &self.fs))
            .collect();
        let width = if operands.len() == 1 && cols.count() == 1 {
            1
        } else {
            let mut minimum = 1;
            let mut total = 0u64;
            for source in &sources {
                match source.as_ref().map(Source::regular_size) {
                    Ok(Some(size)) => total += size,
                    // A pipe, or a directory: the size is unknown.
                    Ok(None) | Err(OpenError(ErrorCode::Eisdir)) => minimum = 7,
                    Err(_) => {}
                }
            }
            total.to_string().len().max(minimum)
        };
        let mut out = String::new();
        let mut err = String::new();
        let mut totals = Counts::default();
        for (operand, source) in operands.iter().zip(&sources) {
            let name = named.then_some(operand.as_str());
            let source = match source {
                Ok(source) => source,
                Err(e) => {
                    err.push_str(&format!("wc: {operand}: {}\n", fs_errors::strerror(e.0)));
                    if e.0 == ErrorCode::Eisdir {
                        // GNU still prints a line of zeros for a directory.
                        out.push_str(&format_line(&Counts::default(), &cols, width, name));
                    }
                    continue;
                }
            };
            let mut counter = Counter {
                utf8,
                ..Counter::default()
            };
            match source {
                // Read to its end once: a second `-` sees it empty.
                Source::Stdin => {
                    while let Some(piece) = ctx.stdin.read_chunk().await? {
                        counter.feed(&piece);
                    }
                }
                Source::Device(device) => counter.feed(&device.read()),
                Source::File(path) => {
                    let mut offset = 0;
                    loop {
                        match read_range(path, offset) {
                            Ok(piece) if piece.is_empty() => break,
                            Ok(piece) => {
                                offset += piece.len() as u64;
                                counter.feed(&piece);
                            }
                            Err(code) => {
                                err.push_str(&format!(
                                    "wc: {operand}: {}\n",
                                    fs_errors::strerror(code)
                                ));
                                break;
                            }
                        }
                    }
                }
            }
            let counts = counter.finish();
            totals.lines += counts.lines;
            totals.words += counts.words;
            totals.chars += counts.chars;
            totals.bytes += counts.bytes;
            totals.max_line = totals.max_line.max(counts.max_line);
            out.push_str(&format_line(&counts, &cols, width, name));
        }
        if operands.len() > 1 {
            out.push_str(&format_line(&totals, &cols, width, Some("total")));
        }
        ctx.stdout.write_all(out.as_bytes()).await?;
        ctx.stderr.write_all(err.as_bytes()).await?;
        Ok(CommandStatus::with_code(i32::from(!err.is_empty())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count(pieces: &[&[u8]]) -> Counts {
        let mut c = Counter {
            utf8: true,
            ..Counter::default()
        };
        for p in pieces {
            c.feed(p);
        }
        c.finish()
    }

    #[test]
    fn counts_across_pieces() {
        let c = count(&[b"hello wo", b"rld\n\tx  y\n", b"last"]);
        assert_eq!(c.lines, 2);
        assert_eq!(c.words, 5);
        assert_eq!(c.bytes, 22);
        assert_eq!(c.max_line, 12);
    }

    #[test]
    fn utf8_chars() {
        let c = count(&["héllo\n".as_bytes()]);
        assert_eq!(c.chars, 6);
        assert_eq!(c.bytes, 7);
        assert_eq!(c.words, 1);
    }

    #[test]
    fn widths() {
        let cols = Columns {
            lines: true,
            ..Columns::default()
        };
        let counts = Counts {
            lines: 3,
            ..Counts::default()
        };
        assert_eq!(format_line(&counts, &cols, 1, None), "3\n");
        assert_eq!(format_line(&counts, &cols, 3, Some("f")), "  3 f\n");
    }
}
