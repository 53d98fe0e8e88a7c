//! `git show [--stat] [REV...]` and `git show REV:PATH`.

use std::io::Write;

use crate::Invocation;
use crate::cmd::commit_diff::{self, Kinds};
use crate::cmd::unsupported;
use crate::error::{Result, fatal};
use crate::ident::{format_date, parse_sig};
use crate::objects;
use crate::odb::Kind;

pub fn run(inv: &mut Invocation) -> Result<i32> {
    let mut stat = false;
    let mut no_patch = false;
    let mut oneline = false;
    let mut format: Option<String> = None;
    let mut names: Option<bool> = None;
    let mut revs = Vec::new();
    let (args, paths, _) = crate::cmd::split_dashdash(&inv.args);
    for a in args {
        match a.as_str() {
            "--name-only" => names = Some(false),
            "--name-status" => names = Some(true),
            s if s.starts_with("--format=") || s.starts_with("--pretty=") => {
                let v = &s[s.find('=').unwrap_or(0) + 1..];
                match v {
                    "oneline" => oneline = true,
                    "medium" => {}
                    "" => format = Some(String::new()),
                    v if v.starts_with("format:") => format = Some(v[7..].to_owned()),
                    v if v.starts_with("tformat:") => format = Some(v[8..].to_owned()),
                    v if v.contains('%') => format = Some(v.to_owned()),
                    _ => return unsupported("show", s),
                }
            }
            "--stat" => stat = true,
            "-s" | "--no-patch" => no_patch = true,
            "--oneline" => oneline = true,
            "--no-color" => {}
            s if s.starts_with('-') => return unsupported("show", s),
            _ => revs.push(a),
        }
    }
    let mut repo = inv.repo()?;
    if revs.is_empty() {
        if let crate::repo::Head::Branch(b, None) = repo.head()? {
            return fatal(format!(
                "your current branch '{b}' does not have any commits yet"
            ));
        }
        revs.push("HEAD".into());
    }
    let specs: Vec<String> = paths.iter().filter_map(|p| repo.repo_path(p)).collect();
    for (n, rev) in revs.iter().enumerate() {
        let Some(id) = repo.rev_parse(rev)? else {
            if let Some((base, path)) = rev.split_once(':') {
                return fatal(format!(
                    "path '{path}' does not exist in '{}'",
                    if base.is_empty() { "HEAD" } else { base }
                ));
            }
            return fatal(format!(
                "ambiguous argument '{rev}': unknown revision or path not in the working tree.\nUse '--' to separate paths from revisions, like this:\n'git <command> [<revision>...] -- [<file>...]'"
            ));
        };
        let obj = repo.odb.must_read(&id)?;
        match obj.kind {
            Kind::Blob => inv.out.write_all(&obj.data)?,
            Kind::Tree => {
                writeln!(inv.out, "tree {rev}\n")?;
                for e in objects::parse_tree(&obj.data)? {
                    let slash = if e.mode == objects::MODE_TREE {
                        "/"
                    } else {
                        ""
                    };
                    writeln!(inv.out, "{}{slash}", e.name)?;
                }
            }
            Kind::Tag => {
                let text = String::from_utf8_lossy(&obj.data).into_owned();
                let (head, msg) = text.split_once("\n\n").unwrap_or((&text, ""));
                let name = head
                    .lines()
                    .find_map(|l| l.strip_prefix("tag "))
                    .unwrap_or("");
                let tagger = head
                    .lines()
                    .find_map(|l| l.strip_prefix("tagger "))
                    .unwrap_or("");
                let t = parse_sig(tagger);
                writeln!(inv.out, "tag {name}\nTagger: {} <{}>", t.name, t.email)?;
                // A user format shows the tag without its date or the
                // blank line after its message.
                if format.is_none() {
                    let date = format_date(t.seconds, t.offset, "default");
                    writeln!(inv.out, "Date:   {date}")?;
                }
                writeln!(inv.out, "\n{}", msg.trim_end())?;
                if format.is_none() {
                    writeln!(inv.out)?;
                }
                let target = objects::tag_target(&obj.data)?;
                show_commit(
                    inv,
                    &mut repo,
                    &target,
                    (stat, no_patch, oneline),
                    &format,
                    names,
                    &specs,
                )?;
            }
            Kind::Commit => {
                if n > 0 && !oneline {
                    writeln!(inv.out)?;
                }
                show_commit(
                    inv,
                    &mut repo,
                    &id,
                    (stat, no_patch, oneline),
                    &format,
                    names,
                    &specs,
                )?;
            }
        }
    }
    Ok(0)
}

fn show_commit(
    inv: &mut Invocation,
    repo: &mut crate::repo::Repo,
    id: &gix_hash::ObjectId,
    (stat, no_patch, oneline): (bool, bool, bool),
    format: &Option<String>,
    names: Option<bool>,
    specs: &[String],
) -> Result<()> {
    let c = repo.commit(id)?;
    if format.as_deref() == Some("") {
    } else if let Some(f) = format {
        let text = crate::cmd::pretty::format_commit(repo, id, &c, f, "default");
        writeln!(inv.out, "{text}")?;
    } else if oneline {
        let a = repo.abbrev(id);
        writeln!(inv.out, "{a} {}", crate::cmd::pretty::subject(&c.message))?;
    } else {
        writeln!(inv.out, "commit {id}")?;
        if c.parents.len() > 1 {
            let ps: Vec<String> = c.parents.iter().map(|p| repo.abbrev(p)).collect();
            writeln!(inv.out, "Merge: {}", ps.join(" "))?;
        }
        let a = parse_sig(&c.author);
        writeln!(inv.out, "Author: {} <{}>", a.name, a.email)?;
        writeln!(
            inv.out,
            "Date:   {}\n",
            format_date(a.seconds, a.offset, "default")
        )?;
        for line in c.message.trim_end_matches('\n').lines() {
            writeln!(inv.out, "    {line}")?;
        }
    }
    if no_patch || (c.parents.len() > 1 && !stat) {
        return Ok(());
    }
    let kinds = Kinds {
        stat,
        patch: !stat && names.is_none(),
        names,
    };
    let body = commit_diff::output(repo, c.parents.first().copied(), *id, kinds, specs)?;
    let message_shown = !oneline && format.as_deref() != Some("");
    if !body.is_empty() {
        if message_shown {
            write!(inv.out, "{}", commit_diff::separator(kinds))?;
        }
        inv.out.write_all(&body)?;
    }
    Ok(())
}
