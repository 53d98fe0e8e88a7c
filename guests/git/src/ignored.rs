//! The ignored entries `status --ignored` lists, as git's default
//! ("traditional") mode groups them: a directory the patterns ignore, or an
//! untracked one holding ignored files only, is one `dir/` entry; other
//! ignored files are listed one by one.

use std::collections::BTreeSet;
use std::path::Path;

use crate::error::Result;
use crate::worktree::Ignores;

/// What the walk needs to know about the index.
pub struct Tracked<'a> {
    pub files: &'a BTreeSet<String>,
    /// Every directory holding a tracked file, `/`-terminated.
    pub dirs: &'a BTreeSet<String>,
}

/// The ignored entries under the work tree, sorted.
pub fn list(
    work_tree: &Path,
    git_dir: &Path,
    ignores: &mut Ignores,
    tracked: &Tracked,
) -> Result<Vec<String>> {
    let mut out = Vec::new();
    visit(work_tree, git_dir, ignores, tracked, "", &mut out)?;
    out.sort();
    Ok(out)
}

/// What an untracked directory holds, for grouping.
#[derive(Default)]
struct Holds {
    ignored: bool,
    other: bool,
}

fn entries(work_tree: &Path, dir: &str) -> Vec<(String, bool)> {
    crate::meta::list(&work_tree.join(dir))
        .unwrap_or_default()
        .into_iter()
        .filter(|(n, _)| n != ".git")
        .map(|(n, m)| (n, m.is_dir()))
        .collect()
}

fn visit(
    work_tree: &Path,
    git_dir: &Path,
    ignores: &mut Ignores,
    tracked: &Tracked,
    dir: &str,
    out: &mut Vec<String>,
) -> Result<()> {
    let added = if dir.is_empty() {
        0
    } else {
        ignores.add_dir(work_tree, dir)
    };
    for (name, is_dir) in entries(work_tree, dir) {
        let path = format!("{dir}{name}");
        if !is_dir {
            if !tracked.files.contains(&path) && ignores.is_ignored(&path, false) {
                out.push(path);
            }
            continue;
        }
        if work_tree.join(&path) == git_dir {
            continue;
        }
        let sub = format!("{path}/");
        if ignores.is_ignored(&path, true) {
            out.push(sub);
        } else if !tracked.dirs.contains(&sub) {
            let mut holds = Holds::default();
            survey(work_tree, ignores, &sub, &mut holds);
            if holds.ignored && !holds.other {
                out.push(sub);
            } else if holds.ignored {
                visit(work_tree, git_dir, ignores, tracked, &sub, out)?;
            }
        } else {
            visit(work_tree, git_dir, ignores, tracked, &sub, out)?;
        }
    }
    ignores.pop(added);
    Ok(())
}

/// Whether untracked `dir` holds ignored entries, and other files.
fn survey(work_tree: &Path, ignores: &mut Ignores, dir: &str, holds: &mut Holds) {
    let added = ignores.add_dir(work_tree, dir);
    for (name, is_dir) in entries(work_tree, dir) {
        let path = format!("{dir}{name}");
        if ignores.is_ignored(&path, is_dir) {
            holds.ignored = true;
        } else if is_dir {
            survey(work_tree, ignores, &format!("{path}/"), holds);
        } else {
            holds.other = true;
        }
    }
    ignores.pop(added);
}
