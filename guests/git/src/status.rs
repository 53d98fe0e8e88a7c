//! What changed: HEAD against the index (staged), the index against the
//! work tree (unstaged), and files the index does not know (untracked,
//! folded into their top-most untracked directory as git shows them).

use std::collections::BTreeMap;

use gix_hash::ObjectId;

use crate::error::Result;
use crate::index::Index;
use crate::objects;
use crate::repo::Repo;
use crate::worktree::{self, Ignores};

pub struct Changes {
    /// (`A`, `M`, `D`, `R`), path, and for a rename the old path.
    pub staged: Vec<(char, String, Option<String>)>,
    /// (`M`, `D`), path.
    pub unstaged: Vec<(char, String)>,
    pub untracked: Vec<String>,
    /// Filled by `status --ignored` only.
    pub ignored: Vec<String>,
    /// Path and its conflict label (`both modified` ...).
    pub unmerged: Vec<(String, &'static str)>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Untracked {
    No,
    Normal,
    All,
}

pub fn head_files(repo: &mut Repo) -> Result<BTreeMap<String, (u32, ObjectId)>> {
    match repo.head_commit()? {
        None => Ok(BTreeMap::new()),
        Some(c) => {
            let tree = repo.tree_of(&c)?;
            objects::flatten(&mut repo.odb, &tree)
        }
    }
}

/// Every directory holding an index entry, `/`-terminated.
fn tracked_dirs(index: &Index) -> std::collections::BTreeSet<String> {
    index
        .entries
        .keys()
        .flat_map(|(p, _)| {
            let mut dirs = Vec::new();
            let mut end = 0;
            while let Some(i) = p[end..].find('/') {
                end += i + 1;
                dirs.push(p[..end].to_owned());
            }
            dirs
        })
        .collect()
}

fn load_ignores(repo: &Repo) -> Ignores {
    let excludes = repo
        .config
        .get("core.excludesfile")
        .map(std::path::PathBuf::from);
    Ignores::load(&repo.work_tree, &repo.git_dir, excludes)
}

/// What `status --ignored` lists.
pub fn ignored(repo: &Repo, index: &Index) -> Result<Vec<String>> {
    let files = index.entries.keys().map(|(p, _)| p.clone()).collect();
    let dirs = tracked_dirs(index);
    let tracked = crate::ignored::Tracked {
        files: &files,
        dirs: &dirs,
    };
    let mut ignores = load_ignores(repo);
    crate::ignored::list(&repo.work_tree, &repo.git_dir, &mut ignores, &tracked)
}

pub fn compute(repo: &mut Repo, index: &Index, untracked: Untracked) -> Result<Changes> {
    let head = head_files(repo)?;
    let staged_files = index.files();
    let conflicted = index.conflicted();

    let mut staged = Vec::new();
    let mut added = Vec::new();
    let mut deleted = Vec::new();
    for (path, (mode, id)) in &staged_files {
        match head.get(path) {
            None => added.push(path.clone()),
            Some((hm, hid)) if hm != mode || hid != id => staged.push(('M', path.clone(), None)),
            Some(_) => {}
        }
    }
    for path in head.keys() {
        if !staged_files.contains_key(path) && !conflicted.contains(path) {
            deleted.push(path.clone());
        }
    }
    // Renames of identical content, as `git mv` makes them.
    let mut renamed_from = BTreeMap::new();
    for path in &added {
        let id = staged_files[path].1;
        if let Some(pos) = deleted.iter().position(|d| head[d].1 == id) {
            renamed_from.insert(path.clone(), deleted.remove(pos));
        }
    }
    for path in added {
        match renamed_from.remove(&path) {
            Some(old) => staged.push(('R', path, Some(old))),
            None => staged.push(('A', path, None)),
        }
    }
    for path in deleted {
        staged.push(('D', path, None));
    }
    staged.sort_by(|a, b| a.1.cmp(&b.1));

    // One walk serves both: the tracked files' metadata (so that each file
    // costs one lookup) and the untracked files.
    let files = if untracked != Untracked::No {
        let mut ignores = load_ignores(repo);
        worktree::walk(&repo.work_tree, &repo.git_dir, &mut ignores, "")?
    } else {
        Vec::new()
    };
    let walked: std::collections::HashMap<&str, &crate::meta::Meta> =
        files.iter().map(|f| (f.path.as_str(), &f.meta)).collect();
    let mut unstaged = Vec::new();
    for (path, entry) in index.entries.iter().filter(|((_, s), _)| *s == 0) {
        let found = match walked.get(path.0.as_str()) {
            Some(m) => Ok((*m).clone()),
            // Not walked (ignored but tracked, or no walk): ask.
            None => crate::meta::lstat(repo.work_tree.join(&path.0)),
        };
        let Ok(meta) = found else {
            unstaged.push(('D', path.0.clone()));
            continue;
        };
        if meta.is_dir() {
            unstaged.push(('D', path.0.clone()));
            continue;
        }
        if worktree::mode_seen(&meta, entry.mode) != entry.mode {
            unstaged.push(('M', path.0.clone()));
            continue;
        }
        let stat = crate::index::stat_of(&meta);
        if stat.size == entry.stat.size
            && stat.mtime == entry.stat.mtime
            && entry.stat.mtime.secs != 0
        {
            continue;
        }
        if worktree::blob_id(&repo.work_tree, &path.0, &meta)? != entry.id {
            unstaged.push(('M', path.0.clone()));
        }
    }

    let mut untracked_paths = Vec::new();
    if untracked != Untracked::No {
        let tracked_dirs = tracked_dirs(index);
        for f in &files {
            if index.entries.contains_key(&(f.path.clone(), 0)) || conflicted.contains(&f.path) {
                continue;
            }
            let shown = if untracked == Untracked::All {
                f.path.clone()
            } else {
                let mut end = 0;
                let mut shown = f.path.clone();
                while let Some(i) = f.path[end..].find('/') {
                    end += i + 1;
                    let dir = &f.path[..end];
                    if !tracked_dirs.contains(dir) {
                        shown = dir.to_owned();
                        break;
                    }
                }
                shown
            };
            if untracked_paths.last() != Some(&shown) {
                untracked_paths.push(shown);
            }
        }
    }

    let unmerged = conflicted
        .iter()
        .map(|p| {
            let has = |s: u32| index.entries.contains_key(&(p.clone(), s));
            let label = match (has(1), has(2), has(3)) {
                (true, true, true) | (false, true, true) => {
                    if has(1) {
                        "both modified:"
                    } else {
                        "both added:"
                    }
                }
                (true, true, false) => "deleted by them:",
                (true, false, true) => "deleted by us:",
                (false, true, false) => "added by us:",
                (false, false, true) => "added by them:",
                _ => "both deleted:",
            };
            (p.clone(), label)
        })
        .collect();
    Ok(Changes {
        staged,
        unstaged,
        untracked: untracked_paths,
        ignored: Vec::new(),
        unmerged,
    })
}

/// The branch's upstream (`branch.NAME.remote`/`.merge`) as a short name
/// (`origin/main`), and (ahead, behind) counts, or None when it has none;
/// `Some((name, None))` when the upstream ref is gone.
/// An upstream's short name and, unless it is gone, (ahead, behind).
pub type Upstream = (String, Option<(usize, usize)>);

pub fn upstream(repo: &mut Repo, branch: &str) -> Result<Option<Upstream>> {
    let (Some(remote), Some(merge)) = (
        repo.config.get(&format!("branch.{branch}.remote")),
        repo.config.get(&format!("branch.{branch}.merge")),
    ) else {
        return Ok(None);
    };
    let short_branch = merge
        .strip_prefix("refs/heads/")
        .unwrap_or(&merge)
        .to_owned();
    let (name, refname) = if remote == "." {
        (short_branch.clone(), format!("refs/heads/{short_branch}"))
    } else {
        (
            format!("{remote}/{short_branch}"),
            format!("refs/remotes/{remote}/{short_branch}"),
        )
    };
    let Some(up) = repo.resolve_ref(&refname) else {
        return Ok(Some((name, None)));
    };
    let Some(local) = repo.resolve_ref(&format!("refs/heads/{branch}")) else {
        return Ok(Some((name, Some((0, 0)))));
    };
    let reach = |repo: &mut Repo, from: ObjectId| -> Result<std::collections::BTreeSet<ObjectId>> {
        let mut seen = std::collections::BTreeSet::new();
        let mut stack = vec![from];
        while let Some(c) = stack.pop() {
            if seen.insert(c) {
                stack.extend(repo.commit(&c)?.parents);
            }
        }
        Ok(seen)
    };
    let a = reach(repo, local)?;
    let b = reach(repo, up)?;
    let ahead = a.difference(&b).count();
    let behind = b.difference(&a).count();
    Ok(Some((name, Some((ahead, behind)))))
}
