//! How `log` and `show` print a commit: the built-in `--pretty` styles,
//! `--format` placeholders and `%d` decorations.

use std::io::Write;

use gix_hash::ObjectId;

use crate::color::{BOLD_CYAN, BOLD_GREEN, BOLD_RED, BOLD_YELLOW, YELLOW, paint};
use crate::error::Result;
use crate::ident::{format_date, parse_sig};
use crate::objects::Commit;
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
pub fn body(message: &str) -> String {
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

pub enum Style {
    Medium,
    Short,
    Full,
    Fuller,
    Raw,
    Oneline,
    Email,
    /// A user format, and whether each entry ends in a newline (`tformat`).
    Format(String, bool),
}

/// The choices of `log`'s command line that shape each commit's text.
pub struct Shown {
    pub style: Style,
    pub date_style: String,
    /// `--no-abbrev-commit`.
    pub full_ids: bool,
    /// `--pretty=oneline`, which shows whole ids unless `--abbrev-commit`.
    pub oneline_full: bool,
    pub abbrev_commit: bool,
    pub abbrev_len: Option<usize>,
    pub decorate: bool,
    /// `color.diff`/`color.ui` is `always`.
    pub color: bool,
    /// A diff follows each message (`-p`, `--stat`, `--name-only`).
    pub with_diff: bool,
}

/// One commit's header and message in the chosen style (`first`: no
/// separator before it).
pub fn print(
    out: &mut impl Write,
    repo: &mut Repo,
    id: &ObjectId,
    c: &Commit,
    shown: &Shown,
    first: bool,
) -> Result<()> {
    match &shown.style {
        Style::Oneline => {
            let full = shown.full_ids || (shown.oneline_full && !shown.abbrev_commit);
            let a = match (full, shown.abbrev_len) {
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
            let d = match (shown.decorate, shown.color) {
                (false, _) => String::new(),
                (true, false) => decoration(repo, id, true),
                (true, true) => painted_decoration(repo, id),
            };
            let a = if shown.color { paint(YELLOW, &a) } else { a };
            writeln!(out, "{a}{d} {}", subject(&c.message))?;
        }
        Style::Raw => {
            if !first {
                writeln!(out)?;
            }
            writeln!(out, "commit {id}\ntree {}", c.tree)?;
            for p in &c.parents {
                writeln!(out, "parent {p}")?;
            }
            writeln!(out, "author {}\ncommitter {}\n", c.author, c.committer)?;
            for line in c.message.trim_end_matches('\n').lines() {
                writeln!(out, "    {line}")?;
            }
        }
        Style::Short | Style::Full | Style::Fuller => {
            if !first {
                writeln!(out)?;
            }
            writeln!(out, "commit {id}")?;
            if c.parents.len() > 1 {
                let ps: Vec<String> = c.parents.iter().map(|p| repo.abbrev(p)).collect();
                writeln!(out, "Merge: {}", ps.join(" "))?;
            }
            let a = parse_sig(&c.author);
            let m = parse_sig(&c.committer);
            match shown.style {
                Style::Short => writeln!(out, "Author: {} <{}>", a.name, a.email)?,
                Style::Full => {
                    writeln!(out, "Author: {} <{}>", a.name, a.email)?;
                    writeln!(out, "Commit: {} <{}>", m.name, m.email)?;
                }
                _ => {
                    writeln!(out, "Author:     {} <{}>", a.name, a.email)?;
                    writeln!(
                        out,
                        "AuthorDate: {}",
                        format_date(a.seconds, a.offset, &shown.date_style)
                    )?;
                    writeln!(out, "Commit:     {} <{}>", m.name, m.email)?;
                    writeln!(
                        out,
                        "CommitDate: {}",
                        format_date(m.seconds, m.offset, &shown.date_style)
                    )?;
                }
            }
            writeln!(out)?;
            let text = if matches!(shown.style, Style::Short) {
                subject(&c.message) + "\n"
            } else {
                c.message.clone()
            };
            for line in text.trim_end_matches('\n').lines() {
                writeln!(out, "    {line}")?;
            }
        }
        Style::Medium => {
            if !first {
                writeln!(out)?;
            }
            let d = match (shown.decorate, shown.color) {
                (false, _) => String::new(),
                (true, false) => decoration(repo, id, true),
                (true, true) => painted_decoration(repo, id),
            };
            if shown.color {
                writeln!(out, "{}{d}", paint(YELLOW, &format!("commit {id}")))?;
            } else {
                writeln!(out, "commit {id}{d}")?;
            }
            if c.parents.len() > 1 {
                let ps: Vec<String> = c.parents.iter().map(|p| repo.abbrev(p)).collect();
                writeln!(out, "Merge: {}", ps.join(" "))?;
            }
            let a = parse_sig(&c.author);
            writeln!(out, "Author: {} <{}>", a.name, a.email)?;
            writeln!(
                out,
                "Date:   {}",
                format_date(a.seconds, a.offset, &shown.date_style)
            )?;
            writeln!(out)?;
            for line in c.message.trim_end_matches('\n').lines() {
                writeln!(out, "    {line}")?;
            }
        }
        Style::Format(f, _) if f.is_empty() && shown.with_diff => {}
        Style::Format(f, _) if shown.with_diff => {
            let text = format_commit(repo, id, c, f, &shown.date_style);
            writeln!(out, "{text}")?;
        }
        Style::Format(f, terminated) => {
            let text = format_commit(repo, id, c, f, &shown.date_style);
            if *terminated {
                writeln!(out, "{text}")?;
            } else {
                if !first {
                    writeln!(out)?;
                }
                write!(out, "{text}")?;
            }
        }
        Style::Email => {
            if !first {
                writeln!(out)?;
            }
            email(out, id, c)?;
        }
    }
    Ok(())
}

/// `--format=email`: the mbox header `format-patch` writes, then the body.
fn email(out: &mut impl Write, id: &ObjectId, c: &Commit) -> Result<()> {
    let a = parse_sig(&c.author);
    writeln!(out, "From {id} Mon Sep 17 00:00:00 2001")?;
    let from = format!("From: {} <{}>", a.name, a.email);
    // git folds a From line that would pass 78 columns before the address.
    if from.len() > 78 {
        writeln!(out, "From: {}\n <{}>", a.name, a.email)?;
    } else {
        writeln!(out, "{from}")?;
    }
    writeln!(out, "Date: {}", format_date(a.seconds, a.offset, "rfc"))?;
    writeln!(out, "Subject: [PATCH] {}\n", subject(&c.message))?;
    write!(out, "{}", body(&c.message))?;
    Ok(())
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

/// The refs at `id` as git decorates them, one unit per ref (HEAD and its
/// branch are one), each part with its colour.
type Unit = Vec<(&'static str, String)>;

fn decoration_parts(repo: &Repo, id: &ObjectId) -> Vec<Unit> {
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
    let mut units: Vec<Unit> = Vec::new();
    if head_here {
        match &current {
            Some(c) if names.contains(c) => {
                units.push(vec![
                    (BOLD_CYAN, "HEAD -> ".to_owned()),
                    (BOLD_GREEN, c[11..].to_owned()),
                ]);
                names.retain(|n| n != c);
            }
            _ => units.push(vec![(BOLD_CYAN, "HEAD".to_owned())]),
        }
    }
    for n in names {
        let unit = if let Some(t) = n.strip_prefix("refs/tags/") {
            (BOLD_YELLOW, format!("tag: {t}"))
        } else if let Some(b) = n.strip_prefix("refs/heads/") {
            (BOLD_GREEN, b.to_owned())
        } else if let Some(r) = n.strip_prefix("refs/remotes/") {
            (BOLD_RED, r.to_owned())
        } else {
            ("", n)
        };
        units.push(vec![unit]);
    }
    units
}

/// `(HEAD -> main, tag: v1, topic)` (`%d`, with the parentheses) or its
/// inside (`%D`): HEAD and the branch it is on first, then the other refs
/// in reverse name order, as git lists what points at a commit.
pub fn decoration(repo: &Repo, id: &ObjectId, parens: bool) -> String {
    let units = decoration_parts(repo, id);
    if units.is_empty() {
        return String::new();
    }
    let text: Vec<String> = units
        .iter()
        .map(|u| u.iter().map(|(_, t)| t.as_str()).collect())
        .collect();
    if parens {
        format!(" ({})", text.join(", "))
    } else {
        text.join(", ")
    }
}

/// The decoration as `color.ui=always` shows it.
fn painted_decoration(repo: &Repo, id: &ObjectId) -> String {
    let units = decoration_parts(repo, id);
    if units.is_empty() {
        return String::new();
    }
    let painted: Vec<String> = units
        .iter()
        .map(|u| u.iter().map(|(c, t)| paint(c, t)).collect())
        .collect();
    format!(
        "{}{}{}",
        paint(YELLOW, " ("),
        painted.join(&paint(YELLOW, ", ")),
        paint(YELLOW, ")")
    )
}
