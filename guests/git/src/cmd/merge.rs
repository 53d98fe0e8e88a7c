//! `git merge [--no-ff|--ff-only] [--no-edit] [-m MSG] [-q] REV` and
//! `git merge --abort`: fast-forwards, and true merges of the two trees
//! against their merge base, file by file, with conflicts written as git
//! writes them (markers in the file, stages 1–3 in the index, MERGE_HEAD
//! and MERGE_MSG for the commit that concludes the merge).

use std::collections::BTreeSet;
use std::io::Write;

use gix_hash::ObjectId;

use crate::Invocation;
use crate::checkout::{self, Files};
use crate::cmd::commit::summary;
use crate::cmd::unsupported;
use crate::error::{Error, Result, fatal};
use crate::ident::Ident;
use crate::index::{Index, Staged};
use crate::merge3;
use crate::objects::{self, Commit};
use crate::odb::Kind;
use crate::repo::{Head, Repo};
use crate::status::head_files;

/// Every ancestor of `id`, itself included.
fn ancestors(repo: &mut Repo, id: &ObjectId) -> Result<BTreeSet<ObjectId>> {
    let mut seen = BTreeSet::new();
    let mut stack = vec![*id];
    while let Some(c) = stack.pop() {
        if seen.insert(c) {
            stack.extend(repo.commit(&c)?.parents);
        }
    }
    Ok(seen)
}

/// The best common ancestor: a common one that no other common one
/// descends from (the newest by committer date among those).
pub fn merge_base(repo: &mut Repo, a: &ObjectId, b: &ObjectId) -> Result<Option<ObjectId>> {
    let from_a = ancestors(repo, a)?;
    let from_b = ancestors(repo, b)?;
    let common: Vec<ObjectId> = from_a.intersection(&from_b).copied().collect();
    let mut best: Vec<ObjectId> = Vec::new();
    for c in &common {
        let mut dominated = false;
        for other in &common {
            if other != c && ancestors(repo, other)?.contains(c) {
                dominated = true;
                break;
            }
        }
        if !dominated {
            best.push(*c);
        }
    }
    let mut dated = Vec::new();
    for c in best {
        let when = crate::ident::parse_sig(&repo.commit(&c)?.committer).seconds;
        dated.push((when, c));
    }
    dated.sort();
    Ok(dated.last().map(|(_, c)| *c))
}

fn files_of(repo: &mut Repo, commit: &ObjectId) -> Result<Files> {
    let tree = repo.tree_of(commit)?;
    objects::flatten(&mut repo.odb, &tree)
}

pub fn run(inv: &mut Invocation) -> Result<i32> {
    let (mut no_ff, mut ff_only, mut quiet, mut abort) = (false, false, false, false);
    let mut message: Option<String> = None;
    let mut revs = Vec::new();
    let args = inv.args.clone();
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "--no-ff" => no_ff = true,
            "--ff" | "--no-edit" | "--no-stat" | "--stat" | "--no-progress" => {}
            "--ff-only" => ff_only = true,
            "-q" | "--quiet" => quiet = true,
            "--abort" => abort = true,
            "-m" => {
                i += 1;
                message = args.get(i).cloned();
            }
            s if s.starts_with('-') => return unsupported("merge", s),
            s => revs.push(s.to_owned()),
        }
        i += 1;
    }
    let mut repo = inv.repo()?;
    if abort {
        if !repo.git_dir.join("MERGE_HEAD").exists() {
            return fatal("There is no merge to abort (MERGE_HEAD missing).");
        }
        let mut index = Index::load(&repo.git_dir)?;
        let from = head_files(&mut repo)?;
        checkout::switch_trees(&mut repo, &mut index, &from, &from.clone(), true, "merge")?;
        index.save(&repo.git_dir)?;
        clear_state(&repo);
        return Ok(0);
    }
    let [name] = revs.as_slice() else {
        return unsupported("merge", &revs.join(" "));
    };
    let Some(theirs) = repo.rev_parse(name)? else {
        eprintln!("merge: {name} - not something we can merge");
        return Err(Error::Exit(1));
    };
    let theirs = repo.peel_to_commit(&theirs)?;
    if repo.git_dir.join("MERGE_HEAD").exists() {
        eprintln!(
            "error: Merging is not possible because you have unmerged files.\nhint: Fix them up in the work tree, and then use 'git add/rm <file>'\nhint: as appropriate to mark resolution and make a commit.\nfatal: Exiting because of an unresolved conflict."
        );
        return Err(Error::Exit(128));
    }
    let Some(ours) = repo.head_commit()? else {
        return unsupported("merge", "into a branch without commits");
    };
    let branch = match repo.head()? {
        Head::Branch(b, _) => Some(b),
        Head::Detached(_) => None,
    };
    let base = merge_base(&mut repo, &ours, &theirs)?;
    if base == Some(theirs) || ours == theirs {
        writeln!(inv.out, "Already up to date.")?;
        return Ok(0);
    }
    let mut index = Index::load(&repo.git_dir)?;
    let ours_files = head_files(&mut repo)?;
    let theirs_files = files_of(&mut repo, &theirs)?;
    if base == Some(ours) && !no_ff {
        let moved = checkout::switch_trees(
            &mut repo,
            &mut index,
            &ours_files,
            &theirs_files,
            false,
            "merge",
        );
        if let Err(e @ Error::InvalidPath(_)) = moved {
            // git says where it was going before it finds the path.
            if !quiet {
                let (a, b) = (repo.abbrev(&ours), repo.abbrev(&theirs));
                writeln!(inv.out, "Updating {a}..{b}")?;
            }
            eprintln!("{e}");
            return Err(Error::Exit(1));
        }
        moved?;
        index.save(&repo.git_dir)?;
        std::fs::write(repo.git_dir.join("ORIG_HEAD"), format!("{ours}\n"))?;
        repo.update_head(&theirs)?;
        crate::reflog::head_moved(
            &repo,
            Some(ours),
            &theirs,
            &format!("merge {name}: Fast-forward"),
            true,
        );
        if !quiet {
            let (a, b) = (repo.abbrev(&ours), repo.abbrev(&theirs));
            writeln!(inv.out, "Updating {a}..{b}\nFast-forward")?;
            let (ot, tt) = (repo.tree_of(&ours)?, repo.tree_of(&theirs)?);
            let text = summary(&mut repo, Some(&ot), &tt)?;
            write_stat(&mut repo, &mut inv.out, &ot, &tt, &text)?;
        }
        return Ok(0);
    }
    if ff_only {
        return fatal("Not possible to fast-forward, aborting.");
    }
    if let Some(p) = checkout::invalid_path(&theirs_files) {
        // An untracked file there is reported first, as git does.
        if crate::meta::lstat(repo.work_tree.join(p)).is_ok_and(|m| !m.is_dir()) {
            eprintln!(
                "error: The following untracked working tree files would be overwritten by merge:\n\t{p}\nPlease move or remove them before you merge.\nAborting"
            );
        } else {
            checkout::report_invalid(p);
        }
        eprintln!("Merge with strategy ort failed.");
        return Err(Error::Exit(2));
    }
    let base_files = match base {
        Some(b) => files_of(&mut repo, &b)?,
        None => Files::new(),
    };
    // Local changes to anything the merge touches stop it first.
    let dirty = checkout::dirty_paths(&mut repo, &index, &ours_files)?;
    let touched: Vec<String> = dirty
        .into_iter()
        .filter(|p| {
            theirs_files.get(p) != base_files.get(p) || ours_files.get(p) != theirs_files.get(p)
        })
        .filter(|p| theirs_files.get(p) != ours_files.get(p))
        .collect();
    if !touched.is_empty() {
        eprintln!(
            "error: Your local changes to the following files would be overwritten by merge:"
        );
        for p in &touched {
            eprintln!("\t{p}");
        }
        eprintln!(
            "Please commit your changes or stash them before you merge.\nAborting\nMerge with strategy ort failed."
        );
        return Err(Error::Exit(2));
    }

    let label = name.clone();
    let mut conflicted = Vec::new();
    let mut notes: Vec<String> = Vec::new();
    let paths: BTreeSet<&String> = base_files
        .keys()
        .chain(ours_files.keys())
        .chain(theirs_files.keys())
        .collect();
    for path in paths {
        let (b, o, t) = (
            base_files.get(path),
            ours_files.get(path),
            theirs_files.get(path),
        );
        if o == t || b == t {
            continue;
        }
        if b == o {
            match t {
                Some((mode, id)) => checkout::write_file(&mut repo, &mut index, path, *mode, id)?,
                None => {
                    checkout::remove_file(&repo, path);
                    index.remove(path);
                }
            }
            continue;
        }
        match (o, t) {
            (Some((om, oid)), Some((_, tid))) => {
                notes.push(format!("Auto-merging {path}"));
                let base_data = match b {
                    Some((_, bid)) => repo.odb.must_read(bid)?.data,
                    None => Vec::new(),
                };
                let od = repo.odb.must_read(oid)?.data;
                let td = repo.odb.must_read(tid)?.data;
                let merged = merge3::merge(&base_data, &od, &td, "HEAD", &label);
                if merged.conflicts == 0 {
                    let id = repo.odb.write(Kind::Blob, &merged.data)?;
                    let full = checkout::write_data(&repo, path, &merged.data)?;
                    let meta = crate::meta::lstat(full)?;
                    index.insert(
                        path,
                        Staged {
                            mode: *om,
                            id,
                            stat: crate::index::stat_of(&meta),
                            stage: 0,
                        },
                    );
                } else {
                    let kind = if b.is_none() { "add/add" } else { "content" };
                    notes.push(format!("CONFLICT ({kind}): Merge conflict in {path}"));
                    checkout::write_data(&repo, path, &merged.data)?;
                    conflict_stages(&mut index, path, b, o, t);
                    conflicted.push(path.clone());
                }
            }
            (Some(_), None) => {
                notes.push(format!(
                    "CONFLICT (modify/delete): {path} deleted in {label} and modified in HEAD.  Version HEAD of {path} left in tree."
                ));
                conflict_stages(&mut index, path, b, o, t);
                conflicted.push(path.clone());
            }
            (None, Some((_, tid))) => {
                notes.push(format!(
                    "CONFLICT (modify/delete): {path} deleted in HEAD and modified in {label}.  Version {label} of {path} left in tree."
                ));
                let data = repo.odb.must_read(tid)?.data;
                checkout::write_data(&repo, path, &data)?;
                conflict_stages(&mut index, path, b, o, t);
                conflicted.push(path.clone());
            }
            (None, None) => {}
        }
    }
    index.save(&repo.git_dir)?;
    std::fs::write(repo.git_dir.join("ORIG_HEAD"), format!("{ours}\n"))?;
    let kind = if repo.resolve_ref(&format!("refs/heads/{name}")).is_some() {
        "branch"
    } else if repo.resolve_ref(&format!("refs/tags/{name}")).is_some() {
        "tag"
    } else {
        "commit"
    };
    let mut msg = format!("Merge {kind} '{name}'");
    if let Some(b) = &branch
        && b != "main"
        && b != "master"
    {
        msg.push_str(&format!(" into {b}"));
    }
    let msg = message.unwrap_or(msg);
    // git's -q keeps the per-file notes (the merge machinery prints them).
    for n in &notes {
        writeln!(inv.out, "{n}")?;
    }
    if !conflicted.is_empty() {
        let mut text = format!("{msg}\n\n# Conflicts:\n");
        for c in &conflicted {
            text.push_str(&format!("#\t{c}\n"));
        }
        std::fs::write(repo.git_dir.join("MERGE_HEAD"), format!("{theirs}\n"))?;
        std::fs::write(repo.git_dir.join("MERGE_MSG"), text)?;
        std::fs::write(
            repo.git_dir.join("MERGE_MODE"),
            if no_ff { "no-ff" } else { "" },
        )?;
        writeln!(
            inv.out,
            "Automatic merge failed; fix conflicts and then commit the result."
        )?;
        return Err(Error::Exit(1));
    }
    let files: Vec<(String, u32, ObjectId)> = index
        .files()
        .into_iter()
        .map(|(p, (m, id))| (p, m, id))
        .collect();
    let tree = objects::write_trees(&mut repo.odb, &files)?;
    let author = Ident::of("AUTHOR", &repo.config)?;
    let committer = Ident::of("COMMITTER", &repo.config)?;
    let commit = Commit {
        tree,
        parents: vec![ours, theirs],
        author: author.header(),
        committer: committer.header(),
        message: crate::cmd::commit::cleanup(&msg),
    };
    let id = repo
        .odb
        .write(Kind::Commit, &objects::encode_commit(&commit))?;
    repo.update_head(&id)?;
    crate::reflog::head_moved(
        &repo,
        Some(ours),
        &id,
        &format!("merge {name}: Merge made by the 'ort' strategy."),
        true,
    );
    if !quiet {
        writeln!(inv.out, "Merge made by the 'ort' strategy.")?;
        let ot = repo.tree_of(&ours)?;
        let text = summary(&mut repo, Some(&ot), &tree)?;
        write_stat(&mut repo, &mut inv.out, &ot, &tree, &text)?;
    }
    Ok(0)
}

/// The diffstat table (`--stat` lines) then the summary git prints after a
/// merge.
fn write_stat(
    repo: &mut Repo,
    out: &mut impl Write,
    from: &ObjectId,
    to: &ObjectId,
    summary: &str,
) -> Result<()> {
    let table = crate::cmd::diff::commits_patch_trees(repo, from, to)?;
    // `summary` starts with the "N files changed" line that `table` ends with.
    out.write_all(&table)?;
    let rest: String = summary.lines().skip(1).map(|l| format!("{l}\n")).collect();
    out.write_all(rest.as_bytes())?;
    Ok(())
}

fn conflict_stages(
    index: &mut Index,
    path: &str,
    b: Option<&(u32, ObjectId)>,
    o: Option<&(u32, ObjectId)>,
    t: Option<&(u32, ObjectId)>,
) {
    index.remove(path);
    for (stage, side) in [(1, b), (2, o), (3, t)] {
        if let Some((mode, id)) = side {
            index.entries.insert(
                (path.to_owned(), stage),
                Staged {
                    mode: *mode,
                    id: *id,
                    stat: Default::default(),
                    stage,
                },
            );
        }
    }
}

pub fn clear_state(repo: &Repo) {
    for f in ["MERGE_HEAD", "MERGE_MSG", "MERGE_MODE"] {
        let _ = std::fs::remove_file(repo.git_dir.join(f));
    }
}
