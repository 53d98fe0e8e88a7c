//! What `log` and `show` print after a commit's message: the `--stat`
//! table, the patch, or `--name-only`/`--name-status` lines against the
//! first parent, and the line git puts between the message and them.

use gix_hash::ObjectId;

use crate::cmd::commit::{Change, tree_changes};
use crate::cmd::diff::only;
use crate::error::Result;
use crate::objects;
use crate::repo::Repo;

#[derive(Clone, Copy, Default)]
pub struct Kinds {
    pub stat: bool,
    pub patch: bool,
    /// `Some(false)`: `--name-only`; `Some(true)`: `--name-status`.
    pub names: Option<bool>,
}

impl Kinds {
    pub fn any(&self) -> bool {
        self.stat || self.patch || self.names.is_some()
    }
}

/// The commit's diff output (empty when nothing changed).
/// `specs`: repository paths the output is limited to (none: all).
pub fn output(
    repo: &mut Repo,
    parent: Option<ObjectId>,
    id: ObjectId,
    k: Kinds,
    specs: &[String],
) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    if let Some(status) = k.names {
        out.extend(names(repo, parent, id, status, specs)?);
    }
    let colored = crate::color::on(&repo.config, "diff");
    if k.stat {
        let table = crate::cmd::diff::commits_patch(repo, parent, id, true, specs)?;
        if colored {
            let text = String::from_utf8_lossy(&table);
            out.extend(crate::color::stat(&text).into_bytes());
        } else {
            out.extend(table);
        }
    }
    if k.patch {
        let patch = crate::cmd::diff::commits_patch(repo, parent, id, false, specs)?;
        let patch = if colored {
            crate::color::patch(&patch)
        } else {
            patch
        };
        if k.stat && !out.is_empty() && !patch.is_empty() {
            out.push(b'\n');
        }
        out.extend(patch);
    }
    Ok(out)
}

/// git's line after a shown message (not for `oneline` or an empty
/// format): `---` when both a stat and a patch follow, else a blank one.
pub fn separator(k: Kinds) -> &'static str {
    if k.stat && k.patch { "---\n" } else { "\n" }
}

fn names(
    repo: &mut Repo,
    parent: Option<ObjectId>,
    id: ObjectId,
    status: bool,
    specs: &[String],
) -> Result<Vec<u8>> {
    let old = match parent {
        Some(p) => {
            let t = repo.tree_of(&p)?;
            objects::flatten(&mut repo.odb, &t)?
        }
        None => Default::default(),
    };
    let tree = repo.tree_of(&id)?;
    let new = objects::flatten(&mut repo.odb, &tree)?;
    let q = |p: &str| crate::worktree::quote_path(p, false);
    let (old, new) = (only(old, specs), only(new, specs));
    let mut out = String::new();
    for ch in tree_changes(&old, &new) {
        let line = match (&ch, status) {
            (Change::Added(p, ..), true) => format!("A\t{}", q(p)),
            (Change::Deleted(p, ..), true) => format!("D\t{}", q(p)),
            (Change::Modified(p, ..), true) => format!("M\t{}", q(p)),
            (Change::Renamed(f, t), true) => format!("R100\t{}\t{}", q(f), q(t)),
            (Change::Added(p, ..) | Change::Deleted(p, ..) | Change::Modified(p, ..), false) => {
                q(p)
            }
            (Change::Renamed(_, t), false) => q(t),
        };
        out.push_str(&line);
        out.push('\n');
    }
    Ok(out.into_bytes())
}
