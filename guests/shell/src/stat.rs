//! `stat`, as GNU's: bashkit's knows seven `%` directives (no `%y`, `%U`, `%i`, `%h`,
//! ...), ignores printf widths and stops at the first missing file. This one prints
//! GNU's default and terse formats and every file directive, from the workspace's
//! metadata (`fs.lstat`, or `fs.stat` with `-L`). The workspace keeps one time per
//! node, so access, change and modification times are the same; birth is unknown (`-`).
//! Ownership is the virtual user's (uid 1000).

use std::path::Path;
use std::sync::Arc;

use bashkit::{BuiltinContext, ExecResult, async_trait};

use crate::computer::workspace::fs::{self, NodeKind, NodeStat};
use crate::fs_errors;
use crate::workspace_fs::WorkspaceFs;
use crate::{calendar, devices, modes};

pub struct Stat {
    pub fs: Arc<WorkspaceFs>,
}

const DEFAULT_FORMAT: &str = "  File: %N\n  Size: %-10s\tBlocks: %-10b IO Block: %-6o %F\nDevice: %Hd,%Ld\tInode: %-11i Links: %h\nAccess: (%04a/%10.10A)  Uid: (%5u/%8U)   Gid: (%5g/%8G)\nAccess: %x\nModify: %y\nChange: %z\n Birth: %w\n";
const TERSE_FORMAT: &str = "%n %s %b %f %u %g %D %i %h %t %T %X %Y %Z %W %o\n";
/// The virtual device the workspace lives on (`%d`, `%D`).
const DEVICE: (u64, u64) = (0, 42);

struct Node<'a> {
    name: &'a str,
    /// The absolute path.
    path: String,
    stat: NodeStat,
    target: Option<String>,
    user: &'a str,
}

fn blocks(stat: &NodeStat) -> u64 {
    match stat.kind {
        NodeKind::File => stat.size.div_ceil(4096) * 8,
        NodeKind::Directory => 8,
        NodeKind::Symlink => 0,
    }
}

fn size(stat: &NodeStat) -> u64 {
    match stat.kind {
        NodeKind::Directory => 4096,
        _ => stat.size,
    }
}

fn file_type(stat: &NodeStat) -> &'static str {
    match stat.kind {
        NodeKind::Directory => "directory",
        NodeKind::Symlink => "symbolic link",
        NodeKind::File if stat.size == 0 => "regular empty file",
        NodeKind::File => "regular file",
    }
}

fn raw_mode(stat: &NodeStat) -> u32 {
    let kind = match stat.kind {
        NodeKind::Directory => 0o040000,
        NodeKind::Symlink => 0o120000,
        NodeKind::File => 0o100000,
    };
    kind | (stat.mode & 0o7777)
}

fn quoted(name: &str) -> String {
    format!("'{}'", name.replace('\'', "'\\''"))
}

impl Node<'_> {
    /// Link count: a directory has one per subdirectory, plus 2, as on ext4.
    fn links(&self) -> u64 {
        if self.stat.kind != NodeKind::Directory {
            return 1;
        }
        devices::readdir(&self.path)
            .map(|entries| {
                2 + entries
                    .iter()
                    .filter(|e| e.kind == NodeKind::Directory)
                    .count() as u64
            })
            .unwrap_or(2)
    }

    /// The text of one directive (`None`: unknown, printed as is).
    fn directive(&self, c: char, modifier: Option<char>) -> Option<String> {
        let st = &self.stat;
        let secs = st.mtime_ns / 1_000_000_000;
        Some(match c {
            'a' => format!("{:o}", st.mode & 0o7777),
            'A' => modes::mode_string(st.kind, st.mode),
            'b' => blocks(st).to_string(),
            'B' => "512".to_string(),
            'd' => match modifier {
                Some('H') => DEVICE.0.to_string(),
                Some('L') => DEVICE.1.to_string(),
                _ => (DEVICE.0 << 8 | DEVICE.1).to_string(),
            },
            'D' => format!("{:x}", DEVICE.0 << 8 | DEVICE.1),
            'f' => format!("{:x}", raw_mode(st)),
            'F' => file_type(st).to_string(),
            'g' | 'u' => "1000".to_string(),
            'G' | 'U' => self.user.to_string(),
            'h' => self.links().to_string(),
            'i' => st.ino.to_string(),
            'm' => "/".to_string(),
            'n' => self.name.to_string(),
            'N' => match &self.target {
                Some(t) => format!("{} -> {}", quoted(self.name), quoted(t)),
                None => quoted(self.name),
            },
            'o' => "4096".to_string(),
            's' => size(st).to_string(),
            't' | 'T' => "0".to_string(),
            'w' => "-".to_string(),
            'W' => "0".to_string(),
            'x' | 'y' | 'z' => calendar::full_iso(st.mtime_ns),
            'X' | 'Y' | 'Z' => secs.to_string(),
            _ => return None,
        })
    }

    /// Expand a format: `%[-#0 +'][width][.precision]X` directives, and with
    /// `escapes` (for `--printf`) backslash escapes.
    fn render(&self, format: &str, escapes: bool) -> String {
        let mut out = String::new();
        let chars: Vec<char> = format.chars().collect();
        let mut i = 0;
        while i < chars.len() {
            let c = chars[i];
            if c == '\\' && escapes && i + 1 < chars.len() {
                i += 1;
                let (text, used) = escape(&chars[i..]);
                out.push_str(&text);
                i += used;
                continue;
            }
            if c != '%' {
                out.push(c);
                i += 1;
                continue;
            }
            let start = i;
            i += 1;
            if i >= chars.len() {
                out.push('%');
                break;
            }
            if chars[i] == '%' {
                out.push('%');
                i += 1;
                continue;
            }
            let mut flags = String::new();
            while i < chars.len() && "-#0 +'".contains(chars[i]) {
                flags.push(chars[i]);
                i += 1;
            }
            let mut width = String::new();
            while i < chars.len() && chars[i].is_ascii_digit() {
                width.push(chars[i]);
                i += 1;
            }
            let mut precision = None;
            if i < chars.len() && chars[i] == '.' {
                i += 1;
                let mut p = String::new();
                while i < chars.len() && chars[i].is_ascii_digit() {
                    p.push(chars[i]);
                    i += 1;
                }
                precision = Some(p.parse::<usize>().unwrap_or(0));
            }
            let mut modifier = None;
            if i < chars.len() && matches!(chars[i], 'H' | 'L') && i + 1 < chars.len() {
                modifier = Some(chars[i]);
                i += 1;
            }
            let Some(&d) = chars.get(i) else {
                out.extend(&chars[start..]);
                break;
            };
            i += 1;
            match self.directive(d, modifier) {
                Some(mut text) => {
                    if let Some(p) = precision {
                        text = text.chars().take(p).collect();
                    }
                    let width: usize = width.parse().unwrap_or(0);
                    let numeric = text.bytes().all(|b| b.is_ascii_digit()) && !text.is_empty();
                    let pad = width.saturating_sub(text.chars().count());
                    if flags.contains('-') {
                        out.push_str(&text);
                        out.push_str(&" ".repeat(pad));
                    } else if flags.contains('0') && numeric {
                        out.push_str(&"0".repeat(pad));
                        out.push_str(&text);
                    } else {
                        out.push_str(&" ".repeat(pad));
                        out.push_str(&text);
                    }
                }
                None => out.extend(&chars[start..i]),
            }
        }
        out
    }
}

/// One backslash escape (after the backslash): its text and how many chars it used.
fn escape(rest: &[char]) -> (String, usize) {
    match rest[0] {
        'n' => ("\n".into(), 1),
        't' => ("\t".into(), 1),
        'r' => ("\r".into(), 1),
        'a' => ("\x07".into(), 1),
        'b' => ("\x08".into(), 1),
        'f' => ("\x0c".into(), 1),
        'v' => ("\x0b".into(), 1),
        'e' => ("\x1b".into(), 1),
        '\\' => ("\\".into(), 1),
        '"' => ("\"".into(), 1),
        '0'..='7' => {
            let digits: String = rest.iter().take(3).take_while(|c| c.is_digit(8)).collect();
            let value = u32::from_str_radix(&digits, 8).unwrap_or(0);
            (
                char::from_u32(value).map(String::from).unwrap_or_default(),
                digits.len(),
            )
        }
        other => (format!("\\{other}"), 1),
    }
}

fn usage(message: &str) -> ExecResult {
    ExecResult::err(
        format!("stat: {message}\nTry 'stat --help' for more information.\n"),
        1,
    )
}

/// stat's options and operands.
struct Args {
    deref: bool,
    /// The format, and whether it interprets backslash escapes (`--printf`).
    format: Option<(String, bool)>,
    terse: bool,
    files: Vec<String>,
}

/// Parses stat's arguments, or gives the result to return at once (a usage
/// error, an unsupported option).
fn parse(argv: &[String]) -> Result<Args, Box<ExecResult>> {
    let mut deref = false;
    let mut format: Option<(String, bool)> = None;
    let mut terse = false;
    let mut files = Vec::new();
    let mut args = argv.iter();
    let mut options_done = false;
    while let Some(arg) = args.next() {
        if options_done || !arg.starts_with('-') || arg == "-" {
            files.push(arg.clone());
            continue;
        }
        let (name, value) = match arg.split_once('=') {
            Some((n, v)) if n.starts_with("--") => (n, Some(v.to_string())),
            _ => (arg.as_str(), None),
        };
        match name {
            "--" => options_done = true,
            "-L" | "--dereference" => deref = true,
            "-t" | "--terse" => terse = true,
            "-f" | "--file-system" => {
                return Err(Box::new(ExecResult::err(
                    "stat: --file-system is not supported for the workspace\n".to_string(),
                    1,
                )));
            }
            "-c" | "--format" | "--printf" => {
                let Some(v) = value.or_else(|| args.next().cloned()) else {
                    return Err(Box::new(usage(&format!(
                        "option requires an argument -- '{name}'"
                    ))));
                };
                // `--format`/`-c` end each file with a newline; `--printf` does not,
                // and interprets backslash escapes.
                format = Some(if name == "--printf" {
                    (v, true)
                } else {
                    (format!("{v}\n"), false)
                });
            }
            _ if name.starts_with("-c") && !name.starts_with("--") => {
                format = Some((format!("{}\n", &name[2..]), false));
            }
            short if !short.starts_with("--") && short.len() > 2 => {
                for c in short[1..].chars() {
                    match c {
                        'L' => deref = true,
                        't' => terse = true,
                        other => {
                            return Err(Box::new(usage(&format!("invalid option -- '{other}'"))));
                        }
                    }
                }
            }
            other => return Err(Box::new(usage(&format!("unrecognized option '{other}'")))),
        }
    }
    Ok(Args {
        deref,
        format,
        terse,
        files,
    })
}

#[async_trait]
impl bashkit::Builtin for Stat {
    async fn execute(&self, ctx: BuiltinContext<'_>) -> bashkit::Result<ExecResult> {
        let Args {
            deref,
            format,
            terse,
            files,
        } = match parse(ctx.args) {
            Ok(args) => args,
            Err(result) => return Ok(*result),
        };
        if files.is_empty() {
            return Ok(usage("missing operand"));
        }
        self.fs.appends().flush();
        let user = ctx
            .env
            .get("USER")
            .cloned()
            .unwrap_or_else(|| "user".to_string());
        let cwd = ctx.cwd.to_string_lossy().into_owned();
        let mut out = String::new();
        let mut err = String::new();
        for file in &files {
            let path = bashkit::normalize_path(&bashkit::vfs_join(Path::new(&cwd), file))
                .to_string_lossy()
                .into_owned();
            let looked_up = devices::stat(&path, deref);
            let stat = match looked_up {
                Ok(s) => s,
                Err(e) => {
                    err.push_str(&format!(
                        "stat: cannot statx '{file}': {}\n",
                        fs_errors::strerror(e.code)
                    ));
                    continue;
                }
            };
            let target = (stat.kind == NodeKind::Symlink)
                .then(|| fs::readlink(&path).ok())
                .flatten();
            let node = Node {
                name: file,
                path,
                stat,
                target,
                user: &user,
            };
            let (fmt, escapes) = match &format {
                Some((f, e)) => (f.as_str(), *e),
                None if terse => (TERSE_FORMAT, false),
                None => (DEFAULT_FORMAT, false),
            };
            out.push_str(&node.render(fmt, escapes));
        }
        let mut result = ExecResult::ok(out);
        result.exit_code = i32::from(!err.is_empty());
        result.stderr = err.into();
        Ok(result)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(kind: NodeKind, size: u64) -> NodeStat {
        NodeStat {
            name: "f".into(),
            kind,
            mode: 0o644,
            size,
            mtime_ns: 1_700_000_000_123_456_789,
            ino: 7,
        }
    }

    #[test]
    fn directives() {
        let n = Node {
            name: "f",
            path: "/f".into(),
            stat: node(NodeKind::File, 5000),
            target: None,
            user: "user",
        };
        assert_eq!(
            n.render("%s %b %a %A %F %i %U", false),
            "5000 16 644 -rw-r--r-- regular file 7 user"
        );
        assert_eq!(
            n.render("[%-6s][%6s][%04a]", false),
            "[5000  ][  5000][0644]"
        );
        assert_eq!(
            n.render("%Y %y", false),
            "1700000000 2023-11-14 22:13:20.123456789 +0000"
        );
        assert_eq!(n.render("%n\\t%q", true), "f\t%q");
        assert_eq!(n.render("%10.10A|", false), "-rw-r--r--|");
    }
}
