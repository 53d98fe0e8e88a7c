//! `git ls-files [-s|--stage] [-c] [-o|--others] [--exclude-standard]
//! [-m|--modified] [-d|--deleted] [PATH...]`.

use std::io::Write;

use crate::Invocation;
use crate::cmd::add::matches;
use crate::cmd::{split_dashdash, unsupported};
use crate::error::Result;
use crate::index::Index;
use crate::status::{self, Untracked};

pub fn run(inv: &mut Invocation) -> Result<i32> {
    let (opts, mut paths, _) = split_dashdash(&inv.args);
    let mut full_name = false;
    let mut exclude_standard = false;
    let (mut stage, mut others, mut modified, mut deleted, mut cached) =
        (false, false, false, false, false);
    for a in opts {
        match a.as_str() {
            "-s" | "--stage" => stage = true,
            "-o" | "--others" => others = true,
            "-m" | "--modified" => modified = true,
            "-d" | "--deleted" => deleted = true,
            "-c" | "--cached" => cached = true,
            "--exclude-standard" => exclude_standard = true,
            "--full-name" => full_name = true,
            s if s.starts_with('-') => return unsupported("ls-files", s),
            _ => paths.push(a),
        }
    }
    let mut repo = inv.repo()?;
    if full_name {
        // Paths from the top, as if run there (the listing still covers the cwd).
        repo.display_prefix_off = true;
    }
    let index = Index::load(&repo.git_dir)?;
    let mut specs: Vec<String> = paths.iter().filter_map(|p| repo.repo_path(p)).collect();
    if specs.is_empty() {
        specs.push(repo.prefix.trim_end_matches('/').to_owned());
    }
    let wanted = |p: &str| specs.iter().any(|s| matches(s, p));
    let show_cached = cached || !(others || modified || deleted);
    if show_cached {
        for ((path, st), e) in &index.entries {
            if !wanted(path) {
                continue;
            }
            if stage {
                writeln!(
                    inv.out,
                    "{:06o} {} {st}\t{}",
                    e.mode,
                    e.id,
                    crate::worktree::quote_path(&repo.display_path(path), false)
                )?;
            } else if *st == 0 || !index.entries.contains_key(&(path.clone(), st - 1)) {
                writeln!(
                    inv.out,
                    "{}",
                    crate::worktree::quote_path(&repo.display_path(path), false)
                )?;
            }
        }
    }
    if others || modified || deleted {
        let c = status::compute(
            &mut repo,
            &index,
            if others && exclude_standard {
                Untracked::All
            } else {
                Untracked::No
            },
        )?;
        let untracked = if others && !exclude_standard {
            // Without --exclude-standard, ignored files are others too.
            let mut none = crate::worktree::Ignores::none();
            crate::worktree::walk(&repo.work_tree, &repo.git_dir, &mut none, "")?
                .into_iter()
                .map(|f| f.path)
                .filter(|p| !index.entries.contains_key(&(p.clone(), 0)))
                .collect()
        } else {
            c.untracked.clone()
        };
        for (y, p) in &c.unstaged {
            if wanted(p) && ((modified && (*y == 'M' || *y == 'D')) || (deleted && *y == 'D')) {
                writeln!(
                    inv.out,
                    "{}",
                    crate::worktree::quote_path(&repo.display_path(p), false)
                )?;
            }
        }
        if others {
            for u in &untracked {
                if wanted(u) {
                    writeln!(
                        inv.out,
                        "{}",
                        crate::worktree::quote_path(&repo.display_path(u), false)
                    )?;
                }
            }
        }
    }
    Ok(0)
}
