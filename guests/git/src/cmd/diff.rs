//! `git diff` between the work tree, the index (`--cached`), and commits
//! (`REV`, `A B`, `A..B`), with `-- PATH...`, `--stat`, `--name-only`,
//! `--name-status`, `-U<n>`, `--exit-code` and `--quiet`.

use std::collections::BTreeMap;
use std::io::Write;

use gix_hash::ObjectId;

use crate::Invocation;
use crate::cmd::add::matches;
use crate::cmd::commit::{Change, tree_changes};
use crate::cmd::diff_conflicts;
use crate::cmd::{split_dashdash, unsupported};
use crate::color;
use crate::diff::{self, StatLine};
use crate::error::{Error, Result};
use crate::index::Index;
use crate::objects;
use crate::odb::{self, Kind};
use crate::repo::Repo;
use crate::worktree;

/// Path → (mode, id) with, for the work tree, the content at hand.
pub type Side = BTreeMap<String, (u32, ObjectId)>;

#[derive(PartialEq, Clone, Copy)]
pub enum Output {
    Patch,
    Stat,
    NameOnly,
    NameStatus,
    NumStat,
    ShortStat,
    Quiet,
}

pub fn run(inv: &mut Invocation) -> Result<i32> {
    let (opts, paths, _) = split_dashdash(&inv.args);
    let mut cached = false;
    let mut output = Output::Patch;
    let mut context = 3usize;
    let mut exit_code = false;
    // Unmerged paths: against this stage, or (None) a combined diff.
    let mut stage: Option<usize> = None;
    let mut revs = Vec::new();
    for a in opts {
        match a.as_str() {
            "--cached" | "--staged" => cached = true,
            // Rename detection is on by default (diff.renames); ours finds
            // exact renames with or without -M.
            "-M" | "--find-renames" => {}
            "--stat" => output = Output::Stat,
            "--name-only" => output = Output::NameOnly,
            "--name-status" => output = Output::NameStatus,
            "--numstat" => output = Output::NumStat,
            "--shortstat" => output = Output::ShortStat,
            "--quiet" => {
                output = Output::Quiet;
                exit_code = true;
            }
            "--exit-code" => exit_code = true,
            "--base" | "-1" => stage = Some(1),
            "--ours" | "-2" => stage = Some(2),
            "--theirs" | "-3" => stage = Some(3),
            "--cc" => stage = None,
            "--no-color" | "--no-ext-diff" => {}
            s if s.starts_with("-U") && s[2..].parse::<usize>().is_ok() => {
                context = s[2..].parse().unwrap_or(3)
            }
            s if s.starts_with("--unified=") => context = s[10..].parse().unwrap_or(3),
            s if s.starts_with('-') => return unsupported("diff", s),
            _ => revs.push(a),
        }
    }
    let mut repo = match inv.repo() {
        Ok(r) => r,
        // Outside a repository git diff means `--no-index`, which wants
        // two paths.
        Err(Error::Fatal(m)) if m.starts_with("not a git repository") => {
            if revs.len() + paths.len() == 2 {
                return unsupported("diff", "--no-index");
            }
            eprintln!("usage: git diff --no-index [<options>] <path> <path>");
            return Err(Error::Exit(129));
        }
        Err(e) => return Err(e),
    };
    // Arguments that are not revisions are paths (as git guesses them).
    let mut paths = paths;
    let mut rev_ids = Vec::new();
    for r in revs {
        if let Some((a, b)) = r.split_once("..") {
            rev_ids.push(repo.must_rev(if a.is_empty() { "HEAD" } else { a })?);
            rev_ids.push(repo.must_rev(if b.is_empty() { "HEAD" } else { b })?);
        } else if let Some(id) = repo.rev_parse(&r)? {
            rev_ids.push(id);
        } else if repo.work_tree.join(&repo.prefix).join(&r).exists() {
            paths.push(r);
        } else {
            repo.must_rev(&r)?;
        }
    }
    let specs: Vec<String> = paths.iter().filter_map(|p| repo.repo_path(p)).collect();
    let index = Index::load(&repo.git_dir)?;
    let (old, new, new_is_worktree) = match (rev_ids.as_slice(), cached) {
        ([], false) => (index.files(), worktree_side(&repo, &index)?, true),
        ([], true) => (head_side(&mut repo, None)?, index.files(), false),
        ([r], true) => (head_side(&mut repo, Some(*r))?, index.files(), false),
        ([r], false) => (
            head_side(&mut repo, Some(*r))?,
            worktree_side(&repo, &index)?,
            true,
        ),
        ([a, b], _) => (
            head_side(&mut repo, Some(*a))?,
            head_side(&mut repo, Some(*b))?,
            false,
        ),
        _ => return unsupported("diff", "with more than two revisions"),
    };
    let (old, new) = (only(old, &specs), only(new, &specs));
    let mut changes = tree_changes(&old, &new);
    if new_is_worktree {
        // The work tree shows deletions and edits; a rename is a delete
        // and an untracked file there.
        changes = split_renames(changes, &old, &new);
    }
    let unmerged = if rev_ids.is_empty() {
        diff_conflicts::unmerged(&index, &specs)
    } else {
        Vec::new()
    };
    if !unmerged.is_empty() {
        let mode = diff_conflicts::Mode {
            cached,
            stage,
            context,
            exit_code,
        };
        return diff_conflicts::run(inv, &mut repo, changes, &unmerged, output, &mode);
    }
    let differs = !changes.is_empty();
    // git diff names paths from the top of the work tree.
    let show = |_repo: &Repo, p: &str| crate::worktree::quote_path(p, false);
    match output {
        Output::Quiet => {}
        Output::NameOnly | Output::NameStatus => {
            for c in &changes {
                let (letter, path) = match c {
                    Change::Added(p, ..) => ('A', p.clone()),
                    Change::Deleted(p, ..) => ('D', p.clone()),
                    Change::Modified(p, ..) => ('M', p.clone()),
                    Change::Renamed(f, t) => {
                        if output == Output::NameStatus {
                            writeln!(inv.out, "R100\t{}\t{}", show(&repo, f), show(&repo, t))?;
                        } else {
                            writeln!(inv.out, "{}", show(&repo, t))?;
                        }
                        continue;
                    }
                };
                if output == Output::NameStatus {
                    writeln!(inv.out, "{letter}\t{}", show(&repo, &path))?;
                } else {
                    writeln!(inv.out, "{}", show(&repo, &path))?;
                }
            }
        }
        Output::Stat | Output::NumStat | Output::ShortStat => {
            let lines = stat_lines(&mut repo, &changes, new_is_worktree)?;
            if output == Output::ShortStat {
                if !lines.is_empty() {
                    inv.out.write_all(diff::summary(&lines).as_bytes())?;
                }
            } else if output == Output::NumStat {
                for l in &lines {
                    match l.binary {
                        Some(_) => writeln!(inv.out, "-\t-\t{}", l.name)?,
                        None => writeln!(inv.out, "{}\t{}\t{}", l.ins, l.del, l.name)?,
                    }
                }
            } else if !lines.is_empty() {
                let table = diff::stat(&lines);
                let table = if color::on(&repo.config, "diff") {
                    color::stat(&table)
                } else {
                    table
                };
                inv.out.write_all(table.as_bytes())?;
            }
        }
        Output::Patch => {
            let colored = color::on(&repo.config, "diff");
            for c in &changes {
                let text = patch(&mut repo, c, new_is_worktree, context)?;
                if colored {
                    inv.out.write_all(&color::patch(&text))?;
                } else {
                    inv.out.write_all(&text)?;
                }
            }
        }
    }
    if exit_code && differs {
        return Err(Error::Exit(1));
    }
    Ok(0)
}

/// The patch (or `--stat`) between two commits' trees, as `git show` and
/// `git log -p` print it.
pub fn commits_patch(
    repo: &mut Repo,
    old: Option<ObjectId>,
    new: ObjectId,
    stat: bool,
    specs: &[String],
) -> Result<Vec<u8>> {
    let a = match old {
        Some(o) => head_side(repo, Some(o))?,
        None => BTreeMap::new(),
    };
    let b = head_side(repo, Some(new))?;
    let (a, b) = (only(a, specs), only(b, specs));
    if stat {
        return stat_table(repo, &a, &b);
    }
    let changes = tree_changes(&a, &b);
    let mut out = Vec::new();
    for c in &changes {
        out.extend(patch(repo, c, false, 3)?);
    }
    Ok(out)
}

/// The entries of `side` under one of `specs` (all of them for none).
pub fn only(side: Side, specs: &[String]) -> Side {
    if specs.is_empty() {
        return side;
    }
    side.into_iter()
        .filter(|(p, _)| specs.iter().any(|s| matches(s, p)))
        .collect()
}

/// The `--stat` table between two trees (its summary line included).
pub fn commits_patch_trees(repo: &mut Repo, from: &ObjectId, to: &ObjectId) -> Result<Vec<u8>> {
    let a = objects::flatten(&mut repo.odb, from)?;
    let b = objects::flatten(&mut repo.odb, to)?;
    stat_table(repo, &a, &b)
}

fn stat_table(repo: &mut Repo, a: &Side, b: &Side) -> Result<Vec<u8>> {
    let lines = stat_lines(repo, &tree_changes(a, b), false)?;
    Ok(if lines.is_empty() {
        Vec::new()
    } else {
        diff::stat(&lines).into_bytes()
    })
}

/// The new side of a change: the work tree's file, or the blob.
fn new_content(repo: &mut Repo, path: &str, id: &ObjectId, worktree: bool) -> Result<Vec<u8>> {
    if worktree {
        let meta = crate::meta::lstat(repo.work_tree.join(path))?;
        worktree::content(&repo.work_tree, path, &meta)
    } else {
        Ok(repo.odb.must_read(id)?.data)
    }
}

/// One `--stat` line per change (binary files by their sizes).
pub fn stat_lines(
    repo: &mut Repo,
    changes: &[Change],
    worktree_new: bool,
) -> Result<Vec<StatLine>> {
    let mut lines = Vec::new();
    for c in changes {
        let (name, a, b) = match c {
            Change::Added(p, _, id) => (
                p.clone(),
                Vec::new(),
                new_content(repo, p, id, worktree_new)?,
            ),
            Change::Deleted(p, _, id) => (p.clone(), repo.odb.must_read(id)?.data, Vec::new()),
            Change::Modified(p, _, _, oid, nid) => (
                p.clone(),
                repo.odb.must_read(oid)?.data,
                new_content(repo, p, nid, worktree_new)?,
            ),
            Change::Renamed(f, t) => (
                crate::cmd::commit::rename_label(f, t),
                Vec::new(),
                Vec::new(),
            ),
        };
        let name = if matches!(c, Change::Renamed(..)) {
            name
        } else {
            crate::worktree::quote_path(&name, false)
        };
        let line = if diff::is_binary(&a) || diff::is_binary(&b) {
            StatLine {
                name,
                ins: 0,
                del: 0,
                binary: Some((a.len(), b.len())),
            }
        } else {
            let (ins, del) = diff::counts(&a, &b);
            StatLine {
                name,
                ins,
                del,
                binary: None,
            }
        };
        lines.push(line);
    }
    Ok(lines)
}

fn head_side(repo: &mut Repo, rev: Option<ObjectId>) -> Result<Side> {
    let id = match rev {
        Some(r) => Some(r),
        None => repo.head_commit()?,
    };
    match id {
        None => Ok(BTreeMap::new()),
        Some(c) => {
            let tree = repo.tree_of(&c)?;
            objects::flatten(&mut repo.odb, &tree)
        }
    }
}

/// The tracked files as they are in the work tree (a missing one is absent).
fn worktree_side(repo: &Repo, index: &Index) -> Result<Side> {
    let mut out = BTreeMap::new();
    // An unmerged path's work-tree file (`diff HEAD` compares it).
    for p in index.conflicted() {
        if let Ok(meta) = crate::meta::lstat(repo.work_tree.join(&p))
            && !meta.is_dir()
        {
            let id = worktree::blob_id(&repo.work_tree, &p, &meta)?;
            out.insert(p, (worktree::mode_of(&meta), id));
        }
    }
    for (path, e) in index.entries.iter().filter(|((_, s), _)| *s == 0) {
        let full = repo.work_tree.join(&path.0);
        let Ok(meta) = crate::meta::lstat(&full) else {
            continue;
        };
        if meta.is_dir() {
            continue;
        }
        let stat = crate::index::stat_of(&meta);
        let id = if stat.size == e.stat.size && stat.mtime == e.stat.mtime && e.stat.mtime.secs != 0
        {
            e.id
        } else {
            worktree::blob_id(&repo.work_tree, &path.0, &meta)?
        };
        out.insert(path.0.clone(), (worktree::mode_seen(&meta, e.mode), id));
    }
    Ok(out)
}

fn split_renames(changes: Vec<Change>, old: &Side, new: &Side) -> Vec<Change> {
    let mut out = Vec::new();
    for c in changes {
        match c {
            Change::Renamed(f, t) => {
                out.push(Change::Deleted(f.clone(), old[&f].0, old[&f].1));
                out.push(Change::Added(t.clone(), new[&t].0, new[&t].1));
            }
            c => out.push(c),
        }
    }
    out
}

const ZERO: &str = "0000000";

pub fn patch(repo: &mut Repo, c: &Change, worktree_new: bool, context: usize) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    let short = |repo: &mut Repo, id: &ObjectId| repo.abbrev(id);
    match c {
        Change::Renamed(f, t) => {
            writeln!(
                out,
                "diff --git a/{f} b/{t}\nsimilarity index 100%\nrename from {f}\nrename to {t}"
            )?;
        }
        Change::Added(p, m, id) => {
            let data = new_content(repo, p, id, worktree_new)?;
            let hex = odb::hash(Kind::Blob, &data);
            let a = short_id(repo, &hex, worktree_new);
            writeln!(
                out,
                "diff --git a/{p} b/{p}\nnew file mode {m:06o}\nindex {ZERO}..{a}"
            )?;
            body(
                &mut out,
                "/dev/null",
                &format!("b/{p}"),
                b"",
                &data,
                context,
            )?;
        }
        Change::Deleted(p, m, id) => {
            let data = repo.odb.must_read(id)?.data;
            let a = short(repo, id);
            writeln!(
                out,
                "diff --git a/{p} b/{p}\ndeleted file mode {m:06o}\nindex {a}..{ZERO}"
            )?;
            body(
                &mut out,
                &format!("a/{p}"),
                "/dev/null",
                &data,
                b"",
                context,
            )?;
        }
        Change::Modified(p, om, nm, oid, nid) => {
            let old = repo.odb.must_read(oid)?.data;
            let new = new_content(repo, p, nid, worktree_new)?;
            let a = short(repo, oid);
            let b = short_id(repo, nid, worktree_new);
            writeln!(out, "diff --git a/{p} b/{p}")?;
            if om != nm {
                writeln!(out, "old mode {om:06o}\nnew mode {nm:06o}")?;
                // A mode change alone has no index line.
                if oid != nid {
                    writeln!(out, "index {a}..{b}")?;
                }
            } else {
                writeln!(out, "index {a}..{b} {om:06o}")?;
            }
            if old != new {
                body(
                    &mut out,
                    &format!("a/{p}"),
                    &format!("b/{p}"),
                    &old,
                    &new,
                    context,
                )?;
            }
        }
    }
    Ok(out)
}

/// A blob id in an `index` line: the work tree's may not be in the
/// database, so it is cut at 7 without looking.
fn short_id(repo: &mut Repo, id: &ObjectId, worktree: bool) -> String {
    if worktree {
        id.to_string()[..7].to_owned()
    } else {
        repo.abbrev(id)
    }
}

fn body(out: &mut Vec<u8>, a: &str, b: &str, old: &[u8], new: &[u8], context: usize) -> Result<()> {
    if old.is_empty() && new.is_empty() {
        return Ok(());
    }
    if diff::is_binary(old) || diff::is_binary(new) {
        writeln!(out, "Binary files {a} and {b} differ")?;
        return Ok(());
    }
    writeln!(out, "--- {a}\n+++ {b}")?;
    out.extend_from_slice(&diff::hunks(old, new, context));
    Ok(())
}
