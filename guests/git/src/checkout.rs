//! Moving the work tree and the index from one tree to another, as
//! checkout, `reset --hard` and merges do: files that differ are written,
//! files that leave are removed (and directories left empty), and a file
//! with local changes that would be lost stops the move before anything is
//! touched.

use std::collections::BTreeMap;

use gix_hash::ObjectId;

use crate::error::{Error, Result};
use crate::index::{self, Index, Staged};
use crate::repo::Repo;
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

/// Writes one file of a tree into the work tree and the index.
pub fn write_file(
    repo: &mut Repo,
    index: &mut Index,
    path: &str,
    mode: u32,
    id: &ObjectId,
) -> Result<()> {
    let full = repo.work_tree.join(path);
    if let Some(dir) = full.parent() {
        if dir.is_file() {
            std::fs::remove_file(dir)?;
        }
        std::fs::create_dir_all(dir)?;
    }
    if let Ok(meta) = crate::meta::lstat(&full)
        && meta.is_dir()
    {
        std::fs::remove_dir_all(&full)?;
    }
    let data = repo.odb.must_read(id)?.data;
    if crate::meta::lstat(&full).is_ok_and(|m| m.is_symlink()) {
        std::fs::remove_file(&full)?;
    }
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

/// Removes a file of the work tree and the directories it leaves empty.
pub fn remove_file(repo: &Repo, path: &str) {
    let full = repo.work_tree.join(path);
    let _ = std::fs::remove_file(&full);
    let mut dir = full.parent().map(|d| d.to_path_buf());
    while let Some(d) = dir {
        if d == repo.work_tree || std::fs::remove_dir(&d).is_err() {
            break;
        }
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
            if repo.work_tree.join(p).is_file() {
                in_way.push(p.clone());
            }
        }
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
