//! `git checkout`, `git switch` and `git restore`.

use std::io::Write;

use gix_hash::ObjectId;

use crate::Invocation;
use crate::checkout::{self, Files};
use crate::cmd::add::matches;
use crate::cmd::pretty::subject;
use crate::cmd::{split_dashdash, unsupported};
use crate::error::{Error, Result, fatal};
use crate::index::Index;
use crate::objects;
use crate::repo::{Head, Repo};
use crate::status::head_files;

const DETACHED_ADVICE: &str = "\nYou are in 'detached HEAD' state. You can look around, make experimental\nchanges and commit them, and you can discard any commits you make in this\nstate without impacting any branches by switching back to a branch.\n\nIf you want to create a new branch to retain commits you create, you may\ndo so (now or later) by using -c with the switch command. Example:\n\n  git switch -c <new-branch-name>\n\nOr undo this operation with:\n\n  git switch -\n\nTurn off this advice by setting config variable advice.detachedHead to false\n\n";

fn files_of(repo: &mut Repo, commit: &ObjectId) -> Result<Files> {
    let tree = repo.tree_of(commit)?;
    objects::flatten(&mut repo.odb, &tree)
}

pub fn run_checkout(inv: &mut Invocation) -> Result<i32> {
    let (opts, paths, dashdash) = split_dashdash(&inv.args);
    let mut create: Option<(String, bool)> = None;
    let mut detach = false;
    let mut force = false;
    let mut quiet = false;
    let mut rest = Vec::new();
    let mut i = 0;
    while i < opts.len() {
        match opts[i].as_str() {
            "-b" | "-B" => {
                i += 1;
                let Some(n) = opts.get(i) else {
                    return fatal("switch `b' requires a value");
                };
                create = Some((n.clone(), opts[i - 1] == "-B"));
            }
            "--detach" => detach = true,
            "-f" | "--force" => force = true,
            "-q" | "--quiet" => quiet = true,
            "-" => rest.push("-".to_owned()),
            s if s.starts_with('-') => return unsupported("checkout", s),
            s => rest.push(s.to_owned()),
        }
        i += 1;
    }
    let mut repo = inv.repo()?;
    if dashdash || (create.is_none() && rest.len() >= 2) {
        // checkout [REV] -- PATH...
        let (rev, paths) = if dashdash {
            (rest.first().cloned(), paths)
        } else {
            (Some(rest[0].clone()), rest[1..].to_vec())
        };
        return restore_paths(&mut repo, rev.as_deref(), &paths, true, true);
    }
    if rest.first().is_some_and(|r| r == "-") {
        match crate::reflog::previous_checkout(&repo, 1) {
            Some(prev) => rest[0] = prev,
            None => return fatal("invalid reference: @{-1}"),
        }
    }
    if create.is_none() && rest.len() == 1 && repo.rev_parse(&rest[0])?.is_none() {
        let p = &rest[0];
        if repo.work_tree.join(&repo.prefix).join(p).exists()
            || Index::load(&repo.git_dir)?
                .files()
                .keys()
                .any(|k| repo.repo_path(p).is_some_and(|s| matches(&s, k)))
        {
            return restore_paths(&mut repo, None, &rest, false, true);
        }
        eprintln!("error: pathspec '{p}' did not match any file(s) known to git");
        return Err(Error::Exit(1));
    }
    let target = rest.first().cloned();
    switch(inv, &mut repo, target, create, detach, force, quiet)
}

pub fn run_switch(inv: &mut Invocation) -> Result<i32> {
    let mut create: Option<(String, bool)> = None;
    let mut detach = false;
    let mut force = false;
    let mut quiet = false;
    let mut rest = Vec::new();
    let args = inv.args.clone();
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "-c" | "-C" | "--create" | "--force-create" => {
                i += 1;
                let Some(n) = args.get(i) else {
                    return fatal("switch `c' requires a value");
                };
                create = Some((
                    n.clone(),
                    args[i - 1] == "-C" || args[i - 1] == "--force-create",
                ));
            }
            "-d" | "--detach" => detach = true,
            "-f" | "--force" | "--discard-changes" => force = true,
            "-q" | "--quiet" => quiet = true,
            "-" => rest.push("-".to_owned()),
            s if s.starts_with('-') => return unsupported("switch", s),
            s => rest.push(s.to_owned()),
        }
        i += 1;
    }
    let mut repo = inv.repo()?;
    if rest.first().is_some_and(|r| r == "-") {
        match crate::reflog::previous_checkout(&repo, 1) {
            Some(prev) => rest[0] = prev,
            None => return fatal("invalid reference: @{-1}"),
        }
    }
    if create.is_none() && !detach {
        if let Some(name) = rest.first() {
            if repo.resolve_ref(&format!("refs/heads/{name}")).is_none() {
                if repo.rev_parse(name)?.is_some() {
                    return fatal(
                        "a branch is expected, got commit '".to_owned()
                            + name
                            + "'\nhint: If you want to detach HEAD at the commit, try again with the --detach option.",
                    );
                }
                return fatal(format!("invalid reference: {name}"));
            }
        } else {
            return fatal("missing branch or commit argument");
        }
    }
    let target = rest.first().cloned();
    switch(inv, &mut repo, target, create, detach, force, quiet)
}

fn switch(
    inv: &mut Invocation,
    repo: &mut Repo,
    target: Option<String>,
    create: Option<(String, bool)>,
    detach: bool,
    force: bool,
    quiet: bool,
) -> Result<i32> {
    let head = repo.head()?;
    let head_id = repo.head_commit()?;
    let (branch, commit) = match (&create, &target) {
        (Some((name, reset)), start) => {
            if repo.resolve_ref(&format!("refs/heads/{name}")).is_some() && !reset {
                return fatal(format!("a branch named '{name}' already exists"));
            }
            let start_id = match start {
                Some(s) => {
                    let id = repo.clone_rev(s)?;
                    Some(repo.peel_to_commit(&id)?)
                }
                None => head_id,
            };
            (Some(name.clone()), start_id)
        }
        (None, Some(t)) if !detach && repo.resolve_ref(&format!("refs/heads/{t}")).is_some() => (
            Some(t.clone()),
            repo.resolve_ref(&format!("refs/heads/{t}")),
        ),
        (None, Some(t)) => {
            let id = repo.must_rev(t)?;
            (None, Some(repo.peel_to_commit(&id)?))
        }
        (None, None) => match &head {
            Head::Branch(_, id) if detach => (None, *id),
            Head::Branch(b, id) => (Some(b.clone()), *id),
            Head::Detached(id) => (None, Some(*id)),
        },
    };
    let mut index = Index::load(&repo.git_dir)?;
    let from = head_files(repo)?;
    let to = match commit {
        Some(c) => files_of(repo, &c)?,
        None => Files::new(),
    };
    match checkout::switch_trees(repo, &mut index, &from, &to, force, "checkout") {
        // A forced checkout that cannot build its index is fatal to git.
        Err(e @ Error::InvalidPath(_)) if force => {
            eprintln!("{e}");
            return Err(Error::Exit(128));
        }
        r => r?,
    }
    index.save(&repo.git_dir)?;
    let existed = match &create {
        Some((name, _)) => repo.resolve_ref(&format!("refs/heads/{name}")).is_some(),
        None => false,
    };
    if let (Some((name, _)), Some(c)) = (&create, commit) {
        repo.write_ref(&format!("refs/heads/{name}"), &c)?;
    }
    let from_name = match &head {
        Head::Branch(b, _) => b.clone(),
        Head::Detached(id) => id.to_string(),
    };
    // git logs the target as it was typed; `status` reads it back.
    let to_name = match (&branch, commit, &target) {
        (Some(b), _, _) => b.clone(),
        (None, _, Some(t)) => t.clone(),
        (None, Some(c), None) => c.to_string(),
        (None, None, None) => String::new(),
    };
    // A detached HEAD moved to the commit it is at writes no reflog entry.
    let detached_in_place =
        matches!(head, Head::Detached(_)) && branch.is_none() && head_id == commit;
    if let Some(c) = commit
        && (from_name != to_name || create.is_some())
        && !detached_in_place
    {
        if let (Some((name, _)), Some(start)) = (&create, commit) {
            let from = target.clone().unwrap_or_else(|| "HEAD".to_owned());
            crate::reflog::append(
                repo,
                &format!("refs/heads/{name}"),
                None,
                &start,
                &format!("branch: Created from {from}"),
            );
        }
        crate::reflog::append(
            repo,
            "HEAD",
            head_id,
            &c,
            &format!("checkout: moving from {from_name} to {to_name}"),
        );
    }
    let already = match (&head, &branch) {
        (Head::Branch(b, _), Some(n)) => b == n && create.is_none(),
        _ => false,
    };
    match &branch {
        Some(name) => std::fs::write(
            repo.git_dir.join("HEAD"),
            format!("ref: refs/heads/{name}\n"),
        )?,
        None => {
            if let Some(c) = commit {
                std::fs::write(repo.git_dir.join("HEAD"), format!("{c}\n"))?;
            }
        }
    }
    // Local changes carried over, as `M\tpath` on stdout.
    if !quiet && !already {
        let c = crate::status::compute(repo, &index, crate::status::Untracked::No)?;
        let mut lines: std::collections::BTreeMap<String, char> = Default::default();
        for (x, p, _) in &c.staged {
            lines.insert(p.clone(), *x);
        }
        for (y, p) in &c.unstaged {
            lines.entry(p.clone()).or_insert(*y);
        }
        for (p, x) in lines {
            writeln!(inv.out, "{x}\t{}", repo.display_path(&p))?;
        }
    }
    if quiet {
        return Ok(0);
    }
    if let Head::Detached(old) = &head
        && (branch.is_some() || Some(*old) != commit)
    {
        let c = repo.commit(old)?;
        let a = repo.abbrev(old);
        eprintln!("Previous HEAD position was {a} {}", subject(&c.message));
    }
    match (&branch, &create) {
        (Some(name), Some(_)) if existed => eprintln!("Switched to and reset branch '{name}'"),
        (Some(name), Some(_)) => eprintln!("Switched to a new branch '{name}'"),
        (Some(name), None) if already => eprintln!("Already on '{name}'"),
        (Some(name), None) => eprintln!("Switched to branch '{name}'"),
        (None, _) => {
            let c = commit.expect("a detached checkout has a commit");
            let msg = repo.commit(&c)?;
            let a = repo.abbrev(&c);
            // An explicit --detach asked for it: no advice.
            if !matches!(head, Head::Detached(_)) && !detach {
                let shown = target.unwrap_or_default();
                eprint!("Note: switching to '{shown}'.\n{DETACHED_ADVICE}");
            }
            eprintln!("HEAD is now at {a} {}", subject(&msg.message));
        }
    }
    Ok(0)
}

/// `checkout [REV] -- PATH`, `restore [--staged] [--worktree] [--source REV] PATH`.
pub fn restore_paths(
    repo: &mut Repo,
    rev: Option<&str>,
    paths: &[String],
    staged: bool,
    worktree: bool,
) -> Result<i32> {
    let mut index = Index::load(&repo.git_dir)?;
    let source: Files = match rev {
        Some(r) => {
            let id = repo.must_rev(r)?;
            let c = repo.peel_to_commit(&id)?;
            files_of(repo, &c)?
        }
        None if staged && !worktree => head_files(repo)?,
        None => index.files(),
    };
    let specs: Vec<String> = paths.iter().filter_map(|p| repo.repo_path(p)).collect();
    for (spec, shown) in specs.iter().zip(paths) {
        let known = source.keys().any(|k| matches(spec, k))
            || index.files().keys().any(|k| matches(spec, k));
        if !known {
            eprintln!("error: pathspec '{shown}' did not match any file(s) known to git");
            return Err(Error::Exit(1));
        }
    }
    for path in crate::cmd::add::matching(&specs, &source, &index) {
        match source.get(&path) {
            // git names the path and goes on with the others.
            Some((mode, _)) if !crate::verify_path::verify_path(&path, *mode) => {
                checkout::report_invalid(&path);
            }
            Some((mode, id)) => {
                if staged {
                    index.set_blob(&path, *mode, *id);
                }
                if worktree {
                    let mut scratch = Index {
                        entries: Default::default(),
                    };
                    checkout::write_file(repo, &mut scratch, &path, *mode, id)?;
                    if (staged || rev.is_none())
                        && let Some(s) = scratch.entries.remove(&(path.clone(), 0))
                        && index.get(&path).is_some_and(|e| e.id == s.id)
                    {
                        index.insert(&path, s);
                    }
                }
            }
            None => {
                if staged {
                    index.remove(&path);
                }
                if worktree && rev.is_some() {
                    checkout::remove_file(repo, &path);
                }
            }
        }
    }
    index.save(&repo.git_dir)?;
    Ok(0)
}

pub fn run_restore(inv: &mut Invocation) -> Result<i32> {
    let (opts, mut paths, _) = split_dashdash(&inv.args);
    let (mut staged, mut worktree) = (false, false);
    let mut source = None;
    let mut i = 0;
    while i < opts.len() {
        match opts[i].as_str() {
            "-S" | "--staged" => staged = true,
            "-W" | "--worktree" => worktree = true,
            "-s" | "--source" => {
                i += 1;
                source = opts.get(i).cloned();
            }
            s if s.starts_with("--source=") => source = Some(s[9..].to_owned()),
            s if s.starts_with('-') => return unsupported("restore", s),
            s => paths.push(s.to_owned()),
        }
        i += 1;
    }
    if !staged && !worktree {
        worktree = true;
    }
    let mut repo = inv.repo()?;
    if paths.is_empty() {
        return fatal("you must specify path(s) to restore");
    }
    restore_paths(&mut repo, source.as_deref(), &paths, staged, worktree)
}
