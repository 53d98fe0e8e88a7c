//! Rendering results for people and, with `--json`, for scripts.

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
