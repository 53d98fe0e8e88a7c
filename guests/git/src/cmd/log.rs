//! `git log [-n N] [--oneline] [--format=...|--pretty=...] [--reverse]
//! [--all] [REV...] [-- PATH...]`, newest first by committer date.

use std::collections::{BTreeSet, BinaryHeap};
use std::io::Write;

use gix_hash::ObjectId;

use crate::Invocation;
use crate::cmd::{split_dashdash, unsupported};
use crate::error::{Result, fatal};
use crate::ident::{format_date, parse_sig};
use crate::objects::{self, Commit};
use crate::repo::{Head, Repo};

/// A commit's subject: its first paragraph on one line, as `%s`.
pub fn subject(message: &str) -> String {
    let mut out = Vec::new();
    for line in message.lines() {
        if line.trim().is_empty() {
            if out.is_empty() {
                continue;
            }
            break;
        }
        out.push(line.trim());
    }
    out.join(" ")
}

/// What follows the subject paragraph, as `%b`.
fn body(message: &str) -> String {
    let mut lines = message.lines().skip_while(|l| l.trim().is_empty());
    for l in lines.by_ref() {
        if l.trim().is_empty() {
            break;
        }
    }
    let rest: Vec<&str> = lines.skip_while(|l| l.trim().is_empty()).collect();
    if rest.is_empty() {
        String::new()
    } else {
        rest.join("\n") + "\n"
    }
}

enum Style {
    Medium,
    Short,
    Full,
    Fuller,
    Raw,
    Oneline,
    Format(String, bool),
}

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
    let mut skip = 0usize;
    let mut full_ids = false;
    let mut decorate = false;
    let mut abbrev_len: Option<usize> = None;
    let mut author: Option<String> = None;
    let mut grep: Option<String> = None;
    let mut i = 0;
    while i < opts.len() {
        let a = opts[i].as_str();
        match a {
            "--oneline" => style = Style::Oneline,
            "--first-parent" => first_parent = true,
            "--merges" => merges = Some(true),
            "--no-merges" => merges = Some(false),
            "--count" if rev_list => count = true,
            "-p" | "-u" | "--patch" => patch = true,
            "--stat" => stat = true,
            "--reverse" => reverse = true,
            "--all" => all = true,
            "-n" | "--max-count" => {
                i += 1;
                max = opts.get(i).and_then(|v| v.parse().ok());
            }
            "--no-decorate" | "--no-color" | "--abbrev-commit" => {}
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
                    "oneline" => Style::Oneline,
                    "medium" => Style::Medium,
                    "short" => Style::Short,
                    "full" => Style::Full,
                    "fuller" => Style::Fuller,
                    "raw" => Style::Raw,
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
    let mut first = true;
    for (id, c) in &commits {
        match &style {
            Style::Oneline => {
                let a = match (full_ids, abbrev_len) {
                    (true, _) => id.to_string(),
                    (false, Some(n)) => {
                        let short = repo.abbrev(id);
                        if n > short.len() {
                            id.to_string()[..n.min(40)].to_owned()
                        } else {
                            short
                        }
                    }
                    (false, None) => repo.abbrev(id),
                };
                let d = if decorate {
                    decoration(&repo, id, true)
                } else {
                    String::new()
                };
                writeln!(inv.out, "{a}{d} {}", subject(&c.message))?;
            }
            Style::Raw => {
                if !first {
                    writeln!(inv.out)?;
                }
                writeln!(inv.out, "commit {id}\ntree {}", c.tree)?;
                for p in &c.parents {
                    writeln!(inv.out, "parent {p}")?;
                }
                writeln!(inv.out, "author {}\ncommitter {}\n", c.author, c.committer)?;
                for line in c.message.trim_end_matches('\n').lines() {
                    writeln!(inv.out, "    {line}")?;
                }
            }
            Style::Short | Style::Full | Style::Fuller => {
                if !first {
                    writeln!(inv.out)?;
                }
                writeln!(inv.out, "commit {id}")?;
                if c.parents.len() > 1 {
                    let ps: Vec<String> = c.parents.iter().map(|p| repo.abbrev(p)).collect();
                    writeln!(inv.out, "Merge: {}", ps.join(" "))?;
                }
                let a = parse_sig(&c.author);
                let m = parse_sig(&c.committer);
                match style {
                    Style::Short => writeln!(inv.out, "Author: {} <{}>", a.name, a.email)?,
                    Style::Full => {
                        writeln!(inv.out, "Author: {} <{}>", a.name, a.email)?;
                        writeln!(inv.out, "Commit: {} <{}>", m.name, m.email)?;
                    }
                    _ => {
                        writeln!(inv.out, "Author:     {} <{}>", a.name, a.email)?;
                        writeln!(
                            inv.out,
                            "AuthorDate: {}",
                            format_date(a.seconds, a.offset, &date_style)
                        )?;
                        writeln!(inv.out, "Commit:     {} <{}>", m.name, m.email)?;
                        writeln!(
                            inv.out,
                            "CommitDate: {}",
                            format_date(m.seconds, m.offset, &date_style)
                        )?;
                    }
                }
                writeln!(inv.out)?;
                let text = if matches!(style, Style::Short) {
                    subject(&c.message) + "\n"
                } else {
                    c.message.clone()
                };
                for line in text.trim_end_matches('\n').lines() {
                    writeln!(inv.out, "    {line}")?;
                }
            }
            Style::Medium => {
                if !first {
                    writeln!(inv.out)?;
                }
                let d = if decorate {
                    decoration(&repo, id, true)
                } else {
                    String::new()
                };
                writeln!(inv.out, "commit {id}{d}")?;
                if c.parents.len() > 1 {
                    let ps: Vec<String> = c.parents.iter().map(|p| repo.abbrev(p)).collect();
                    writeln!(inv.out, "Merge: {}", ps.join(" "))?;
                }
                let a = parse_sig(&c.author);
                writeln!(inv.out, "Author: {} <{}>", a.name, a.email)?;
                writeln!(
                    inv.out,
                    "Date:   {}",
                    format_date(a.seconds, a.offset, &date_style)
                )?;
                writeln!(inv.out)?;
                for line in c.message.trim_end_matches('\n').lines() {
                    writeln!(inv.out, "    {line}")?;
                }
            }
            Style::Format(f, terminated) if patch || stat => {
                let text = format_commit(&mut repo, id, c, f, &date_style);
                writeln!(inv.out, "{text}")?;
            }
            Style::Format(f, terminated) => {
                let text = format_commit(&mut repo, id, c, f, &date_style);
                if *terminated {
                    writeln!(inv.out, "{text}")?;
                } else {
                    if !first {
                        writeln!(inv.out)?;
                    }
                    write!(inv.out, "{text}")?;
                }
            }
        }
        if (patch || stat) && c.parents.len() <= 1 {
            let body =
                crate::cmd::diff::commits_patch(&mut repo, c.parents.first().copied(), *id, stat)?;
            if !body.is_empty() {
                if !matches!(style, Style::Oneline) {
                    writeln!(inv.out)?;
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

/// `--format` placeholders.
pub fn format_commit(
    repo: &mut Repo,
    id: &ObjectId,
    c: &Commit,
    f: &str,
    date_style: &str,
) -> String {
    let a = parse_sig(&c.author);
    let m = parse_sig(&c.committer);
    let mut out = String::new();
    let mut chars = f.chars().peekable();
    while let Some(ch) = chars.next() {
        if ch != '%' {
            out.push(ch);
            continue;
        }
        let mut code = String::new();
        if let Some(&n) = chars.peek() {
            code.push(n);
            chars.next();
            if n == 'x' {
                // `%xNN`: the two hex digits follow.
            } else if matches!(n, 'a' | 'c')
                && let Some(&n2) = chars.peek()
            {
                code.push(n2);
                chars.next();
            }
        }
        let s = match code.as_str() {
            "H" => id.to_string(),
            "h" => repo.abbrev(id),
            "T" => c.tree.to_string(),
            "t" => repo.abbrev(&c.tree),
            "P" => c
                .parents
                .iter()
                .map(|p| p.to_string())
                .collect::<Vec<_>>()
                .join(" "),
            "p" => c
                .parents
                .iter()
                .map(|p| repo.abbrev(p))
                .collect::<Vec<_>>()
                .join(" "),
            "an" => a.name.clone(),
            "ae" => a.email.clone(),
            "ad" => format_date(a.seconds, a.offset, date_style),
            "aD" => format_date(a.seconds, a.offset, "rfc"),
            "ai" => format_date(a.seconds, a.offset, "iso"),
            "aI" => format_date(a.seconds, a.offset, "iso-strict"),
            "at" => a.seconds.to_string(),
            "as" => format_date(a.seconds, a.offset, "short"),
            "cn" => m.name.clone(),
            "ce" => m.email.clone(),
            "cd" => format_date(m.seconds, m.offset, date_style),
            "cD" => format_date(m.seconds, m.offset, "rfc"),
            "ci" => format_date(m.seconds, m.offset, "iso"),
            "cI" => format_date(m.seconds, m.offset, "iso-strict"),
            "ct" => m.seconds.to_string(),
            "cs" => format_date(m.seconds, m.offset, "short"),
            "s" => subject(&c.message),
            "b" => body(&c.message),
            "B" => c.message.clone(),
            "n" => "\n".to_owned(),
            "e" => String::new(),
            "d" => decoration(repo, id, true),
            "D" => decoration(repo, id, false),
            "x" => {
                let hex: String = chars.by_ref().take(2).collect();
                match u8::from_str_radix(&hex, 16) {
                    Ok(b) => (b as char).to_string(),
                    Err(_) => format!("%x{hex}"),
                }
            }
            "%" => "%".to_owned(),
            other => format!("%{other}"),
        };
        out.push_str(&s);
    }
    out
}

/// `(HEAD -> main, tag: v1, topic)` (`%d`, with the parentheses) or its
/// inside (`%D`): HEAD and the branch it is on first, then the other refs
/// in reverse name order, as git lists what points at a commit.
pub fn decoration(repo: &Repo, id: &ObjectId, parens: bool) -> String {
    let head = repo.head().ok();
    let (head_here, current) = match &head {
        Some(Head::Branch(b, Some(h))) => (h == id, Some(format!("refs/heads/{b}"))),
        Some(Head::Detached(h)) => (h == id, None),
        _ => (false, None),
    };
    let mut names: Vec<String> = repo
        .refs_under("refs/")
        .into_iter()
        .filter(|(name, target)| {
            // An annotated tag decorates the commit it points to.
            target == id
                || (name.starts_with("refs/tags/")
                    && repo.read_tag_target(target).is_some_and(|t| t == *id))
        })
        .map(|(name, _)| name)
        .filter(|n| n != "refs/stash")
        .collect();
    names.reverse();
    let mut parts = Vec::new();
    if head_here {
        match &current {
            Some(c) if names.contains(c) => {
                parts.push(format!("HEAD -> {}", &c[11..]));
                names.retain(|n| n != c);
            }
            _ => parts.push("HEAD".to_owned()),
        }
    }
    for n in names {
        if let Some(t) = n.strip_prefix("refs/tags/") {
            parts.push(format!("tag: {t}"));
        } else if let Some(b) = n.strip_prefix("refs/heads/") {
            parts.push(b.to_owned());
        } else if let Some(r) = n.strip_prefix("refs/remotes/") {
            parts.push(r.to_owned());
        } else {
            parts.push(n);
        }
    }
    if parts.is_empty() {
        return String::new();
    }
    if parens {
        format!(" ({})", parts.join(", "))
    } else {
        parts.join(", ")
    }
}
