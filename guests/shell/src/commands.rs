//! Which of bashkit's commands the shell offers.
//!
//! Everything bashkit implements stays on, except commands that cannot do their job in
//! a guest with no network and no special files. Those are removed, so a script that
//! uses them gets bash's `command not found` and exit 127: the signal for the `auto`
//! backend to run the script in a container instead. Commands bashkit does not have
//! at all (`python`, `node`, `git`, `gcc`, ...) end the same way.
//!
//! A few commands are the guest's own, where bashkit's fall short (see `replacements`).

use std::sync::Arc;

use crate::cat::Cat;
use crate::chmod::Chmod;
use crate::diff::Diff;
use crate::fileops::{Cp, Mv, Rm};
use crate::head::Head;
use crate::ls::Ls;
use crate::realpath::Realpath;
use crate::stat::Stat;
use crate::wc::Wc;
use crate::workspace_fs::WorkspaceFs;
use crate::zipfile::{Unzip, Zip};

/// bashkit commands that are turned off, and why.
pub const DISABLED: &[(&str, &str)] = &[
    ("curl", "no network in the guest"),
    ("wget", "no network in the guest"),
    ("http", "no network in the guest"),
    (
        "openssl",
        "bashkit only has `openssl rand`; anything else must reach a real openssl",
    ),
    ("mkfifo", "the workspace has no named pipes"),
];

/// Commands the guest adds or replaces (see `ls`, `chmod`, `stat`, `realpath`).
pub fn replacements(fs: &Arc<WorkspaceFs>) -> Vec<(&'static str, Box<dyn bashkit::Builtin>)> {
    vec![
        ("ls", Box::new(Ls { fs: fs.clone() })),
        ("chmod", Box::new(Chmod { fs: fs.clone() })),
        ("ln", Box::new(crate::ln::Ln { fs: fs.clone() })),
        ("stat", Box::new(Stat { fs: fs.clone() })),
        ("realpath", Box::new(Realpath)),
        ("diff", Box::new(Diff)),
        ("cp", Box::new(Cp)),
        ("mv", Box::new(Mv)),
        ("rm", Box::new(Rm)),
        ("zip", Box::new(Zip)),
        ("unzip", Box::new(Unzip)),
    ]
}

/// The streaming command the guest replaces (see `cat`): it reads its input piece by
/// piece and writes as it goes.
pub fn streaming_cat(fs: &Arc<WorkspaceFs>) -> Cat {
    Cat { fs: fs.clone() }
}

/// `wc`, counting stdin as it arrives (see `wc`).
pub fn streaming_wc(fs: &Arc<WorkspaceFs>) -> Wc {
    Wc { fs: fs.clone() }
}

/// `head`, streaming (see `head`): it stops reading once it has what was asked for,
/// so endless inputs (`/dev/zero`, `cat /dev/urandom |`) work.
pub fn streaming_head(fs: &Arc<WorkspaceFs>) -> Head {
    Head { fs: fs.clone() }
}

/// Whether bashkit's built-in command `name` is offered.
pub fn keep(name: &str) -> bool {
    !DISABLED.iter().any(|(disabled, _)| *disabled == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filter() {
        assert!(keep("grep"));
        assert!(!keep("curl"));
    }
}
