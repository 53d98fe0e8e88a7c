//! `git diff` while a merge left unmerged paths: a combined diff (`diff
//! --cc`) of the work tree against ours and theirs by default, or, with
//! `--base`/`--ours`/`--theirs`, `* Unmerged path` and a diff against that
//! stage; the name and stat forms list an unmerged path as git does (once
//! as unmerged, once for its difference from ours).

use std::io::Write;

use gix_hash::ObjectId;

use crate::Invocation;
use crate::cmd::commit::Change;
use crate::cmd::diff::{Output, patch, stat_lines};
use crate::error::{Error, Result};
use crate::index::Index;
use crate::repo::Repo;
use crate::worktree::quote_path;

/// An unmerged path and its stages' blobs (base, ours, theirs).
pub struct Unmerged {
    pub path: String,
    stages: [Option<(u32, ObjectId)>; 3],
}

pub fn unmerged(index: &Index, specs: &[String]) -> Vec<Unmerged> {
    index
        .conflicted()
        .into_iter()
        .filter(|p| specs.is_empty() || specs.iter().any(|s| crate::cmd::add::matches(s, p)))
        .map(|path| {
            let stage = |n: u32| {
                index
                    .entries
                    .get(&(path.clone(), n))
                    .map(|e| (e.mode, e.id))
            };
            Unmerged {
                stages: [stage(1), stage(2), stage(3)],
                path,
            }
        })
        .collect()
}

/// What the options chose: `--cached`, and a stage (1–3) or the default.
pub struct Mode {
    pub cached: bool,
    pub stage: Option<usize>,
    pub context: usize,
    pub exit_code: bool,
}

/// The whole output of a work-tree (or `--cached`) diff with unmerged
/// paths, in path order; `changes` are the other paths'.
pub fn run(
    inv: &mut Invocation,
    repo: &mut Repo,
    changes: Vec<Change>,
    unmerged: &[Unmerged],
    output: Output,
    mode: &Mode,
) -> Result<i32> {
    let is_unmerged = |p: &str| unmerged.iter().any(|u| u.path == p);
    let changes: Vec<Change> = changes
        .into_iter()
        .filter(|c| !is_unmerged(path_of(c)))
        .collect();
    let mut pieces: Vec<(String, Vec<u8>)> = Vec::new();
    for c in &changes {
        pieces.push((path_of(c).to_owned(), normal(repo, c, output, mode)?));
    }
    for u in unmerged {
        pieces.push((u.path.clone(), conflicted(repo, u, output, mode)?));
    }
    // git prints combined diffs as it meets them and the other pairs when
    // it flushes its queue: all of the first, then the rest.
    let combined_first = output == Output::Patch && mode.stage.is_none() && !mode.cached;
    let rank = |p: &str| !(combined_first && is_unmerged(p));
    pieces.sort_by(|a, b| (rank(&a.0), &a.0).cmp(&(rank(&b.0), &b.0)));
    if output == Output::Stat {
        stat(inv, repo, &changes, unmerged, mode)?;
    } else if output != Output::Quiet {
        for (_, bytes) in pieces {
            inv.out.write_all(&bytes)?;
        }
    }
    if mode.exit_code {
        return Err(Error::Exit(1));
    }
    Ok(0)
}

fn path_of(c: &Change) -> &str {
    match c {
        Change::Added(p, ..) | Change::Deleted(p, ..) | Change::Modified(p, ..) => p,
        Change::Renamed(_, t) => t,
    }
}

fn normal(repo: &mut Repo, c: &Change, output: Output, mode: &Mode) -> Result<Vec<u8>> {
    let letter = match c {
        Change::Added(..) => 'A',
        Change::Deleted(..) => 'D',
        Change::Modified(..) => 'M',
        Change::Renamed(..) => 'R',
    };
    let p = quote_path(path_of(c), false);
    Ok(match output {
        Output::NameOnly => format!("{p}\n").into_bytes(),
        Output::NameStatus => format!("{letter}\t{p}\n").into_bytes(),
        _ => patch(repo, c, !mode.cached, mode.context)?,
    })
}

/// The work tree's version of an unmerged path against stage `n`.
fn against_stage(repo: &mut Repo, u: &Unmerged, n: usize) -> Result<Option<Change>> {
    let Some((m, id)) = u.stages[n - 1] else {
        return Ok(None);
    };
    let Ok(meta) = crate::meta::lstat(repo.work_tree.join(&u.path)) else {
        return Ok(Some(Change::Deleted(u.path.clone(), m, id)));
    };
    let now = crate::worktree::blob_id(&repo.work_tree, &u.path, &meta)?;
    let nm = crate::worktree::mode_seen(&meta, m);
    Ok((now != id || nm != m).then(|| Change::Modified(u.path.clone(), m, nm, id, now)))
}

fn conflicted(repo: &mut Repo, u: &Unmerged, output: Output, mode: &Mode) -> Result<Vec<u8>> {
    let p = quote_path(&u.path, false);
    if mode.cached {
        return Ok(if matches!(output, Output::NameOnly | Output::NameStatus) {
            let letter = if output == Output::NameStatus {
                "U\t"
            } else {
                ""
            };
            format!("{letter}{p}\n").into_bytes()
        } else {
            format!("* Unmerged path {p}\n").into_bytes()
        });
    }
    let n = mode.stage.unwrap_or(2);
    let side = against_stage(repo, u, n)?;
    let mut out = Vec::new();
    match output {
        Output::NameOnly | Output::NameStatus => {
            let status = output == Output::NameStatus;
            out.extend(format!("{}{p}\n", if status { "U\t" } else { "" }).into_bytes());
            if side.is_some() {
                out.extend(format!("{}{p}\n", if status { "M\t" } else { "" }).into_bytes());
            }
        }
        _ if mode.stage.is_none() => out.extend(combined(repo, u, mode.context)?),
        _ => {
            out.extend(format!("* Unmerged path {p}\n").into_bytes());
            if let Some(c) = side {
                out.extend(patch(repo, &c, true, mode.context)?);
            }
        }
    }
    Ok(out)
}

/// `diff --cc PATH`: the work tree against ours and theirs.
fn combined(repo: &mut Repo, u: &Unmerged, context: usize) -> Result<Vec<u8>> {
    let mut blob = |s: Option<(u32, ObjectId)>| -> Result<(String, Vec<u8>)> {
        match s {
            Some((_, id)) => Ok((repo.abbrev(&id), repo.odb.must_read(&id)?.data)),
            None => Ok(("0000000".to_owned(), Vec::new())),
        }
    };
    let (a, ours) = blob(u.stages[1])?;
    let (b, theirs) = blob(u.stages[2])?;
    let result = std::fs::read(repo.work_tree.join(&u.path)).unwrap_or_default();
    let p = &u.path;
    let mut out = format!("diff --cc {p}\nindex {a},{b}..0000000\n").into_bytes();
    let hunks = crate::combined::hunks(&ours, &theirs, &result, context);
    if !hunks.is_empty() {
        out.extend(format!("--- a/{p}\n+++ b/{p}\n").into_bytes());
        out.extend(hunks);
    }
    Ok(out)
}

/// `--stat`: git writes ` PATH | Unmerged` with no line end before the
/// path's own line against ours.
fn stat(
    inv: &mut Invocation,
    repo: &mut Repo,
    changes: &[Change],
    unmerged: &[Unmerged],
    mode: &Mode,
) -> Result<()> {
    let mut all: Vec<Change> = changes.to_vec();
    if !mode.cached {
        for u in unmerged {
            if let Some(c) = against_stage(repo, u, mode.stage.unwrap_or(2))? {
                all.push(c);
            }
        }
    }
    all.sort_by(|a, b| path_of(a).cmp(path_of(b)));
    let lines = stat_lines(repo, &all, !mode.cached)?;
    let width = lines
        .iter()
        .map(|l| l.name.chars().count())
        .chain(
            unmerged
                .iter()
                .map(|u| quote_path(&u.path, false).chars().count()),
        )
        .max()
        .unwrap_or(0);
    let table = if lines.is_empty() {
        String::new()
    } else {
        crate::diff::stat(&lines)
    };
    for line in table.split_inclusive('\n') {
        let name = line.split(" | ").next().unwrap_or("").trim();
        if let Some(u) = unmerged.iter().find(|u| quote_path(&u.path, false) == name) {
            write!(
                inv.out,
                " {:<width$} | Unmerged",
                quote_path(&u.path, false)
            )?;
        }
        inv.out.write_all(line.as_bytes())?;
    }
    Ok(())
}
