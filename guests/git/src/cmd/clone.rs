//! `git clone [-q] [-b BRANCH] PATH [DIR]` of a repository in the workspace
//! (a network URL is not reached: it says to use the container backend).
//! Objects are copied, branches become `refs/remotes/origin/*`, and the
//! branch is checked out with its upstream configured, as git's clone.

use std::path::Path;

use crate::Invocation;
use crate::checkout;
use crate::cmd::unsupported;
use crate::config::ConfigFile;
use crate::error::{Error, Result, fatal};
use crate::index::Index;
use crate::objects;
use crate::repo::Repo;

fn copy_dir(from: &Path, to: &Path) -> Result<()> {
    std::fs::create_dir_all(to)?;
    for e in std::fs::read_dir(from)?.flatten() {
        let (src, dst) = (e.path(), to.join(e.file_name()));
        if src.is_dir() {
            copy_dir(&src, &dst)?;
        } else {
            std::fs::copy(&src, &dst)?;
        }
    }
    Ok(())
}

pub fn run(inv: &mut Invocation) -> Result<i32> {
    let mut quiet = false;
    let mut branch: Option<String> = None;
    let mut rest = Vec::new();
    let args = inv.args.clone();
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "-q" | "--quiet" => quiet = true,
            "-b" | "--branch" => {
                i += 1;
                branch = args.get(i).cloned();
            }
            "--no-checkout" | "--bare" | "--mirror" | "--depth" | "--recursive" => {
                return unsupported("clone", &args[i]);
            }
            s if s.starts_with('-') => return unsupported("clone", s),
            s => rest.push(s.to_owned()),
        }
        i += 1;
    }
    let Some(src_arg) = rest.first().cloned() else {
        eprintln!("fatal: You must specify a repository to clone.");
        return Err(Error::Exit(129));
    };
    if src_arg.contains("://") || src_arg.contains('@') && src_arg.contains(':') {
        return Err(Error::Unsupported(format!(
            "'git clone {src_arg}' (a network clone: the workspace has no network)"
        )));
    }
    let cwd = std::env::current_dir()?;
    let src = crate::repo::normalize(&cwd.join(&src_arg));
    let (src_git, src_top) = if src.join(".git/HEAD").is_file() {
        (src.join(".git"), src.clone())
    } else if src.join("HEAD").is_file() && src.join("objects").is_dir() {
        (src.clone(), src.clone())
    } else {
        return fatal(format!("repository '{src_arg}' does not exist"));
    };
    let name = rest.get(1).cloned().unwrap_or_else(|| {
        let base = src_top
            .file_name()
            .map(|f| f.to_string_lossy().into_owned())
            .unwrap_or_default();
        base.strip_suffix(".git").map(str::to_owned).unwrap_or(base)
    });
    let dst = crate::repo::normalize(&cwd.join(&name));
    if dst.exists()
        && std::fs::read_dir(&dst)
            .map(|mut d| d.next().is_some())
            .unwrap_or(false)
    {
        return fatal(format!(
            "destination path '{name}' already exists and is not an empty directory."
        ));
    }
    if !quiet {
        eprintln!("Cloning into '{name}'...");
    }
    let git_dir = dst.join(".git");
    for sub in [
        "branches",
        "hooks",
        "info",
        "refs/heads",
        "refs/tags",
        "refs/remotes/origin",
    ] {
        std::fs::create_dir_all(git_dir.join(sub))?;
    }
    copy_dir(&src_git.join("objects"), &git_dir.join("objects"))?;
    let source = Repo::at(src_git.clone(), src_top.clone(), &src_top, &inv.overrides);
    let head_branch = source
        .read_ref_file("HEAD")
        .and_then(|h| h.strip_prefix("ref: refs/heads/").map(str::to_owned));
    let mut repo = Repo::at(git_dir.clone(), dst.clone(), &dst, &inv.overrides);
    for (name, id) in source.refs_under("refs/heads/") {
        repo.write_ref(&format!("refs/remotes/origin/{}", &name[11..]), &id)?;
    }
    for (name, id) in source.refs_under("refs/tags/") {
        repo.write_ref(&name, &id)?;
    }
    let url = src_top.display().to_string();
    std::fs::write(
        git_dir.join("config"),
        "[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n\tlogallrefupdates = true\n",
    )?;
    let mut config = ConfigFile::load(&git_dir.join("config"));
    config.set("remote.origin.url", &url)?;
    config.set("remote.origin.fetch", "+refs/heads/*:refs/remotes/origin/*")?;
    let chosen = branch.clone().or(head_branch.clone());
    let start = chosen
        .as_ref()
        .and_then(|b| source.resolve_ref(&format!("refs/heads/{b}")));
    if let (Some(b), None) = (&branch, start) {
        return fatal(format!("Remote branch {b} not found in upstream origin"));
    }
    if let Some(h) = &head_branch {
        std::fs::write(
            git_dir.join("refs/remotes/origin/HEAD"),
            format!("ref: refs/remotes/origin/{h}\n"),
        )?;
    }
    let b = chosen.unwrap_or_else(|| "master".to_owned());
    std::fs::write(git_dir.join("HEAD"), format!("ref: refs/heads/{b}\n"))?;
    std::fs::write(
        git_dir.join("description"),
        "Unnamed repository; edit this file 'description' to name the repository.\n",
    )?;
    if let Some(id) = start {
        config.set(&format!("branch.{b}.remote"), "origin")?;
        config.set(&format!("branch.{b}.merge"), &format!("refs/heads/{b}"))?;
        repo = Repo::at(git_dir.clone(), dst.clone(), &dst, &inv.overrides);
        repo.write_ref(&format!("refs/heads/{b}"), &id)?;
        let msg = format!("clone: from {url}");
        crate::reflog::append(&repo, &format!("refs/heads/{b}"), None, &id, &msg);
        crate::reflog::append(&repo, "HEAD", None, &id, &msg);
        let tree = repo.tree_of(&id)?;
        let files = objects::flatten(&mut repo.odb, &tree)?;
        if let Some(p) = checkout::invalid_path(&files) {
            // git has copied the repository by then: it stays, with
            // nothing checked out.
            if !quiet {
                eprintln!("done.");
            }
            if crate::meta::lstat(dst.join(p)).is_ok_and(|m| !m.is_dir()) {
                eprintln!(
                    "error: Untracked working tree file '{p}' would be overwritten by merge."
                );
            } else {
                checkout::report_invalid(p);
            }
            eprintln!(
                "fatal: unable to checkout working tree\nwarning: Clone succeeded, but checkout failed.\nYou can inspect what was checked out with 'git status'\nand retry with 'git restore --source=HEAD :/'\n"
            );
            return Err(Error::Exit(128));
        }
        let mut index = Index {
            entries: Default::default(),
        };
        checkout::switch_trees(
            &mut repo,
            &mut index,
            &Default::default(),
            &files,
            true,
            "clone",
        )?;
        index.save(&git_dir)?;
    } else if !quiet {
        eprintln!("warning: You appear to have cloned an empty repository.");
    }
    if !quiet && start.is_some() {
        eprintln!("done.");
    }
    Ok(0)
}
