//! `git add [-A|-u|-f] [--] PATHSPEC...`: stages files of the work tree,
//! and (as git 2 does) the removal of tracked files that are gone.

use crate::Invocation;
use crate::cmd::{split_dashdash, unsupported};
use crate::error::{Error, Result, fatal};
use crate::index::{self, Index, Staged};
use crate::odb::Kind;
use crate::repo::Repo;
use crate::worktree::{self, Ignores};

/// Whether repository path `path` falls under pathspec `spec` (a
/// repository path, `""` for everything, or a glob).
pub fn matches(spec: &str, path: &str) -> bool {
    if spec.is_empty() || path == spec || path.starts_with(&format!("{spec}/")) {
        return true;
    }
    spec.contains(['*', '?', '['])
        && gix_glob::wildmatch(spec.into(), path.into(), gix_glob::wildmatch::Mode::empty())
}

/// The paths of `tree` or of the index that fall under one of `specs`,
/// sorted and each once (what `reset PATH` and `restore PATH` act on).
pub fn matching(
    specs: &[String],
    tree: &std::collections::BTreeMap<String, (u32, gix_hash::ObjectId)>,
    index: &Index,
) -> Vec<String> {
    let staged = index.files();
    let all: std::collections::BTreeSet<&String> = tree.keys().chain(staged.keys()).collect();
    all.into_iter()
        .filter(|k| specs.iter().any(|s| matches(s, k)))
        .cloned()
        .collect()
}

pub fn run(inv: &mut Invocation) -> Result<i32> {
    let (opts, mut specs, _) = split_dashdash(&inv.args);
    let mut all = false;
    let mut update = false;
    let mut force = false;
    for a in opts {
        match a.as_str() {
            "-A" | "--all" => all = true,
            "-u" | "--update" => update = true,
            "-f" | "--force" => force = true,
            s if s.starts_with('-') && s != "-" => return unsupported("add", s),
            _ => specs.insert(specs.len(), a),
        }
    }
    let mut repo = inv.repo()?;
    if specs.is_empty() && !all && !update {
        eprintln!(
            "Nothing specified, nothing added.\nhint: Maybe you wanted to say 'git add .'?\nhint: Turn this message off by running\nhint: \"git config advice.addEmptyPathspec false\""
        );
        return Ok(0);
    }
    let specs: Vec<String> = if specs.is_empty() {
        vec![String::new()]
    } else {
        let mut out = Vec::new();
        for s in &specs {
            match repo.repo_path(s) {
                Some(p) => out.push(p),
                None => {
                    return fatal(format!(
                        "{s}: '{s}' is outside repository at '{}'",
                        repo.work_tree.display()
                    ));
                }
            }
        }
        out
    };
    let mut index = Index::load(&repo.git_dir)?;
    let excludes = repo
        .config
        .get("core.excludesfile")
        .map(std::path::PathBuf::from);
    let mut ignores = Ignores::load(&repo.work_tree, &repo.git_dir, excludes);
    let files = worktree::walk(&repo.work_tree, &repo.git_dir, &mut ignores, "")?;
    let tracked: Vec<String> = index.entries.keys().map(|(p, _)| p.clone()).collect();

    let mut ignored_named = Vec::new();
    for (spec, shown) in specs.iter().zip(
        inv.args
            .iter()
            .filter(|a| !a.starts_with('-') || a.as_str() == "-"),
    ) {
        let hit = files.iter().any(|f| matches(spec, &f.path))
            || tracked.iter().any(|t| matches(spec, t));
        if hit {
            continue;
        }
        let full = repo.work_tree.join(spec);
        if full.exists() && !spec.is_empty() {
            if !force {
                ignored_named.push(spec.clone());
            }
            continue;
        }
        return fatal(format!("pathspec '{shown}' did not match any files"));
    }

    for f in &files {
        if !specs.iter().any(|s| matches(s, &f.path)) {
            continue;
        }
        if update && index.get(&f.path).is_none() {
            continue;
        }
        stage(&mut repo, &mut index, &f.path, &f.meta)?;
    }
    if force {
        for spec in &specs {
            let full = repo.work_tree.join(spec);
            if let Ok(meta) = crate::meta::lstat(&full)
                && meta.is_file()
                && !spec.is_empty()
            {
                stage(&mut repo, &mut index, spec, &meta)?;
            }
        }
    }
    for path in tracked {
        if specs.iter().any(|s| matches(s, &path)) && !repo.work_tree.join(&path).exists() {
            index.remove(&path);
        }
    }
    index.save(&repo.git_dir)?;
    if !ignored_named.is_empty() {
        eprintln!("The following paths are ignored by one of your .gitignore files:");
        for p in &ignored_named {
            eprintln!("{}", repo.display_path(p));
        }
        eprintln!(
            "hint: Use -f if you really want to add them.\nhint: Turn this message off by running\nhint: \"git config advice.addIgnoredFile false\""
        );
        return Err(Error::Exit(1));
    }
    Ok(0)
}

/// Puts the work tree's `path` into the index (hashing it only when its
/// stat data changed), keeping a staged file's mode.
pub fn stage(
    repo: &mut Repo,
    index: &mut Index,
    path: &str,
    meta: &crate::meta::Meta,
) -> Result<()> {
    let stat = index::stat_of(meta);
    if !crate::verify_path::verify_path(path, worktree::mode_of(meta)) {
        eprintln!(
            "error: invalid path '{path}'\nerror: unable to add '{path}' to index\nfatal: adding files failed"
        );
        return Err(Error::Exit(128));
    }
    // Where modes are unknown (outside the workspace) a staged file keeps
    // its mode, as with core.fileMode=false.
    let mode = match index.get(path) {
        Some(e) => worktree::mode_seen(meta, e.mode),
        None => worktree::mode_of(meta),
    };
    if let Some(existing) = index.get(path)
        && existing.stat == stat
        && existing.mode == mode
        && stat.mtime.secs != 0
    {
        return Ok(());
    }
    let data = worktree::content(&repo.work_tree, path, meta)?;
    let id = repo.odb.write(Kind::Blob, &data)?;
    index.insert(
        path,
        Staged {
            mode,
            id,
            stat,
            stage: 0,
        },
    );
    Ok(())
}
