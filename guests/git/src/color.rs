//! Colour, only when asked for: `color.<slot>` or `color.ui` set to
//! `always` (`auto`, the default, means "on a terminal", which a
//! command's stdout never is here). The sequences are git's defaults.

use crate::config::Config;

pub const RESET: &str = "\x1b[m";
pub const BOLD: &str = "\x1b[1m";
pub const RED: &str = "\x1b[31m";
pub const GREEN: &str = "\x1b[32m";
pub const YELLOW: &str = "\x1b[33m";
pub const CYAN: &str = "\x1b[36m";
pub const BOLD_GREEN: &str = "\x1b[1;32m";
pub const BOLD_YELLOW: &str = "\x1b[1;33m";
pub const BOLD_CYAN: &str = "\x1b[1;36m";
pub const BOLD_RED: &str = "\x1b[1;31m";

/// Whether `slot` (`diff`, `status`, `branch`) is coloured.
pub fn on(config: &Config, slot: &str) -> bool {
    let value = config
        .get(&format!("color.{slot}"))
        .or_else(|| config.get("color.ui"));
    value.is_some_and(|v| v.eq_ignore_ascii_case("always"))
}

/// `text` in `color`, reset after.
pub fn paint(color: &str, text: &str) -> String {
    format!("{color}{text}{RESET}")
}

/// A unified diff coloured as git colours it: headers bold, hunk ranges
/// cyan, removed lines red, added lines green (sign and text painted
/// apart), context reset at the end.
pub fn patch(plain: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(plain.len() * 2);
    // Lines left in the current hunk: (old side, new side).
    let mut left = (0usize, 0usize);
    for line in plain.split_inclusive(|&b| b == b'\n') {
        let (body, nl) = match line.strip_suffix(b"\n") {
            Some(b) => (b, "\n"),
            None => (line, ""),
        };
        let in_hunk = left.0 > 0 || left.1 > 0;
        match body.first() {
            Some(b'-') if in_hunk => {
                left.0 = left.0.saturating_sub(1);
                push(&mut out, RED, body, nl);
            }
            Some(b'+') if in_hunk => {
                left.1 = left.1.saturating_sub(1);
                out.extend_from_slice(paint(GREEN, "+").as_bytes());
                push(&mut out, GREEN, &body[1..], nl);
            }
            Some(b' ') if in_hunk => {
                left = (left.0.saturating_sub(1), left.1.saturating_sub(1));
                out.extend_from_slice(body);
                out.extend_from_slice(RESET.as_bytes());
                out.extend_from_slice(nl.as_bytes());
            }
            Some(b'\\') => out.extend_from_slice(line),
            _ if body.starts_with(b"@@ ") => {
                left = hunk_sizes(body);
                let end = body[3..]
                    .windows(3)
                    .position(|w| w == b" @@")
                    .map_or(body.len(), |i| i + 6);
                push(&mut out, CYAN, &body[..end], "");
                out.extend_from_slice(&body[end..]);
                out.extend_from_slice(nl.as_bytes());
            }
            _ => push(&mut out, BOLD, body, nl),
        }
    }
    out
}

fn push(out: &mut Vec<u8>, color: &str, body: &[u8], nl: &str) {
    out.extend_from_slice(color.as_bytes());
    out.extend_from_slice(body);
    out.extend_from_slice(RESET.as_bytes());
    out.extend_from_slice(nl.as_bytes());
}

/// The line counts of `@@ -a,b +c,d @@`.
fn hunk_sizes(header: &[u8]) -> (usize, usize) {
    let text = String::from_utf8_lossy(header);
    let mut parts = text.split_whitespace().skip(1);
    let count = |r: Option<&str>| {
        r.map(|r| {
            r[1..]
                .split_once(',')
                .map_or(1, |(_, n)| n.parse().unwrap_or(0))
        })
        .unwrap_or(0)
    };
    let old = count(parts.next());
    let new = count(parts.next());
    (old, new)
}

/// A `--stat` table with its `+`/`-` graphs painted.
pub fn stat(plain: &str) -> String {
    let mut out = String::new();
    for line in plain.split_inclusive('\n') {
        let Some(bar) = line.find(" | ") else {
            out.push_str(line);
            continue;
        };
        let (head, rest) = line.split_at(bar + 3);
        let graph_at = rest.find(' ').map_or(rest.len(), |i| i + 1);
        let (count, graph) = rest.split_at(graph_at);
        let graph = graph.trim_end_matches('\n');
        if graph.is_empty() || !graph.bytes().all(|b| b == b'+' || b == b'-') {
            out.push_str(line);
            continue;
        }
        let plus = graph.bytes().filter(|&b| b == b'+').count();
        out.push_str(head);
        out.push_str(count);
        if plus > 0 {
            out.push_str(&paint(GREEN, &graph[..plus]));
        }
        if plus < graph.len() {
            out.push_str(&paint(RED, &graph[plus..]));
        }
        out.push('\n');
    }
    out
}
