//! The working directory of a third-party WASI program.
//!
//! wasi-libc starts every program in `/` and never reads `initial-cwd` or
//! `PWD` (wasi-filesystem issue 24). It turns a relative path into an
//! absolute one against its own cwd (`/`) and then strips the leading `/`
//! to match it against the preopens, so by the time a path reaches the
//! host, `src/a.rs` typed relative and `/src/a.rs` typed absolute are the
//! same string. Our own programs (python3, git, sqlite3) change to `$PWD`
//! themselves; a program we did not build cannot be told.
//!
//! What the host can do is preopen the caller's cwd as `.` (a prefix that
//! wasi-libc reduces to the empty string, registered last so it wins over
//! `/`). Every path the program resolves then arrives here, and the host
//! decides by the path's first component, as a process's `openat(AT_FDCWD)`
//! would have meant it:
//! - `.`, `..` or nothing: the cwd;
//! - a name that exists in the cwd: the cwd (relative paths are what agents
//!   type after `cd`);
//! - a name that exists only at the workspace's root: the root (an absolute
//!   path such as `/data/x.bin` from a subdirectory; `/dev` and `/tmp`
//!   always are);
//! - a name that exists in neither: the cwd (a file the program creates).
//!
//! Each first component is decided once per process, so a program sees a
//! stable tree. What this cannot get right, and the README says: a name
//! that exists in both places resolves to the cwd's even when it was typed
//! absolute, `/` itself names the cwd, and `getcwd` answers `/`. Longer
//! preopens (`/tmp`, mounts) still take their own paths first.

use std::collections::HashMap;
use std::sync::Mutex;

use super::tree::{Res, Tree};
use super::{devices, join};

/// First components that always name the root's entry.
const ALWAYS_ROOT: [&str; 2] = [devices::DEV, super::TMP];

/// The cwd a third-party program's relative paths start from.
pub(crate) struct Anchor {
    cwd: String,
    /// First component → whether it names the root's entry.
    decided: Mutex<HashMap<String, bool>>,
}

impl Anchor {
    pub(crate) fn new(cwd: &str) -> Self {
        Anchor {
            cwd: cwd.to_owned(),
            decided: Mutex::new(HashMap::new()),
        }
    }

    pub(crate) fn cwd(&self) -> &str {
        &self.cwd
    }

    /// `rel` as the program meant it: inside the cwd or from the root.
    pub(crate) fn resolve(&self, tree: &Tree, rel: &str) -> Res<String> {
        let first = rel.split('/').find(|c| !c.is_empty() && *c != ".");
        let Some(first) = first.filter(|c| *c != "..") else {
            return join(&self.cwd, rel);
        };
        let mut decided = self.decided.lock().unwrap_or_else(|e| e.into_inner());
        let from_root = match decided.get(first) {
            Some(root) => *root,
            None => {
                let at_root = join("/", first)?;
                // `/dev` is the host's even where the workspace has none, and
                // `/tmp` is `$TMPDIR`, which programs name absolutely all
                // the time: both are the root's even beside a `tmp/` of the cwd.
                let root = ALWAYS_ROOT.contains(&at_root.as_str())
                    || (!exists(tree, &join(&self.cwd, first)?) && exists(tree, &at_root));
                decided.insert(first.to_owned(), root);
                root
            }
        };
        if from_root {
            join("/", rel)
        } else {
            join(&self.cwd, rel)
        }
    }
}

fn exists(tree: &Tree, path: &str) -> bool {
    tree.stat(path, false).is_ok()
}
