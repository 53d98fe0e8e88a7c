//! `git reset [--soft|--mixed|--hard] [REV]` and `git reset [REV] -- PATH...`.

use std::io::Write;

use crate::Invocation;
use crate::checkout;
use crate::cmd::add::matching;
use crate::cmd::pretty::subject;
use crate::cmd::{split_dashdash, unsupported};
use crate::error::{Error, Result, fatal};
use crate::index::{Index, Staged};
use crate::objects;
use crate::repo::Repo;
use crate::status::{self, Untracked, head_files};

pub fn run(inv: &mut Invocation) -> Result<i32> {
    let (opts, mut paths, dashdash) = split_dashdash(&inv.args);
    let mut mode = "mixed";
    let mut quiet = false;
    let mut rev = None;
    for a in opts {
        match a.as_str() {
            "--soft" => mode = "soft",
            "--mixed" => mode = "mixed",
            "--hard" => mode = "hard",
            "-q" | "--quiet" => quiet = true,
            s if s.starts_with('-') => return unsupported("reset", s),
            _ if rev.is_none() => rev = Some(a),
            _ => paths.push(a),
        }
    }
    let mut repo = inv.repo()?;
    // `git reset FILE`: a first argument that is not a revision is a path.
    if let Some(r) = &rev
        && repo.rev_parse(r)?.is_none()
    {
        // Without `--`, git takes it as a path only if it names one.
        if !dashdash && !repo.work_tree.join(&repo.prefix).join(r).exists() {
            repo.must_rev(r)?;
        }
        paths.insert(0, r.clone());
        rev = None;
    }
    if !paths.is_empty() && mode != "mixed" {
        return crate::error::fatal(format!("Cannot do {mode} reset with paths."));
    }
    let target = match &rev {
        Some(r) => {
            let id = repo.must_rev(r)?;
            Some(repo.peel_to_commit(&id)?)
        }
        None => repo.head_commit()?,
    };
    let to = match target {
        Some(c) => {
            let t = repo.tree_of(&c)?;
            objects::flatten(&mut repo.odb, &t)?
        }
        None => Default::default(),
    };
    let mut index = Index::load(&repo.git_dir)?;
    if !paths.is_empty() {
        let specs: Vec<String> = paths.iter().filter_map(|p| repo.repo_path(p)).collect();
        for p in matching(&specs, &to, &index) {
            if let Some(e) = refused(&to, &p) {
                return Err(e);
            }
            match to.get(&p) {
                Some((mode, id)) => index.set_blob(&p, *mode, *id),
                None => {
                    index.remove(&p);
                }
            }
        }
        index.save(&repo.git_dir)?;
        if !quiet {
            unstaged_report(inv, &mut repo, &index)?;
        }
        return Ok(0);
    }
    let from = head_files(&mut repo)?;
    if mode == "mixed"
        && let Some(p) = checkout::invalid_path(&to)
    {
        return Err(refused(&to, p).expect("an invalid path"));
    }
    match mode {
        "hard" => {
            match checkout::switch_trees(&mut repo, &mut index, &from, &to, true, "reset") {
                Err(e @ Error::InvalidPath(_)) => {
                    eprintln!("{e}");
                    let shown = rev.as_deref().unwrap_or("HEAD");
                    return fatal(format!("Could not reset index file to revision '{shown}'."));
                }
                r => r?,
            }
            index.save(&repo.git_dir)?;
        }
        "mixed" => {
            let mut fresh = Index {
                entries: Default::default(),
            };
            for (p, (mode, id)) in &to {
                let stat = index
                    .get(p)
                    .filter(|e| e.id == *id)
                    .map(|e| e.stat)
                    .unwrap_or_default();
                fresh.insert(
                    p,
                    Staged {
                        mode: *mode,
                        id: *id,
                        stat,
                        stage: 0,
                    },
                );
            }
            index = fresh;
            index.save(&repo.git_dir)?;
        }
        _ => {}
    }
    if let Some(c) = target {
        let old = repo.head_commit()?;
        if let Some(o) = old {
            std::fs::write(repo.git_dir.join("ORIG_HEAD"), format!("{o}\n"))?;
        }
        repo.update_head(&c)?;
        let shown = rev.clone().unwrap_or_else(|| "HEAD".to_owned());
        crate::reflog::head_moved(&repo, old, &c, &format!("reset: moving to {shown}"), true);
    }
    crate::cmd::merge::clear_state(&repo);
    if quiet {
        return Ok(0);
    }
    match mode {
        "hard" => {
            if let Some(c) = target {
                let msg = repo.commit(&c)?;
                let a = repo.abbrev(&c);
                writeln!(inv.out, "HEAD is now at {a} {}", subject(&msg.message))?;
            }
        }
        "mixed" => unstaged_report(inv, &mut repo, &index)?,
        _ => {}
    }
    Ok(0)
}

fn unstaged_report(inv: &mut Invocation, repo: &mut Repo, index: &Index) -> Result<()> {
    let c = status::compute(repo, index, Untracked::No)?;
    if !c.unstaged.is_empty() {
        writeln!(inv.out, "Unstaged changes after reset:")?;
        for (y, p) in &c.unstaged {
            writeln!(inv.out, "{y}\t{p}")?;
        }
    }
    Ok(())
}

/// git's refusal to stage `path` of `to` when it may not enter the index
/// (`..`, `.git`, ...): reported, and the error to end with.
fn refused(to: &checkout::Files, path: &str) -> Option<Error> {
    let (mode, _) = to.get(path)?;
    if crate::verify_path::verify_path(path, *mode) {
        return None;
    }
    checkout::report_invalid(path);
    Some(Error::Fatal(format!(
        "make_cache_entry failed for path '{path}'"
    )))
}
