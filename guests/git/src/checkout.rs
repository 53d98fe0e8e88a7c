//! Moving the work tree and the index from one tree to another, as
//! checkout, `reset --hard` and merges do: files that differ are written,
//! files that leave are removed (and directories left empty), and a file
//! with local changes that would be lost stops the move before anything is
//! touched.

use std::cell::RefCell;
use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};

use gix_hash::ObjectId;

use crate::error::{Error, Result};
use crate::index::{self, Index, Staged};
use crate::repo::Repo;
use crate::verify_path::verify_path;
use crate::worktree;

pub type Files = BTreeMap<String, (u32, ObjectId)>;

/// Paths whose work-tree or staged state differs from the index's or
/// HEAD's (`from`), i.e. what a move would lose.
pub fn dirty_paths(repo: &mut Repo, index: &Index, from: &Files) -> Result<Vec<String>> {
    let mut out = Vec::new();
    for (path, e) in index.entries.iter().filter(|((_, s), _)| *s == 0) {
        let staged_differs = from.get(&path.0).map(|(m, id)| (*m, *id)) != Some((e.mode, e.id));
        let full = repo.work_tree.join(&path.0);
        let work_differs = match crate::meta::lstat(&full) {
            Err(_) => true,
            Ok(meta) => {
                let stat = index::stat_of(&meta);
                !(stat.size == e.stat.size && stat.mtime == e.stat.mtime && e.stat.mtime.secs != 0)
                    && worktree::blob_id(&repo.work_tree, &path.0, &meta)? != e.id
            }
        };
        if staged_differs || work_differs {
            out.push(path.0.clone());
        }
    }
    for path in from.keys() {
        if index.get(path).is_none() {
            out.push(path.clone());
        }
    }
    out.sort();
    out.dedup();
    Ok(out)
}

thread_local! {
    /// Directories of the work tree this process made or saw as real
    /// directories (not symlinks), so a checkout of many files looks at
    /// each leading directory once. Whatever this process removes or
    /// replaces leaves the set.
    static REAL_DIRS: RefCell<HashSet<PathBuf>> = RefCell::new(HashSet::new());
}

fn known_dir(dir: &Path) -> bool {
    REAL_DIRS.with(|d| d.borrow().contains(dir))
}

fn remember_dir(dir: &Path) {
    REAL_DIRS.with(|d| d.borrow_mut().insert(dir.to_path_buf()));
}

fn forget_under(path: &Path) {
    REAL_DIRS.with(|d| d.borrow_mut().retain(|p| !p.starts_with(path)));
}

/// The first path of `files` git would not let into its index.
pub fn invalid_path(files: &Files) -> Option<&String> {
    files
        .iter()
        .find(|(p, (mode, _))| !verify_path(p, *mode))
        .map(|(p, _)| p)
}

/// git's message for a path a tree should not hold, on stderr.
pub fn report_invalid(path: &str) {
    eprintln!("error: invalid path '{path}'");
}

/// The first leading directory of `path` in the work tree that is a
/// symlink or a file (what a write would follow or trip on), if any.
pub fn non_dir_leading(repo: &Repo, path: &str) -> Option<String> {
    let mut at = 0;
    while let Some(slash) = path[at..].find('/') {
        let lead = &path[..at + slash];
        let full = repo.work_tree.join(lead);
        if !known_dir(&full) {
            match crate::meta::lstat(&full) {
                Ok(m) if m.is_dir() => remember_dir(&full),
                Ok(_) => return Some(lead.to_owned()),
                Err(_) => return None,
            }
        }
        at += slash + 1;
    }
    None
}

/// Makes the leading directories of the work tree's `path` real
/// directories and clears what is at `path` itself, so that what is then
/// written there lands in the work tree: a symlink on the way, whether this
/// checkout made it a moment ago or it was there before, is replaced by a
/// directory rather than followed (git's `create_directories`), and a path
/// git would refuse is never written. Returns the full path.
pub fn prepare_path(repo: &Repo, path: &str, mode: u32) -> Result<PathBuf> {
    if !verify_path(path, mode) {
        return Err(Error::InvalidPath(path.to_owned()));
    }
    let mut at = 0;
    while let Some(slash) = path[at..].find('/') {
        let dir = repo.work_tree.join(&path[..at + slash]);
        at += slash + 1;
        if known_dir(&dir) {
            continue;
        }
        match crate::meta::lstat(&dir) {
            Ok(m) if m.is_dir() => {}
            Ok(_) => {
                std::fs::remove_file(&dir)?;
                std::fs::create_dir(&dir)?;
            }
            Err(_) => std::fs::create_dir(&dir)?,
        }
        remember_dir(&dir);
    }
    let full = repo.work_tree.join(path);
    match crate::meta::lstat(&full) {
        Ok(m) if m.is_dir() => {
            forget_under(&full);
            std::fs::remove_dir_all(&full)?;
        }
        Ok(m) if m.is_symlink() => std::fs::remove_file(&full)?,
        _ => {}
    }
    Ok(full)
}

/// Writes one file of a tree into the work tree and the index.
pub fn write_file(
    repo: &mut Repo,
    index: &mut Index,
    path: &str,
    mode: u32,
    id: &ObjectId,
) -> Result<()> {
    let full = prepare_path(repo, path, mode)?;
    let data = repo.odb.must_read(id)?.data;
    // Outside the workspace (std has no stable symlink call on WASI)
    // symlinks become files holding their target, as with core.symlinks=false.
    if mode != 0o120000 || !crate::meta::symlink(&data, &full)? {
        std::fs::write(&full, &data)?;
    }
    let mut meta = crate::meta::lstat(&full)?;
    // Only a file whose bits disagree with git's mode costs a chmod.
    if meta.mode.is_some() && !meta.is_symlink() && crate::worktree::mode_of(&meta) != mode {
        crate::meta::set_mode(&full, mode);
        meta = crate::meta::lstat(&full)?;
    }
    // An index cannot hold `a` and `a/x` at once: as in git, the file
    // written replaces an entry where its directories now are (a tree
    // holding both leaves `a/x`, and `a` shows as deleted).
    for (i, _) in path.match_indices('/') {
        index.remove(&path[..i]);
    }
    index.insert(
        path,
        Staged {
            mode,
            id: *id,
            stat: index::stat_of(&meta),
            stage: 0,
        },
    );
    Ok(())
}

/// Writes `data` as the work tree's regular file `path` (a merge result,
/// a stash's file), by the same rules as a checkout. Returns the full path.
pub fn write_data(repo: &Repo, path: &str, data: &[u8]) -> Result<PathBuf> {
    let full = prepare_path(repo, path, 0o100644)?;
    std::fs::write(&full, data)?;
    Ok(full)
}

/// Removes a file of the work tree and the directories it leaves empty;
/// nothing when a leading directory is a symlink or a file (the path is
/// then not in the work tree, and removing it would follow the link).
pub fn remove_file(repo: &Repo, path: &str) {
    if non_dir_leading(repo, path).is_some() {
        return;
    }
    let full = repo.work_tree.join(path);
    let _ = std::fs::remove_file(&full);
    let mut dir = full.parent().map(|d| d.to_path_buf());
    while let Some(d) = dir {
        if d == repo.work_tree || std::fs::remove_dir(&d).is_err() {
            break;
        }
        forget_under(&d);
        dir = d.parent().map(|d| d.to_path_buf());
    }
}

/// Moves from `from` (what HEAD has) to `to`. With `force`, local changes
/// are overwritten (`reset --hard`); without, a path that changed locally
/// and differs between the two trees stops the move (git's "would be
/// overwritten"), and other local changes are carried over.
pub fn switch_trees(
    repo: &mut Repo,
    index: &mut Index,
    from: &Files,
    to: &Files,
    force: bool,
    verb: &str,
) -> Result<()> {
    if !force {
        let dirty = dirty_paths(repo, index, from)?;
        let blocked: Vec<&String> = dirty
            .iter()
            .filter(|p| from.get(*p) != to.get(*p))
            .collect();
        if !blocked.is_empty() {
            eprintln!(
                "error: Your local changes to the following files would be overwritten by {verb}:"
            );
            for p in &blocked {
                eprintln!("\t{p}");
            }
            eprintln!(
                "Please commit your changes or stash them before you {}.\nAborting",
                if verb == "checkout" {
                    "switch branches"
                } else {
                    verb
                }
            );
            return Err(Error::Exit(1));
        }
        // Untracked files in the way.
        let mut in_way = Vec::new();
        for p in to.keys() {
            if from.contains_key(p) || index.get(p).is_some() {
                continue;
            }
            // A symlink or file where the path needs a directory is in
            // the way too, unless the move itself removes it (tracked).
            if let Some(lead) = non_dir_leading(repo, p) {
                if !from.contains_key(&lead) && index.get(&lead).is_none() {
                    in_way.push(lead);
                }
                continue;
            }
            if crate::meta::lstat(repo.work_tree.join(p)).is_ok_and(|m| !m.is_dir()) {
                in_way.push(p.clone());
            }
        }
        in_way.sort();
        in_way.dedup();
        if !in_way.is_empty() {
            eprintln!(
                "error: The following untracked working tree files would be overwritten by {verb}:"
            );
            for p in &in_way {
                eprintln!("\t{p}");
            }
            eprintln!(
                "Please move or remove them before you {}.\nAborting",
                if verb == "checkout" {
                    "switch branches"
                } else {
                    verb
                }
            );
            return Err(Error::Exit(1));
        }
    }
    // git finds an untracked file in the way before it looks at a path's
    // validity (so a tree's `.git/config` is "in the way" unless forced).
    if let Some(p) = invalid_path(to) {
        return Err(Error::InvalidPath(p.clone()));
    }
    for (path, _) in from.iter() {
        if !to.contains_key(path) {
            remove_file(repo, path);
            index.remove(path);
        }
    }
    if force {
        for p in index.files().into_keys() {
            if !to.contains_key(&p) && !from.contains_key(&p) {
                remove_file(repo, &p);
                index.remove(&p);
            }
        }
        let conflicted = index.conflicted();
        for p in conflicted {
            index.remove(&p);
        }
    }
    for (path, (mode, id)) in to {
        let unchanged = from.get(path) == Some(&(*mode, *id));
        if unchanged && !force {
            continue;
        }
        if unchanged
            && force
            && let Some(e) = index.get(path)
        {
            let full = repo.work_tree.join(path);
            if e.id == *id
                && e.mode == *mode
                && crate::meta::lstat(&full).is_ok_and(|m| {
                    let s = index::stat_of(&m);
                    s.size == e.stat.size && s.mtime == e.stat.mtime && e.stat.mtime.secs != 0
                })
            {
                continue;
            }
        }
        write_file(repo, index, path, *mode, id)?;
    }
    Ok(())
}
