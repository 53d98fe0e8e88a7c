//! Rendering results for people and, with `--json`, for scripts.

use std::borrow::Cow;
use std::fmt::Write as _;
use std::time::{Duration, UNIX_EPOCH};

use computer_store::{NodeKind, Stat};
use serde_json::{Value, json};

/// Where results go: one JSON document, or plain text.
#[derive(Clone, Copy)]
pub struct Out {
    pub json: bool,
}

impl Out {
    /// Prints `doc` with `--json`; otherwise runs `plain`.
    pub fn emit(&self, doc: Value, plain: impl FnOnce()) {
        if self.json {
            println!("{doc}");
        } else {
            plain();
        }
    }
}

/// `n` and the noun for it, singular for exactly one: "1 file", "2 files".
pub fn counted(n: impl Into<u64>, one: &str, many: &str) -> String {
    let n = n.into();
    format!("{n} {}", if n == 1 { one } else { many })
}

/// `text` with control characters written as escapes (`\n`, `\e`, `\x07`,
/// `\u{202e}`), for every line printed for people that holds a name, a path or
/// a message a guest could have chosen. A file named `x\n... cli rm ok` would
/// otherwise print a forged audit line, and escape sequences could hide real
/// ones. `--json` output needs none of this: JSON escapes them itself.
pub fn shown(text: &str) -> Cow<'_, str> {
    if !text.chars().any(needs_escape) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{1b}' => out.push_str("\\e"),
            c if (c as u32) < 0x100 && needs_escape(c) => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c if needs_escape(c) => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// C0 and C1 controls, DEL, and the bidirectional overrides and isolates
/// (they reorder what follows them on the line).
fn needs_escape(c: char) -> bool {
    c.is_control() || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

pub fn mode_string(kind: NodeKind, mode: u32) -> String {
    let mut s = String::with_capacity(10);
    s.push(match kind {
        NodeKind::File => '-',
        NodeKind::Directory => 'd',
        NodeKind::Symlink => 'l',
    });
    for shift in [6, 3, 0] {
        let bits = (mode >> shift) & 7;
        s.push(if bits & 4 != 0 { 'r' } else { '-' });
        s.push(if bits & 2 != 0 { 'w' } else { '-' });
        s.push(if bits & 1 != 0 { 'x' } else { '-' });
    }
    s
}

pub fn time_string(mtime_ns: u64) -> String {
    let t = UNIX_EPOCH + Duration::from_nanos(mtime_ns);
    humantime::format_rfc3339_seconds(t).to_string()
}

pub fn stat_json(st: &Stat, path: Option<&str>) -> Value {
    let mut v = json!({
        "name": st.name,
        "kind": st.kind,
        "mode": format!("{:o}", st.mode),
        "size": st.size,
        "mtime_ns": st.mtime_ns,
        "mtime": time_string(st.mtime_ns),
        "ino": st.ino,
    });
    if let Some(p) = path {
        v["path"] = json!(p);
    }
    v
}

/// Parses an octal mode such as `644`, `0644` or `0o644`.
pub fn parse_mode(s: &str) -> Result<u32, crate::error::CliError> {
    let digits = s.trim_start_matches("0o");
    u32::from_str_radix(digits, 8)
        .ok()
        .filter(|m| *m <= 0o7777)
        .ok_or_else(|| {
            crate::error::CliError::invalid(format!(
                "invalid mode {s:?}: expected octal permission bits such as 644 or 0755"
            ))
        })
}

#[cfg(test)]
mod tests {
    use super::shown;

    #[test]
    fn names_print_on_one_line_with_their_controls_escaped() {
        assert_eq!(shown("plain/path.txt"), "plain/path.txt");
        assert_eq!(
            shown("x\n2026-12-01T00:00:00Z  cli rm ok /etc"),
            "x\\n2026-12-01T00:00:00Z  cli rm ok /etc"
        );
        assert_eq!(shown("a\u{1b}[2Kb\rc\td\u{7}"), "a\\e[2Kb\\rc\\td\\x07");
        assert_eq!(shown("\u{202e}txt.exe"), "\\u{202e}txt.exe");
        assert_eq!(shown("\u{9b}31m"), "\\x9b31m");
        assert_eq!(shown("caf\u{e9} \u{1F600}"), "caf\u{e9} \u{1F600}");
    }
}
