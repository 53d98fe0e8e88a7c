//! `cat`, streaming: files are read in ranges and stdin in chunks, and written out as
//! they come, so `cat big.log | ...` or `cat a b > c` never hold a whole file.
//! bashkit's own `cat` reads each file whole first.
//!
//! The GNU options (`-n -b -s -E -T -v -A -e -t`) are applied by a line state machine
//! that carries over between pieces and files, as GNU does (numbering continues across
//! files).

use std::sync::Arc;

use bashkit::{Command, CommandContext, CommandStatus, async_trait};

use crate::fs_errors;
use crate::streaming::{ReadError, Reader, Source};
use crate::workspace_fs::WorkspaceFs;

pub struct Cat {
    pub fs: Arc<WorkspaceFs>,
}

#[derive(Default, Clone, Copy)]
struct Flags {
    number: bool,
    number_nonblank: bool,
    squeeze: bool,
    show_ends: bool,
    show_tabs: bool,
    show_nonprinting: bool,
}

impl Flags {
    fn plain(&self) -> bool {
        !(self.number
            || self.number_nonblank
            || self.squeeze
            || self.show_ends
            || self.show_tabs
            || self.show_nonprinting)
    }
}

fn parse(args: &[String]) -> Result<(Flags, Vec<String>), String> {
    let mut f = Flags::default();
    let mut files = Vec::new();
    let mut options_done = false;
    for arg in args {
        if options_done || arg == "-" || !arg.starts_with('-') {
            files.push(arg.clone());
            continue;
        }
        match arg.as_str() {
            "--" => options_done = true,
            "--number" => f.number = true,
            "--number-nonblank" => f.number_nonblank = true,
            "--squeeze-blank" => f.squeeze = true,
            "--show-ends" => f.show_ends = true,
            "--show-tabs" => f.show_tabs = true,
            "--show-nonprinting" => f.show_nonprinting = true,
            "--show-all" => {
                f.show_nonprinting = true;
                f.show_ends = true;
                f.show_tabs = true;
            }
            long if long.starts_with("--") => return Err(format!("unrecognized option '{long}'")),
            short => {
                for c in short[1..].chars() {
                    match c {
                        'n' => f.number = true,
                        'b' => f.number_nonblank = true,
                        's' => f.squeeze = true,
                        'E' => f.show_ends = true,
                        'T' => f.show_tabs = true,
                        'v' => f.show_nonprinting = true,
                        'A' => {
                            f.show_nonprinting = true;
                            f.show_ends = true;
                            f.show_tabs = true;
                        }
                        'e' => {
                            f.show_nonprinting = true;
                            f.show_ends = true;
                        }
                        't' => {
                            f.show_nonprinting = true;
                            f.show_tabs = true;
                        }
                        'u' => {}
                        other => return Err(format!("invalid option -- '{other}'")),
                    }
                }
            }
        }
    }
    if f.number_nonblank {
        f.number = false;
    }
    if files.is_empty() {
        files.push("-".to_string());
    }
    Ok((f, files))
}

/// The line state that carries across pieces and files.
#[derive(Default)]
struct Lines {
    line_no: u64,
    at_line_start: bool,
    /// Consecutive empty lines seen (for `-s`).
    blank_run: u32,
}

impl Lines {
    fn new() -> Lines {
        Lines {
            at_line_start: true,
            ..Lines::default()
        }
    }

    fn render(&mut self, f: &Flags, input: &[u8], out: &mut Vec<u8>) {
        for &b in input {
            if self.at_line_start {
                if b == b'\n' {
                    self.blank_run += 1;
                    if f.squeeze && self.blank_run > 1 {
                        continue;
                    }
                } else {
                    self.blank_run = 0;
                }
                if f.number || (f.number_nonblank && b != b'\n') {
                    self.line_no += 1;
                    out.extend_from_slice(format!("{:>6}\t", self.line_no).as_bytes());
                }
                self.at_line_start = false;
            }
            match b {
                b'\n' => {
                    if f.show_ends {
                        out.push(b'$');
                    }
                    out.push(b'\n');
                    self.at_line_start = true;
                }
                b'\t' if f.show_tabs => out.extend_from_slice(b"^I"),
                b'\t' => out.push(b),
                _ if f.show_nonprinting => push_visible(b, out),
                _ => out.push(b),
            }
        }
    }
}

/// `cat -v` notation: `^X` for controls, `M-` for bytes above 127.
fn push_visible(b: u8, out: &mut Vec<u8>) {
    let mut c = b;
    if c >= 128 {
        out.extend_from_slice(b"M-");
        c -= 128;
    }
    match c {
        0..=31 => {
            out.push(b'^');
            out.push(c + 64);
        }
        127 => out.extend_from_slice(b"^?"),
        _ => out.push(c),
    }
}

#[async_trait]
impl Command for Cat {
    async fn execute(&self, ctx: CommandContext<'_>) -> bashkit::Result<CommandStatus> {
        let (flags, files) = match parse(ctx.args) {
            Ok(parsed) => parsed,
            Err(message) => {
                let text = format!("cat: {message}\nTry 'cat --help' for more information.\n");
                ctx.stderr.write_all(text.as_bytes()).await?;
                return Ok(CommandStatus::with_code(1));
            }
        };
        let stdin_cut = self.fs.stdin_is_device_prefix();
        let mut status = 0;
        let mut lines = Lines::new();
        let mut rendered = Vec::new();
        for file in &files {
            let source = match Source::open(file, ctx.cwd, &self.fs) {
                Ok(source) => source,
                Err(e) => {
                    let text = format!("cat: {file}: {}\n", fs_errors::strerror(e.0));
                    ctx.stderr.write_all(text.as_bytes()).await?;
                    status = 1;
                    continue;
                }
            };
            let mut reader = Reader::new(&source, &ctx.stdin).stdin_cut(stdin_cut);
            loop {
                let piece = match reader.next().await {
                    Ok(Some(piece)) => piece,
                    Ok(None) => break,
                    Err(ReadError::Shell(e)) => return Err(e),
                    Err(e) => {
                        let text = e.message("cat", file).unwrap_or_default();
                        ctx.stderr.write_all(text.as_bytes()).await?;
                        status = 1;
                        break;
                    }
                };
                if flags.plain() {
                    ctx.stdout.write_all(&piece).await?;
                } else {
                    rendered.clear();
                    lines.render(&flags, &piece, &mut rendered);
                    ctx.stdout.write_all(&rendered).await?;
                }
            }
        }
        let status = crate::streaming::written_status(&self.fs, "cat", &ctx.stderr, status).await?;
        Ok(CommandStatus::with_code(status))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn render(flags: Flags, input: &[&[u8]]) -> String {
        let mut lines = Lines::new();
        let mut out = Vec::new();
        for piece in input {
            lines.render(&flags, piece, &mut out);
        }
        String::from_utf8(out).expect("utf-8")
    }

    #[test]
    fn numbering_across_pieces() {
        let f = Flags {
            number: true,
            ..Flags::default()
        };
        assert_eq!(
            render(f, &[b"a\nb", b"c\n\n"]),
            "     1\ta\n     2\tbc\n     3\t\n"
        );
    }

    #[test]
    fn nonblank_and_squeeze() {
        let f = Flags {
            number_nonblank: true,
            squeeze: true,
            ..Flags::default()
        };
        assert_eq!(render(f, &[b"a\n\n\n\nb\n"]), "     1\ta\n\n     2\tb\n");
    }

    #[test]
    fn show_all() {
        let f = Flags {
            show_ends: true,
            show_tabs: true,
            show_nonprinting: true,
            ..Flags::default()
        };
        assert_eq!(render(f, &[b"a\tb\x01\xff\n"]), "a^Ib^AM-^?$\n");
    }
}
