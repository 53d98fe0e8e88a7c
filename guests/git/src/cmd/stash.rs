//! `git stash [push [-m MSG] [-q]]`, `list`, `show [-p] [STASH]`,
//! `apply|pop [-q] [STASH]`, `drop [-q] [STASH]`: stashes as git stores
//! them (a work-tree commit whose parents are HEAD and an index commit,
//! `refs/stash` and its reflog as the list), so real git sees ours.

use std::io::Write;

use gix_hash::ObjectId;

use crate::Invocation;
use crate::checkout;
use crate::cmd::pretty::subject;
use crate::cmd::unsupported;
use crate::error::{Error, Result, fatal};
use crate::ident::Ident;
use crate::index::{Index, Staged};
use crate::objects::{self, Commit};
use crate::odb::Kind;
use crate::repo::{Head, Repo};
use crate::status::head_files;
use crate::worktree;

/// The stash list, newest first: (the work-tree commit, its message).
fn entries(repo: &Repo) -> Vec<(ObjectId, String)> {
    let text = std::fs::read_to_string(repo.git_dir.join("logs/refs/stash")).unwrap_or_default();
    text.lines()
        .rev()
        .filter_map(|l| {
            let (head, msg) = l.split_once('\t')?;
            let new = head.split(' ').nth(1)?;
            Some((ObjectId::from_hex(new.as_bytes()).ok()?, msg.to_owned()))
        })
        .collect()
}

fn which(arg: Option<&String>) -> Result<usize> {
    match arg {
        None => Ok(0),
        Some(a) => {
            let n = a
                .strip_prefix("stash@{")
                .and_then(|r| r.strip_suffix('}'))
                .unwrap_or(a);
            match n.parse() {
                Ok(n) => Ok(n),
                Err(_) => fatal(format!("'{a}' is not a stash-like commit")),
            }
        }
    }
}

pub fn run(inv: &mut Invocation) -> Result<i32> {
    let mut args = inv.args.clone();
    let sub = if args.first().is_some_and(|a| !a.starts_with('-')) {
        args.remove(0)
    } else {
        "push".to_owned()
    };
    let quiet = args.iter().any(|a| a == "-q" || a == "--quiet");
    args.retain(|a| a != "-q" && a != "--quiet");
    let mut repo = inv.repo()?;
    match sub.as_str() {
        "push" | "save" => push(inv, &mut repo, &args, quiet),
        "list" => {
            for (n, (_, msg)) in entries(&repo).iter().enumerate() {
                writeln!(inv.out, "stash@{{{n}}}: {msg}")?;
            }
            Ok(0)
        }
        "show" => {
            let patch = args.iter().any(|a| a == "-p" || a == "--patch");
            args.retain(|a| a != "-p" && a != "--patch" && a != "--stat");
            let (id, _) = pick(&repo, args.first())?;
            let c = repo.commit(&id)?;
            let base = c.parents.first().copied();
            let body = crate::cmd::diff::commits_patch(&mut repo, base, id, !patch, &[])?;
            inv.out.write_all(&body)?;
            Ok(0)
        }
        "apply" | "pop" => {
            if let Some(bad) = args.iter().find(|a| a.starts_with('-')) {
                return unsupported("stash", bad);
            }
            let n = which(args.first())?;
            let (id, _) = pick(&repo, args.first())?;
            apply(&mut repo, &id)?;
            if !quiet {
                let index = Index::load(&repo.git_dir)?;
                crate::cmd::status::long(&mut repo, &index, &mut inv.out, false)?;
            }
            if sub == "pop" {
                drop_entry(inv, &repo, n, quiet)?;
            }
            Ok(0)
        }
        "drop" => {
            let n = which(args.first())?;
            pick(&repo, args.first())?;
            drop_entry(inv, &repo, n, quiet)?;
            Ok(0)
        }
        "clear" => {
            let _ = std::fs::remove_file(repo.git_dir.join("refs/stash"));
            let _ = std::fs::remove_file(repo.git_dir.join("logs/refs/stash"));
            Ok(0)
        }
        other => unsupported("stash", other),
    }
}

fn pick(repo: &Repo, arg: Option<&String>) -> Result<(ObjectId, String)> {
    let all = entries(repo);
    if all.is_empty() {
        eprintln!("No stash entries found.");
        return Err(Error::Exit(1));
    }
    let n = which(arg)?;
    match all.get(n) {
        Some(e) => Ok(e.clone()),
        None => fatal(format!("stash@{{{n}}} is not a valid reference")),
    }
}

fn push(inv: &mut Invocation, repo: &mut Repo, args: &[String], quiet: bool) -> Result<i32> {
    let mut message = None;
    let mut untracked = false;
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "-m" | "--message" => {
                i += 1;
                message = args.get(i).cloned();
            }
            "-u" | "--include-untracked" => untracked = true,
            "--no-include-untracked" => untracked = false,
            s => return unsupported("stash", s),
        }
        i += 1;
    }
    let Some(head) = repo.head_commit()? else {
        return fatal("You do not have the initial commit yet");
    };
    let mut index = Index::load(&repo.git_dir)?;
    let head_files = head_files(repo)?;
    let dirty = checkout::dirty_paths(repo, &index, &head_files)?;
    let new_files = if untracked {
        crate::status::compute(repo, &index, crate::status::Untracked::All)?.untracked
    } else {
        Vec::new()
    };
    if dirty.is_empty() && new_files.is_empty() {
        writeln!(inv.out, "No local changes to save")?;
        return Ok(0);
    }
    // A name git may not index (`.GIT`, `git~1`) is left out of the stash,
    // as git does ("Ignoring path"); git still removes it with the others
    // afterwards, and makes the untracked commit even if it is empty.
    let stashable: Vec<String> = new_files
        .iter()
        .filter(|p| {
            let ok = crate::verify_path::verify_path(p, 0o100644);
            if !ok {
                eprintln!("Ignoring path {p}");
            }
            ok
        })
        .cloned()
        .collect();
    let branch = match repo.head()? {
        Head::Branch(b, _) => b,
        Head::Detached(_) => "(no branch)".to_owned(),
    };
    let head_commit = repo.commit(&head)?;
    let short = repo.abbrev(&head);
    let what = format!("{branch}: {short} {}", subject(&head_commit.message));
    let who = Ident::of("COMMITTER", &repo.config)?.header();
    let author = Ident::of("AUTHOR", &repo.config)?.header();

    // The index as a commit, then the tracked files as they are.
    let staged: Vec<(String, u32, ObjectId)> = index
        .files()
        .into_iter()
        .map(|(p, (m, id))| (p, m, id))
        .collect();
    let index_tree = objects::write_trees(&mut repo.odb, &staged)?;
    let index_commit = Commit {
        tree: index_tree,
        parents: vec![head],
        author: author.clone(),
        committer: who.clone(),
        message: format!("index on {what}\n"),
    };
    let i_id = repo
        .odb
        .write(Kind::Commit, &objects::encode_commit(&index_commit))?;
    let mut work = Vec::new();
    for (p, m, id) in &staged {
        let full = repo.work_tree.join(p);
        match crate::meta::lstat(&full) {
            Ok(meta) if !meta.is_dir() => {
                let data = worktree::content(&repo.work_tree, p, &meta)?;
                let wid = repo.odb.write(Kind::Blob, &data)?;
                work.push((p.clone(), *m, if wid == *id { *id } else { wid }));
            }
            _ => {}
        }
    }
    let work_tree = objects::write_trees(&mut repo.odb, &work)?;
    let mut parents = vec![head, i_id];
    if !new_files.is_empty() {
        parents.push(untracked_commit(repo, &stashable, &what, (&author, &who))?);
    }
    let full_message = match &message {
        Some(m) => format!("On {branch}: {m}"),
        None => format!("WIP on {what}"),
    };
    let w = Commit {
        tree: work_tree,
        parents,
        author,
        committer: who,
        // git writes the work-tree commit's message without a newline.
        message: full_message.clone(),
    };
    let w_id = repo.odb.write(Kind::Commit, &objects::encode_commit(&w))?;
    let old = repo.resolve_ref("refs/stash");
    repo.write_ref("refs/stash", &w_id)?;
    crate::reflog::append(repo, "refs/stash", old, &w_id, &full_message);
    checkout::switch_trees(
        repo,
        &mut index,
        &head_files,
        &head_files.clone(),
        true,
        "stash",
    )?;
    index.save(&repo.git_dir)?;
    for f in &new_files {
        checkout::remove_file(repo, f);
    }
    if !quiet {
        writeln!(
            inv.out,
            "Saved working directory and index state {full_message}"
        )?;
    }
    Ok(0)
}

/// The stash's changes (its work tree against its base) onto the work
/// tree, merging where the file changed since; files the stash added are
/// staged, as git's apply does without --index.
fn apply(repo: &mut Repo, w_id: &ObjectId) -> Result<()> {
    let w = repo.commit(w_id)?;
    if let Some(u) = w.parents.get(2) {
        restore_untracked(repo, u)?;
    }
    let base = match w.parents.first() {
        Some(p) => {
            let t = repo.tree_of(p)?;
            objects::flatten(&mut repo.odb, &t)?
        }
        None => Default::default(),
    };
    let stashed = objects::flatten(&mut repo.odb, &w.tree)?;
    if let Some(p) = checkout::invalid_path(&stashed) {
        checkout::report_invalid(p);
        return Err(crate::error::Error::Exit(1));
    }
    let mut index = Index::load(&repo.git_dir)?;
    let mut conflicts = Vec::new();
    for (path, (mode, id)) in &stashed {
        if base.get(path) == Some(&(*mode, *id)) {
            continue;
        }
        // A path behind a symlink is not the work tree's: not read there.
        let current = match checkout::non_dir_leading(repo, path) {
            Some(_) => None,
            None => std::fs::read(repo.work_tree.join(path)).ok(),
        };
        let base_data = match base.get(path) {
            Some((_, b)) => Some(repo.odb.must_read(b)?.data),
            None => None,
        };
        let theirs = repo.odb.must_read(id)?.data;
        let data = match (&current, &base_data) {
            (Some(c), Some(b)) if c != b => {
                let m = crate::merge3::merge(b, c, &theirs, "Updated upstream", "Stashed changes");
                if m.conflicts > 0 {
                    conflicts.push(path.clone());
                }
                m.data
            }
            _ => theirs,
        };
        let full = checkout::write_data(repo, path, &data)?;
        if !base.contains_key(path) {
            let meta = crate::meta::lstat(&full)?;
            let id = repo.odb.write(Kind::Blob, &data)?;
            index.insert(
                path,
                Staged {
                    mode: *mode,
                    id,
                    stat: crate::index::stat_of(&meta),
                    stage: 0,
                },
            );
        }
    }
    for path in base.keys() {
        if !stashed.contains_key(path) {
            checkout::remove_file(repo, path);
            index.remove(path);
        }
    }
    index.save(&repo.git_dir)?;
    for c in &conflicts {
        println!("CONFLICT (content): Merge conflict in {c}");
    }
    Ok(())
}

fn drop_entry(inv: &mut Invocation, repo: &Repo, n: usize, quiet: bool) -> Result<()> {
    let path = repo.git_dir.join("logs/refs/stash");
    let text = std::fs::read_to_string(&path).unwrap_or_default();
    let mut lines: Vec<&str> = text.lines().collect();
    if n >= lines.len() {
        return fatal(format!("stash@{{{n}}} is not a valid reference"));
    }
    let at = lines.len() - 1 - n;
    let dropped = lines.remove(at);
    let dropped_id = dropped.split(' ').nth(1).unwrap_or("").to_owned();
    if lines.is_empty() {
        let _ = std::fs::remove_file(&path);
        let _ = std::fs::remove_file(repo.git_dir.join("refs/stash"));
    } else {
        std::fs::write(&path, lines.join("\n") + "\n")?;
        if let Some(last) = lines.last().and_then(|l| l.split(' ').nth(1))
            && let Ok(id) = ObjectId::from_hex(last.as_bytes())
        {
            repo.write_ref("refs/stash", &id)?;
        }
    }
    if !quiet {
        writeln!(inv.out, "Dropped refs/stash@{{{n}}} ({dropped_id})")?;
    }
    Ok(())
}

/// `stash -u`'s third parent: a root commit of the untracked files.
fn untracked_commit(
    repo: &mut Repo,
    files: &[String],
    what: &str,
    (author, committer): (&str, &str),
) -> Result<ObjectId> {
    let mut entries = Vec::new();
    for p in files {
        let meta = crate::meta::lstat(repo.work_tree.join(p))?;
        let data = worktree::content(&repo.work_tree, p, &meta)?;
        let id = repo.odb.write(Kind::Blob, &data)?;
        entries.push((p.clone(), worktree::mode_of(&meta), id));
    }
    let tree = objects::write_trees(&mut repo.odb, &entries)?;
    let commit = Commit {
        tree,
        parents: Vec::new(),
        author: author.to_owned(),
        committer: committer.to_owned(),
        message: format!("untracked files on {what}\n"),
    };
    repo.odb
        .write(Kind::Commit, &objects::encode_commit(&commit))
}

/// Puts back a stash's untracked files, refusing (as git does) to
/// overwrite one that exists again.
fn restore_untracked(repo: &mut Repo, u: &ObjectId) -> Result<()> {
    let tree = repo.tree_of(u)?;
    let files = objects::flatten(&mut repo.odb, &tree)?;
    if let Some(p) = checkout::invalid_path(&files) {
        checkout::report_invalid(p);
        return Err(crate::error::Error::Exit(1));
    }
    let existing: Vec<&String> = files
        .keys()
        .filter(|p| crate::meta::lstat(repo.work_tree.join(p)).is_ok())
        .collect();
    if !existing.is_empty() {
        for p in existing {
            eprintln!("{p} already exists, no checkout");
        }
        eprintln!("error: could not restore untracked files from stash");
        return Err(crate::error::Error::Exit(1));
    }
    for (p, (mode, id)) in &files {
        let data = repo.odb.must_read(id)?.data;
        let full = checkout::write_data(repo, p, &data)?;
        crate::meta::set_mode(&full, *mode);
    }
    Ok(())
}
