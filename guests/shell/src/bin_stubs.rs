//! `/usr/bin/NAME` and `/bin/NAME` for every command the shell has, as on Debian,
//! so `command -v ls`, `type ls` and `which ls` say `/usr/bin/ls` (bashkit finds
//! commands on `PATH` through the filesystem), `[ -x /usr/bin/env ]` holds, and
//! running `/usr/bin/ls` runs the command. Each file is bashkit's own command stub
//! (its marker line makes bashkit dispatch the command when it is executed).
//!
//! The workspace wins: a real `/usr/bin/x` (or `/usr`) is never hidden. The
//! directories appear in `stat` and in listings of themselves, not in `ls /`, so
//! the workspace's root still shows only its own files.

use std::collections::BTreeSet;
use std::sync::OnceLock;

use crate::computer::workspace::fs::{NodeKind, NodeStat};

static NAMES: OnceLock<BTreeSet<String>> = OnceLock::new();

/// bash builtins that Debian has no program for: no stub, so `command -v cd`
/// stays `cd` and `which cd` finds nothing.
const SHELL_ONLY: &[&str] = &[
    ".",
    ":",
    "alias",
    "bg",
    "bind",
    "break",
    "builtin",
    "caller",
    "cd",
    "command",
    "compgen",
    "complete",
    "compopt",
    "continue",
    "declare",
    "dirs",
    "disown",
    "enable",
    "eval",
    "exec",
    "exit",
    "export",
    "fc",
    "fg",
    "getopts",
    "hash",
    "help",
    "history",
    "jobs",
    "let",
    "local",
    "logout",
    "mapfile",
    "popd",
    "pushd",
    "read",
    "readarray",
    "readonly",
    "return",
    "set",
    "shift",
    "shopt",
    "source",
    "suspend",
    "times",
    "trap",
    "type",
    "typeset",
    "ulimit",
    "umask",
    "unalias",
    "unset",
    "wait",
];

/// The same first line bashkit's root filesystem writes (`# bashkit builtin: `).
const MARKER: &str = "#!/bin/sh\n# bashkit builtin: ";

const DIRS: &[&str] = &["/usr", "/usr/bin", "/bin"];

/// Record the shell's commands (once, after the shell is built).
pub fn install(names: impl IntoIterator<Item = String>) {
    let mut set: BTreeSet<String> = names
        .into_iter()
        .filter(|n| !SHELL_ONLY.contains(&n.as_str()) && !n.contains('/') && !n.is_empty())
        .collect();
    set.extend(["bash".to_string(), "sh".to_string()]);
    let _ = NAMES.set(set);
}

/// The command a stub path stands for.
pub fn command_at(path: &str) -> Option<&'static str> {
    let name = path
        .strip_prefix("/usr/bin/")
        .or_else(|| path.strip_prefix("/bin/"))?;
    NAMES.get()?.get(name).map(String::as_str)
}

pub fn is_dir(path: &str) -> bool {
    DIRS.contains(&path) && NAMES.get().is_some()
}

pub fn content(name: &str) -> Vec<u8> {
    format!("{MARKER}{name}\nexec {name} \"$@\"\n").into_bytes()
}

pub fn stat(name: &str) -> NodeStat {
    NodeStat {
        name: name.to_string(),
        kind: NodeKind::File,
        mode: 0o755,
        size: content(name).len() as u64,
        mtime_ns: 0,
        ino: 0,
    }
}

/// What a made-up directory holds.
pub fn listing(dir: &str) -> Vec<NodeStat> {
    match (dir, NAMES.get()) {
        ("/usr", Some(_)) => {
            let mut bin = stat("bin");
            bin.kind = NodeKind::Directory;
            vec![bin]
        }
        ("/usr/bin" | "/bin", Some(names)) => names.iter().map(|n| stat(n)).collect(),
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stubs_name_their_command() {
        install(["ls".to_string(), "cd".to_string()]);
        assert_eq!(command_at("/usr/bin/ls"), Some("ls"));
        assert_eq!(command_at("/bin/sh"), Some("sh"));
        assert_eq!(command_at("/usr/bin/cd"), None);
        assert_eq!(command_at("/usr/bin/x/ls"), None);
        assert!(content("ls").starts_with(MARKER.as_bytes()));
    }
}
