//! `git log [-n N] [--oneline] [--format=...|--pretty=...] [--reverse]
//! [--all] [REV...] [-- PATH...]`, newest first by committer date.

use std::collections::{BTreeSet, BinaryHeap};
use std::io::Write;

use gix_hash::ObjectId;

use crate::Invocation;
use crate::cmd::commit_diff::{self, Kinds};
use crate::cmd::pretty::{self, Shown, Style};
use crate::cmd::{split_dashdash, unsupported};
use crate::error::{Result, fatal};
use crate::ident::parse_sig;
use crate::objects::{self, Commit};
use crate::repo::{Head, Repo};

pub fn run(inv: &mut Invocation) -> Result<i32> {
    run_as(inv, false)
}

/// `git rev-list [--count] REV...`: the same walk, ids only.
pub fn rev_list(inv: &mut Invocation) -> Result<i32> {
    run_as(inv, true)
}

fn run_as(inv: &mut Invocation, rev_list: bool) -> Result<i32> {
    let (opts, paths, _) = split_dashdash(&inv.args);
    let mut style = if rev_list {
        Style::Format("%H".into(), true)
    } else {
        Style::Medium
    };
    let mut max: Option<usize> = None;
    let mut reverse = false;
    let mut all = false;
    let mut revs = Vec::new();
    let mut date_style = "default".to_owned();
    let mut patch = false;
    let mut first_parent = false;
    let mut merges: Option<bool> = None;
    let mut count = false;
    let mut stat = false;
    let mut names: Option<bool> = None;
    let mut skip = 0usize;
    let mut full_ids = false;
    let mut oneline_full = false;
    let mut abbrev_commit = false;
    let mut decorate = false;
    let mut abbrev_len: Option<usize> = None;
    let mut author: Option<String> = None;
    let mut grep: Option<String> = None;
    let mut i = 0;
    while i < opts.len() {
        let a = opts[i].as_str();
        match a {
            "--oneline" => {
                style = Style::Oneline;
                oneline_full = false;
            }
            "--abbrev-commit" => abbrev_commit = true,
            "--first-parent" => first_parent = true,
            "--merges" => merges = Some(true),
            "--no-merges" => merges = Some(false),
            "--count" if rev_list => count = true,
            "-p" | "-u" | "--patch" => patch = true,
            "--stat" => stat = true,
            "--name-only" => names = Some(false),
            "--name-status" => names = Some(true),
            "--reverse" => reverse = true,
            "--all" => all = true,
            "-n" | "--max-count" => {
                i += 1;
                max = opts.get(i).and_then(|v| v.parse().ok());
            }
            "--no-decorate" | "--no-color" => {}
            "--decorate" | "--decorate=short" => decorate = true,
            "--no-abbrev-commit" | "--no-abbrev" => full_ids = true,
            s if s.starts_with("--skip=") => skip = s[7..].parse().unwrap_or(0),
            s if s.starts_with("--abbrev=") => abbrev_len = s[9..].parse().ok(),
            s if s.starts_with("--author=") => author = Some(s[9..].to_owned()),
            s if s.starts_with("--grep=") => grep = Some(s[7..].to_owned()),
            s if s.starts_with("--max-count=") => max = s[12..].parse().ok(),
            s if s.starts_with("-n") && s[2..].parse::<usize>().is_ok() => {
                max = s[2..].parse().ok()
            }
            s if s.starts_with('-') && s[1..].parse::<usize>().is_ok() => max = s[1..].parse().ok(),
            s if s.starts_with("--date=") => date_style = s[7..].to_owned(),
            s if s.starts_with("--format=") || s.starts_with("--pretty=") => {
                let v = &s[s.find('=').unwrap_or(0) + 1..];
                style = match v {
                    "oneline" => {
                        // --pretty=oneline, unlike --oneline, shows whole ids.
                        oneline_full = true;
                        Style::Oneline
                    }
                    "medium" => Style::Medium,
                    "short" => Style::Short,
                    "full" => Style::Full,
                    "fuller" => Style::Fuller,
                    "raw" => Style::Raw,
                    "email" => Style::Email,
                    v if v.starts_with("format:") => Style::Format(v[7..].to_owned(), false),
                    v if v.starts_with("tformat:") => Style::Format(v[8..].to_owned(), true),
                    v if !v.contains('%') => return unsupported("log", s),
                    v => Style::Format(v.to_owned(), true),
                };
            }
            s if s.starts_with('-') => return unsupported("log", s),
            _ => revs.push(a.to_owned()),
        }
        i += 1;
    }
    let kinds = Kinds { stat, patch, names };
    let mut repo = inv.repo()?;
    let mut starts = Vec::new();
    if all {
        for (name, id) in repo.refs_under("refs/") {
            if name == "refs/stash" {
                continue;
            }
            if let Ok(c) = repo.peel_to_commit(&id) {
                starts.push(c);
            }
        }
        if let Some(h) = repo.head_commit()? {
            starts.push(h);
        }
    }
    let mut paths = paths;
    let mut rev_args = Vec::new();
    for r in &revs {
        // `git log docs`: what is no revision but a path is a path.
        if repo.rev_parse(r)?.is_none()
            && !r.contains("..")
            && repo.work_tree.join(&repo.prefix).join(r).exists()
        {
            paths.push(r.clone());
        } else {
            rev_args.push(r.clone());
        }
    }
    let revs = rev_args;
    let mut excluded = Vec::new();
    let mut revs_expanded = Vec::new();
    for r in &revs {
        if let Some((a, b)) = r.split_once("...") {
            // Symmetric difference: reachable from one side only.
            let a = repo.must_rev(if a.is_empty() { "HEAD" } else { a })?;
            let b = repo.must_rev(if b.is_empty() { "HEAD" } else { b })?;
            let (a, b) = (repo.peel_to_commit(&a)?, repo.peel_to_commit(&b)?);
            let from_a: BTreeSet<ObjectId> = walk(&mut repo, &[a], &[], None)?
                .into_iter()
                .map(|(i, _)| i)
                .collect();
            let from_b: BTreeSet<ObjectId> = walk(&mut repo, &[b], &[], None)?
                .into_iter()
                .map(|(i, _)| i)
                .collect();
            for common in from_a.intersection(&from_b) {
                excluded.push(*common);
            }
            revs_expanded.push(a.to_string());
            revs_expanded.push(b.to_string());
        } else if let Some((a, b)) = r.split_once("..") {
            excluded.push(repo.must_rev(if a.is_empty() { "HEAD" } else { a })?);
            revs_expanded.push(if b.is_empty() {
                "HEAD".to_owned()
            } else {
                b.to_owned()
            });
        } else if let Some(x) = r.strip_prefix('^') {
            excluded.push(repo.must_rev(x)?);
        } else {
            revs_expanded.push(r.clone());
        }
    }
    let revs = revs_expanded;
    for r in &revs {
        let Some(id) = repo.rev_parse(r)? else {
            return fatal(format!(
                "ambiguous argument '{r}': unknown revision or path not in the working tree.\nUse '--' to separate paths from revisions, like this:\n'git <command> [<revision>...] -- [<file>...]'"
            ));
        };
        starts.push(repo.peel_to_commit(&id)?);
    }
    if revs.is_empty() && !all && excluded.is_empty() {
        match repo.head()? {
            Head::Branch(b, None) => {
                return fatal(format!(
                    "your current branch '{b}' does not have any commits yet"
                ));
            }
            _ => starts.extend(repo.head_commit()?),
        }
    }
    let paths: Vec<String> = paths.iter().filter_map(|p| repo.repo_path(p)).collect();
    let filtered = author.is_some() || grep.is_some() || merges.is_some();
    let limit = if reverse || !excluded.is_empty() || filtered {
        None
    } else {
        max.map(|m| m + skip)
    };
    let mut commits = walk_with(&mut repo, &starts, &paths, limit, first_parent)?;
    if !excluded.is_empty() {
        let hidden: BTreeSet<ObjectId> = walk(&mut repo, &excluded, &[], None)?
            .into_iter()
            .map(|(id, _)| id)
            .collect();
        commits.retain(|(id, _)| !hidden.contains(id));
        if !reverse && let Some(m) = max {
            commits.truncate(m + skip);
        }
    }
    if filtered {
        commits.retain(|(_, c)| {
            let who = c
                .author
                .rsplit_once('>')
                .map(|(w, _)| format!("{w}>"))
                .unwrap_or_default();
            author.as_ref().is_none_or(|a| who.contains(a.as_str()))
                && grep.as_ref().is_none_or(|g| c.message.contains(g.as_str()))
        });
        if !reverse && let Some(m) = max {
            commits.truncate(m + skip);
        }
    }
    if let Some(want) = merges {
        commits.retain(|(_, c)| (c.parents.len() > 1) == want);
        if !reverse && let Some(m) = max {
            commits.truncate(m + skip);
        }
    }
    commits.drain(..skip.min(commits.len()));
    if count {
        writeln!(inv.out, "{}", commits.len())?;
        return Ok(0);
    }
    if reverse {
        if let Some(m) = max {
            commits.truncate(m);
        }
        commits.reverse();
    }
    let shown = Shown {
        style,
        date_style,
        full_ids,
        oneline_full,
        abbrev_commit,
        abbrev_len,
        decorate,
        with_diff: kinds.any(),
        color: crate::color::on(&repo.config, "diff"),
    };
    let mut first = true;
    for (id, c) in &commits {
        pretty::print(&mut inv.out, &mut repo, id, c, &shown, first)?;
        if kinds.any() && c.parents.len() <= 1 {
            let body =
                commit_diff::output(&mut repo, c.parents.first().copied(), *id, kinds, &paths)?;
            if !body.is_empty() {
                let empty_format = matches!(&shown.style, Style::Format(f, _) if f.is_empty());
                if !matches!(shown.style, Style::Oneline) && !empty_format {
                    write!(inv.out, "{}", commit_diff::separator(kinds))?;
                }
                inv.out.write_all(&body)?;
            }
        }
        first = false;
    }
    Ok(0)
}

#[derive(PartialEq, Eq, PartialOrd, Ord)]
struct Queued(i64, u64, ObjectId);

/// Commits reachable from `starts`, newest committer date first; with
/// `paths`, only those that change one of them against their first parent.
pub fn walk(
    repo: &mut Repo,
    starts: &[ObjectId],
    paths: &[String],
    max: Option<usize>,
) -> Result<Vec<(ObjectId, Commit)>> {
    walk_with(repo, starts, paths, max, false)
}

fn walk_with(
    repo: &mut Repo,
    starts: &[ObjectId],
    paths: &[String],
    max: Option<usize>,
    first_parent: bool,
) -> Result<Vec<(ObjectId, Commit)>> {
    let mut heap = BinaryHeap::new();
    let mut pending = std::collections::HashMap::new();
    let mut seen = BTreeSet::new();
    let mut order = u64::MAX;
    for s in starts {
        if seen.insert(*s) {
            let c = repo.commit(s)?;
            heap.push(Queued(parse_sig(&c.committer).seconds, order, *s));
            pending.insert(*s, c);
            order -= 1;
        }
    }
    let mut out = Vec::new();
    while let Some(Queued(_, _, id)) = heap.pop() {
        if max.is_some_and(|m| out.len() >= m) {
            break;
        }
        let Some(c) = pending.remove(&id) else {
            continue;
        };
        let followed = if first_parent {
            &c.parents[..c.parents.len().min(1)]
        } else {
            &c.parents[..]
        };
        for p in followed {
            if seen.insert(*p) {
                let pc = repo.commit(p)?;
                heap.push(Queued(parse_sig(&pc.committer).seconds, order, *p));
                pending.insert(*p, pc);
                order -= 1;
            }
        }
        if paths.is_empty() || touches(repo, &c, paths)? {
            out.push((id, c));
        }
    }
    Ok(out)
}

fn touches(repo: &mut Repo, c: &Commit, paths: &[String]) -> Result<bool> {
    let now = objects::flatten(&mut repo.odb, &c.tree)?;
    let before = match c.parents.first() {
        Some(p) => {
            let t = repo.tree_of(p)?;
            objects::flatten(&mut repo.odb, &t)?
        }
        None => Default::default(),
    };
    let hit = |m: &std::collections::BTreeMap<String, (u32, ObjectId)>,
               p: &str|
     -> Vec<(String, (u32, ObjectId))> {
        m.iter()
            .filter(|(k, _)| crate::cmd::add::matches(p, k))
            .map(|(k, v)| (k.clone(), *v))
            .collect()
    };
    Ok(paths.iter().any(|p| hit(&now, p) != hit(&before, p)))
}
