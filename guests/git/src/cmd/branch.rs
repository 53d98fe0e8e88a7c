//! `git branch` (list, `-v`, `--show-current`), `git branch NAME [START]`,
//! `-d`/`-D NAME`, `-m [OLD] NEW`.

use std::io::Write;

use crate::Invocation;
use crate::cmd::pretty::subject;
use crate::cmd::unsupported;
use crate::error::{Error, Result, fatal};
use crate::repo::Head;

fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with('-')
        && !name.starts_with('/')
        && !name.ends_with('/')
        && !name.ends_with(".lock")
        && !name.contains("..")
        && !name.contains("//")
        && !name.contains(['~', '^', ':', ' ', '?', '*', '[', '\\'])
}

pub fn run(inv: &mut Invocation) -> Result<i32> {
    let mut verbose = false;
    let mut very_verbose = false;
    let mut delete: Option<bool> = None;
    let mut rename = false;
    let mut show_current = false;
    let mut force_rename = false;
    let mut list = false;
    let mut filter: Option<(&str, Option<String>)> = None;
    let mut show_local = true;
    let mut show_remote = false;
    let mut names = Vec::new();
    for a in inv.args.clone() {
        match a.as_str() {
            "-v" | "--verbose" => verbose = true,
            "-vv" => {
                verbose = true;
                very_verbose = true;
            }
            "-d" | "--delete" => delete = Some(false),
            "-D" => delete = Some(true),
            "-m" | "--move" => rename = true,
            "-M" => {
                rename = true;
                force_rename = true;
            }
            "--show-current" => show_current = true,
            "--list" | "-l" => list = true,
            "--contains" => filter = Some(("contains", None)),
            "--merged" => filter = Some(("merged", None)),
            "--no-merged" => filter = Some(("no-merged", None)),
            "-a" | "--all" => {
                show_local = true;
                show_remote = true;
            }
            "-r" | "--remotes" => {
                show_local = false;
                show_remote = true;
            }
            "--no-color" => {}
            s if s.starts_with('-') => return unsupported("branch", s),
            _ => match &mut filter {
                Some((_, arg @ None)) => *arg = Some(a),
                _ => names.push(a),
            },
        }
    }
    let mut repo = inv.repo()?;
    let head = repo.head()?;
    let current = match &head {
        Head::Branch(b, _) => Some(b.clone()),
        Head::Detached(_) => None,
    };
    if show_current {
        if let Some(b) = &current {
            writeln!(inv.out, "{b}")?;
        }
        return Ok(0);
    }
    if let Some(force) = delete {
        let mut code = 0;
        for n in &names {
            let refname = format!("refs/heads/{n}");
            let Some(id) = repo.resolve_ref(&refname) else {
                eprintln!("error: branch '{n}' not found.");
                code = 1;
                continue;
            };
            if current.as_deref() == Some(n.as_str()) {
                eprintln!(
                    "error: Cannot delete branch '{n}' checked out at '{}'",
                    repo.work_tree.display()
                );
                code = 1;
                continue;
            }
            if !force {
                let head_id = repo.head_commit()?;
                let merged = match head_id {
                    Some(h) => crate::cmd::log::walk(&mut repo, &[h], &[], None)?
                        .iter()
                        .any(|(c, _)| *c == id),
                    None => false,
                };
                if !merged {
                    eprintln!(
                        "error: The branch '{n}' is not fully merged.\nIf you are sure you want to delete it, run 'git branch -D {n}'."
                    );
                    code = 1;
                    continue;
                }
            }
            delete_ref(&repo, &refname)?;
            let a = repo.abbrev(&id);
            writeln!(inv.out, "Deleted branch {n} (was {a}).")?;
        }
        return if code == 0 {
            Ok(0)
        } else {
            Err(Error::Exit(code))
        };
    }
    if rename {
        let (old, new) = match names.as_slice() {
            [new] => match &current {
                Some(c) => (c.clone(), new.clone()),
                None => return fatal("cannot rename the current branch while not on any."),
            },
            [old, new] => (old.clone(), new.clone()),
            _ => return unsupported("branch", "-m"),
        };
        if !valid_name(&new) {
            return fatal(format!("'{new}' is not a valid branch name"));
        }
        if repo.resolve_ref(&format!("refs/heads/{new}")).is_some() && new != old && !force_rename {
            return fatal(format!("A branch named '{new}' already exists."));
        }
        let id = repo.resolve_ref(&format!("refs/heads/{old}"));
        match id {
            Some(id) => {
                delete_ref(&repo, &format!("refs/heads/{old}"))?;
                repo.write_ref(&format!("refs/heads/{new}"), &id)?;
            }
            None if current.as_deref() == Some(old.as_str()) => {}
            None => return fatal(format!("no branch named '{old}'")),
        }
        if current.as_deref() == Some(old.as_str()) {
            std::fs::write(
                repo.git_dir.join("HEAD"),
                format!("ref: refs/heads/{new}\n"),
            )?;
        }
        return Ok(0);
    }
    let patterns = if list {
        std::mem::take(&mut names)
    } else {
        Vec::new()
    };
    match names.as_slice() {
        [] => {
            let filter_id = match &filter {
                Some((_, Some(r))) => Some(repo.must_rev(r)?),
                Some((_, None)) => repo.head_commit()?,
                None => None,
            };
            let mut keep = std::collections::BTreeSet::new();
            if let (Some((kind, _)), Some(target)) = (&filter, filter_id) {
                for (full, tip) in repo.branches() {
                    let tip_history: Vec<_> = crate::cmd::log::walk(&mut repo, &[tip], &[], None)?
                        .into_iter()
                        .map(|(c, _)| c)
                        .collect();
                    let target_history: Vec<_> =
                        crate::cmd::log::walk(&mut repo, &[target], &[], None)?
                            .into_iter()
                            .map(|(c, _)| c)
                            .collect();
                    let hit = match *kind {
                        "contains" => tip_history.contains(&target),
                        "merged" => target_history.contains(&tip),
                        _ => !target_history.contains(&tip),
                    };
                    if hit {
                        keep.insert(full);
                    }
                }
            }
            let branches: Vec<_> = repo
                .branches()
                .into_iter()
                .filter(|(full, _)| filter.is_none() || keep.contains(full))
                .filter(|(full, _)| {
                    patterns.is_empty()
                        || patterns.iter().any(|p| {
                            gix_glob::wildmatch(
                                p.as_str().into(),
                                full[11..].into(),
                                gix_glob::wildmatch::Mode::empty(),
                            )
                        })
                })
                .collect();
            let width = branches
                .iter()
                .map(|(n, _)| n.len() - 11)
                .max()
                .unwrap_or(0);
            if current.is_none()
                && let Head::Detached(id) = &head
            {
                let a = repo.abbrev(id);
                let label = format!("({})", crate::reflog::detached_label(&mut repo, id));
                if verbose {
                    let c = repo.commit(id)?;
                    writeln!(inv.out, "* {label} {a} {}", subject(&c.message))?;
                } else {
                    writeln!(inv.out, "* {label}")?;
                }
            }
            for (full, id) in branches.into_iter().filter(|_| show_local) {
                let name = &full[11..];
                let mark = if current.as_deref() == Some(name) {
                    '*'
                } else {
                    ' '
                };
                // git paints the padded name: green when current, else the
                // plain colour (nothing), reset either way.
                let colored = crate::color::on(&repo.config, "branch");
                let paint = |text: String| match (colored, mark) {
                    (false, _) => text,
                    (true, '*') => crate::color::paint(crate::color::GREEN, &text),
                    (true, _) => crate::color::paint("", &text),
                };
                if verbose {
                    let c = repo.commit(&id)?;
                    let a = repo.abbrev(&id);
                    let track = match crate::status::upstream(&mut repo, name)? {
                        None => String::new(),
                        Some((up, counts)) => {
                            let state = match counts {
                                None => "gone".to_owned(),
                                Some((0, 0)) => String::new(),
                                Some((a, 0)) => format!("ahead {a}"),
                                Some((0, b)) => format!("behind {b}"),
                                Some((a, b)) => format!("ahead {a}, behind {b}"),
                            };
                            match (very_verbose, state.is_empty()) {
                                (true, true) => format!("[{up}] "),
                                (true, false) => format!("[{up}: {state}] "),
                                (false, true) => String::new(),
                                (false, false) => format!("[{state}] "),
                            }
                        }
                    };
                    let shown = paint(format!("{name:<width$}"));
                    writeln!(inv.out, "{mark} {shown} {a} {track}{}", subject(&c.message))?;
                } else {
                    writeln!(inv.out, "{mark} {}", paint(name.to_owned()))?;
                }
            }
            if show_remote {
                for (full, _) in repo.refs_under("refs/remotes/") {
                    let short = &full[13..];
                    let shown = if show_local {
                        format!("remotes/{short}")
                    } else {
                        short.to_owned()
                    };
                    let target = repo
                        .read_ref_file(&full)
                        .and_then(|c| c.strip_prefix("ref: refs/remotes/").map(str::to_owned));
                    match target {
                        Some(t) => writeln!(inv.out, "  {shown} -> {t}")?,
                        None => writeln!(inv.out, "  {shown}")?,
                    }
                }
            }
            Ok(0)
        }
        [name] | [name, _] => {
            if !valid_name(name) {
                return fatal(format!("'{name}' is not a valid branch name"));
            }
            if repo.resolve_ref(&format!("refs/heads/{name}")).is_some() {
                return fatal(format!("a branch named '{name}' already exists"));
            }
            let start = names.get(1).cloned().unwrap_or_else(|| "HEAD".to_owned());
            let Some(id) = repo.rev_parse(&start)? else {
                if start == "HEAD" {
                    return fatal(format!(
                        "not a valid object name: '{}'",
                        current.unwrap_or_default()
                    ));
                }
                return fatal(format!("not a valid object name: '{start}'"));
            };
            let id = repo.peel_to_commit(&id)?;
            repo.write_ref(&format!("refs/heads/{name}"), &id)?;
            Ok(0)
        }
        _ => unsupported("branch", &names.join(" ")),
    }
}

/// Removes a branch, loose and from `packed-refs`.
pub fn delete_ref(repo: &crate::repo::Repo, name: &str) -> Result<()> {
    let _ = std::fs::remove_file(repo.git_dir.join(name));
    let packed = repo.git_dir.join("packed-refs");
    if let Ok(text) = std::fs::read_to_string(&packed) {
        let mut out = String::new();
        let mut skip_peeled = false;
        for line in text.lines() {
            if line.starts_with('^') && skip_peeled {
                continue;
            }
            skip_peeled = line.ends_with(&format!(" {name}"));
            if !skip_peeled {
                out.push_str(line);
                out.push('\n');
            }
        }
        std::fs::write(&packed, out)?;
    }
    Ok(())
}
