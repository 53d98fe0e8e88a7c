//! `git rm [--cached] [-r] [-f] [-q] [--] PATHSPEC...`.

use std::io::Write as _;

use crate::Invocation;
use crate::cmd::add::matches;
use crate::cmd::{split_dashdash, unsupported};
use crate::error::{Error, Result, fatal};
use crate::index::Index;
use crate::worktree;

pub fn run(inv: &mut Invocation) -> Result<i32> {
    let (opts, mut specs, _) = split_dashdash(&inv.args);
    let (mut cached, mut recursive, mut force, mut quiet) = (false, false, false, false);
    for a in opts {
        match a.as_str() {
            "--cached" => cached = true,
            "-r" => recursive = true,
            "-f" | "--force" => force = true,
            "-q" | "--quiet" => quiet = true,
            "-rf" | "-fr" => {
                recursive = true;
                force = true;
            }
            s if s.starts_with('-') => return unsupported("rm", s),
            _ => specs.push(a),
        }
    }
    let mut repo = inv.repo()?;
    if specs.is_empty() {
        eprintln!("usage: git rm [<options>] [--] <file>...");
        return Err(Error::Exit(129));
    }
    let mut index = Index::load(&repo.git_dir)?;
    let tracked: Vec<String> = index.files().into_keys().collect();
    let mut chosen = Vec::new();
    for s in &specs {
        let Some(spec) = repo.repo_path(s) else {
            return fatal(format!("{s}: '{s}' is outside repository"));
        };
        let hits: Vec<&String> = tracked.iter().filter(|t| matches(&spec, t)).collect();
        if hits.is_empty() {
            return fatal(format!("pathspec '{s}' did not match any files"));
        }
        if !recursive && hits.iter().any(|h| **h != spec) {
            return fatal(format!("not removing '{s}' recursively without -r"));
        }
        chosen.extend(hits.into_iter().cloned());
    }
    chosen.sort();
    chosen.dedup();
    if !force && !cached {
        let head = crate::status::head_files(&mut repo)?;
        let mut staged_only = Vec::new();
        for p in &chosen {
            let staged = index.get(p).map(|e| (e.mode, e.id));
            let in_head = head.get(p).copied();
            let full = repo.work_tree.join(p);
            let work = match crate::meta::lstat(&full) {
                Ok(meta) => Some(worktree::blob_id(&repo.work_tree, p, &meta)?),
                Err(_) => None,
            };
            if staged != in_head && work == staged.map(|s| s.1) {
                staged_only.push(p.clone());
            }
        }
        if !staged_only.is_empty() {
            let one = if staged_only.len() == 1 {
                "file has"
            } else {
                "files have"
            };
            eprintln!("error: the following {one} changes staged in the index:");
            for m in &staged_only {
                eprintln!("    {m}");
            }
            eprintln!("(use --cached to keep the file, or -f to force removal)");
            return Err(Error::Exit(1));
        }
        let mut modified = Vec::new();
        for p in &chosen {
            let full = repo.work_tree.join(p);
            if let Ok(meta) = crate::meta::lstat(&full) {
                let staged = index.get(p).map(|e| e.id);
                if staged != Some(worktree::blob_id(&repo.work_tree, p, &meta)?) {
                    modified.push(p.clone());
                }
            }
        }
        if !modified.is_empty() {
            let one = if modified.len() == 1 {
                "file has"
            } else {
                "files have"
            };
            eprintln!("error: the following {one} local modifications:");
            for m in &modified {
                eprintln!("    {m}");
            }
            eprintln!("(use --cached to keep the file, or -f to force removal)");
            return Err(Error::Exit(1));
        }
    }
    for p in &chosen {
        index.remove(p);
        if !quiet {
            writeln!(inv.out, "rm '{p}'")?;
        }
        if !cached {
            // Directories left empty go too, as git removes them.
            crate::checkout::remove_file(&repo, p);
        }
    }
    index.save(&repo.git_dir)?;
    Ok(0)
}
