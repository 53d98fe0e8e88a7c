//! `git commit [-a] [-m MSG]... [-F FILE] [--amend] [--allow-empty] [-q]`.

use std::collections::BTreeMap;
use std::io::Write as _;

use gix_hash::ObjectId;

use crate::Invocation;
use crate::cmd::{status, unsupported};
use crate::diff::{self, StatLine};
use crate::error::{Error, Result};
use crate::ident::Ident;
use crate::index::Index;
use crate::objects::{self, Commit};
use crate::odb::Kind;
use crate::repo::{Head, Repo};

/// `-m` messages as git's `whitespace` cleanup leaves them.
pub fn cleanup(text: &str) -> String {
    let mut lines: Vec<&str> = Vec::new();
    for line in text.lines() {
        let t = line.trim_end();
        if t.is_empty() && lines.last().is_none_or(|l| l.is_empty()) {
            continue;
        }
        lines.push(t);
    }
    while lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    if lines.is_empty() {
        return String::new();
    }
    lines.join("\n") + "\n"
}

pub fn run(inv: &mut Invocation) -> Result<i32> {
    let mut messages: Vec<String> = Vec::new();
    let (mut all, mut amend, mut allow_empty, mut quiet) = (false, false, false, false);
    inv.args = crate::cmd::expand_short(&inv.args, "mFC");
    let mut i = 0;
    while i < inv.args.len() {
        let a = inv.args[i].clone();
        match a.as_str() {
            "-m" | "--message" | "-F" | "--file" => {
                i += 1;
                let Some(v) = inv.args.get(i).cloned() else {
                    return crate::error::fatal(format!("switch `{}' requires a value", &a[1..]));
                };
                if a.starts_with("-F") || a == "--file" {
                    let text = if v == "-" {
                        std::io::read_to_string(std::io::stdin())?
                    } else {
                        std::fs::read_to_string(&v)?
                    };
                    messages.push(text);
                } else {
                    messages.push(v);
                }
            }
            s if s.starts_with("--message=") => messages.push(s[10..].to_owned()),
            "-a" | "--all" => all = true,
            "--amend" => amend = true,
            "--allow-empty" => allow_empty = true,
            "--allow-empty-message" | "--no-edit" => {}
            "-q" | "--quiet" => quiet = true,
            s => return unsupported("commit", s),
        }
        i += 1;
    }
    let mut repo = inv.repo()?;
    let mut index = Index::load(&repo.git_dir)?;
    if !index.conflicted().is_empty() {
        eprintln!(
            "error: Committing is not possible because you have unmerged files.\nhint: Fix them up in the work tree, and then use 'git add/rm <file>'\nhint: as appropriate to mark resolution and make a commit.\nfatal: Exiting because of an unresolved conflict."
        );
        return Err(Error::Exit(128));
    }
    if all {
        stage_tracked(&mut repo, &mut index)?;
        index.save(&repo.git_dir)?;
    }
    let head = repo.head_commit()?;
    let old = match (amend, head) {
        (true, Some(h)) => Some(repo.commit(&h)?),
        (true, None) => return crate::error::fatal("You have nothing to amend."),
        _ => None,
    };
    let merge_head = repo
        .read_ref_file("MERGE_HEAD")
        .and_then(|h| ObjectId::from_hex(h.as_bytes()).ok());
    let mut parents: Vec<ObjectId> = match &old {
        Some(c) => c.parents.clone(),
        None => head.into_iter().collect(),
    };
    if let (Some(m), None) = (merge_head, &old) {
        parents.push(m);
    }
    let files: Vec<(String, u32, ObjectId)> = index
        .files()
        .into_iter()
        .map(|(p, (m, id))| (p, m, id))
        .collect();
    let tree = objects::write_trees(&mut repo.odb, &files)?;
    let parent_tree = match parents.first() {
        Some(p) => Some(repo.tree_of(p)?),
        None => None,
    };
    let head_tree = match head {
        Some(h) => Some(repo.tree_of(&h)?),
        None => None,
    };
    let concluding_merge = merge_head.is_some() && !amend;
    if !concluding_merge
        && (!amend && !allow_empty && head_tree == Some(tree)
            || (!amend && head.is_none() && files.is_empty() && !allow_empty))
    {
        status::long(&mut repo, &index, &mut inv.out, true)?;
        return Err(Error::Exit(1));
    }
    let merge_msg = if concluding_merge {
        std::fs::read_to_string(repo.git_dir.join("MERGE_MSG")).ok()
    } else {
        None
    };
    let message = match (messages.is_empty(), &old) {
        (true, _) if merge_msg.is_some() => cleanup(merge_msg.as_deref().unwrap_or_default()),
        (true, Some(c)) => c.message.clone(),
        (true, None) => {
            eprintln!("Aborting commit due to empty commit message.");
            return Err(Error::Exit(1));
        }
        (false, _) => cleanup(&messages.join("\n\n")),
    };
    if message.is_empty() {
        eprintln!("Aborting commit due to empty commit message.");
        return Err(Error::Exit(1));
    }
    let committer = Ident::of("COMMITTER", &repo.config)?;
    // An amended commit keeps its author, as git does without --reset-author.
    let author = match &old {
        Some(c) => c.author.clone(),
        None => Ident::of("AUTHOR", &repo.config)?.header(),
    };
    let commit = Commit {
        tree,
        parents: parents.clone(),
        author,
        committer: committer.header(),
        message,
    };
    let id = repo
        .odb
        .write(Kind::Commit, &objects::encode_commit(&commit))?;
    repo.update_head(&id)?;
    let kind = match (amend, parents.len()) {
        (true, _) => "commit (amend)",
        (false, 0) => "commit (initial)",
        (false, 1) => "commit",
        (false, _) => "commit (merge)",
    };
    if concluding_merge {
        crate::cmd::merge::clear_state(&repo);
    }
    let log_subject = crate::cmd::pretty::subject(&commit.message);
    crate::reflog::head_moved(&repo, head, &id, &format!("{kind}: {log_subject}"), true);
    if !quiet {
        let where_ = match repo.head()? {
            Head::Branch(b, _) => b,
            Head::Detached(_) => "detached HEAD".to_owned(),
        };
        let root = if parents.is_empty() {
            " (root-commit)"
        } else {
            ""
        };
        let subject = crate::cmd::pretty::subject(&commit.message);
        let abbrev = repo.abbrev(&id);
        writeln!(inv.out, "[{where_}{root} {abbrev}] {subject}")?;
        let a = crate::ident::parse_sig(&commit.author);
        let c = crate::ident::parse_sig(&commit.committer);
        if (a.name.as_str(), a.email.as_str()) != (c.name.as_str(), c.email.as_str()) {
            writeln!(inv.out, " Author: {} <{}>", a.name, a.email)?;
        }
        if (a.seconds, a.offset) != (c.seconds, c.offset) {
            writeln!(
                inv.out,
                " Date: {}",
                crate::ident::format_date(a.seconds, a.offset, "default")
            )?;
        }
        if !concluding_merge {
            let text = summary(&mut repo, parent_tree.as_ref(), &tree)?;
            inv.out.write_all(text.as_bytes())?;
        }
    }
    Ok(0)
}

/// `git commit -a`: tracked files as they are in the work tree.
fn stage_tracked(repo: &mut Repo, index: &mut Index) -> Result<()> {
    for path in index.files().into_keys() {
        match crate::meta::lstat(repo.work_tree.join(&path)) {
            Ok(meta) if !meta.is_dir() => crate::cmd::add::stage(repo, index, &path, &meta)?,
            _ => {
                index.remove(&path);
            }
        }
    }
    Ok(())
}

/// The diffstat summary and create/delete/rename lines of a commit.
pub fn summary(repo: &mut Repo, from: Option<&ObjectId>, to: &ObjectId) -> Result<String> {
    let old = match from {
        Some(t) => objects::flatten(&mut repo.odb, t)?,
        None => BTreeMap::new(),
    };
    let new = objects::flatten(&mut repo.odb, to)?;
    let changes = tree_changes(&old, &new);
    if changes.is_empty() {
        return Ok(String::new());
    }
    let mut stats = Vec::new();
    let mut notes = Vec::new();
    for c in &changes {
        match c {
            Change::Added(p, m, id) => {
                let data = repo.odb.must_read(id)?.data;
                let (ins, _) = if diff::is_binary(&data) {
                    (0, 0)
                } else {
                    diff::counts(b"", &data)
                };
                stats.push(StatLine {
                    name: p.clone(),
                    ins,
                    del: 0,
                    binary: None,
                });
                notes.push((p.clone(), format!(" create mode {m:06o} {p}\n")));
            }
            Change::Deleted(p, m, id) => {
                let data = repo.odb.must_read(id)?.data;
                let (_, del) = if diff::is_binary(&data) {
                    (0, 0)
                } else {
                    diff::counts(&data, b"")
                };
                stats.push(StatLine {
                    name: p.clone(),
                    ins: 0,
                    del,
                    binary: None,
                });
                notes.push((p.clone(), format!(" delete mode {m:06o} {p}\n")));
            }
            Change::Modified(p, om, nm, oid, nid) => {
                let a = repo.odb.must_read(oid)?.data;
                let b = repo.odb.must_read(nid)?.data;
                let (ins, del) = if diff::is_binary(&a) || diff::is_binary(&b) {
                    (0, 0)
                } else {
                    diff::counts(&a, &b)
                };
                stats.push(StatLine {
                    name: p.clone(),
                    ins,
                    del,
                    binary: None,
                });
                if om != nm {
                    notes.push((
                        p.clone(),
                        format!(" mode change {om:06o} => {nm:06o} {p}\n"),
                    ));
                }
            }
            Change::Renamed(from, to) => {
                stats.push(StatLine {
                    name: to.clone(),
                    ins: 0,
                    del: 0,
                    binary: None,
                });
                notes.push((
                    to.clone(),
                    format!(" rename {} (100%)\n", rename_label(from, to)),
                ));
            }
        }
    }
    let mut out = diff::summary(&stats);
    notes.sort_by(|a, b| a.0.cmp(&b.0));
    for (_, n) in notes {
        out.push_str(&n);
    }
    Ok(out)
}

/// git's `a/{x => y}/b` form of a rename.
pub fn rename_label(from: &str, to: &str) -> String {
    let pre = common_prefix_dirs(from, to);
    let suf = common_suffix_dirs(&from[pre..], &to[pre..]);
    let (f, t) = (&from[pre..from.len() - suf], &to[pre..to.len() - suf]);
    if pre == 0 && suf == 0 {
        return format!("{from} => {to}");
    }
    format!(
        "{}{{{f} => {t}}}{}",
        &from[..pre],
        &from[from.len() - suf..]
    )
}

fn common_prefix_dirs(a: &str, b: &str) -> usize {
    let mut last = 0;
    for (i, (x, y)) in a.bytes().zip(b.bytes()).enumerate() {
        if x != y {
            break;
        }
        if x == b'/' {
            last = i + 1;
        }
    }
    last
}

fn common_suffix_dirs(a: &str, b: &str) -> usize {
    let mut last = 0;
    for (i, (x, y)) in a.bytes().rev().zip(b.bytes().rev()).enumerate() {
        if x != y {
            break;
        }
        if x == b'/' {
            last = i + 1;
        }
    }
    last.min(a.len()).min(b.len())
}

#[derive(Clone)]
pub enum Change {
    Added(String, u32, ObjectId),
    Deleted(String, u32, ObjectId),
    Modified(String, u32, u32, ObjectId, ObjectId),
    Renamed(String, String),
}

/// Path-level changes between two flattened trees, with exact renames.
pub fn tree_changes(
    old: &BTreeMap<String, (u32, ObjectId)>,
    new: &BTreeMap<String, (u32, ObjectId)>,
) -> Vec<Change> {
    let mut added: Vec<&String> = new.keys().filter(|p| !old.contains_key(*p)).collect();
    let mut deleted: Vec<&String> = old.keys().filter(|p| !new.contains_key(*p)).collect();
    let mut out = Vec::new();
    let mut renames = Vec::new();
    added.retain(|a| {
        match deleted
            .iter()
            .position(|d| old[*d].1 == new[*a].1 && old[*d].0 == new[*a].0)
        {
            Some(i) => {
                renames.push(((*deleted.remove(i)).clone(), (*a).clone()));
                false
            }
            None => true,
        }
    });
    for (p, (m, id)) in new {
        if let Some((om, oid)) = old.get(p)
            && (om != m || oid != id)
        {
            out.push(Change::Modified(p.clone(), *om, *m, *oid, *id));
        }
    }
    for a in added {
        out.push(Change::Added(a.clone(), new[a].0, new[a].1));
    }
    for d in deleted {
        out.push(Change::Deleted(d.clone(), old[d].0, old[d].1));
    }
    for (f, t) in renames {
        out.push(Change::Renamed(f, t));
    }
    out.sort_by(|a, b| key(a).cmp(key(b)));
    out
}

fn key(c: &Change) -> &str {
    match c {
        Change::Added(p, ..) | Change::Deleted(p, ..) | Change::Modified(p, ..) => p,
        Change::Renamed(_, t) => t,
    }
}
