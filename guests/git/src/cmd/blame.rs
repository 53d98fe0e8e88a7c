//! `git blame [-s] [-e] [-l] [-n] [-f] [-t] [-b] [--root] [-L RANGE]...
//! [-p | --porcelain | --line-porcelain] [REV] [--] FILE`.

use std::collections::HashSet;
use std::io::Write;

use gix_hash::ObjectId;

use crate::Invocation;
use crate::blame::{self, Origin};
use crate::cmd::pretty::subject;
use crate::cmd::{split_dashdash, unsupported};
use crate::error::{Error, Result, fatal};
use crate::ident::{format_date, parse_sig, zone};
use crate::objects;
use crate::repo::Repo;

#[derive(Default)]
struct Opts {
    suppress: bool,
    email: bool,
    long: bool,
    number: bool,
    name: bool,
    raw_time: bool,
    blank_boundary: bool,
    root: bool,
    porcelain: bool,
    line_porcelain: bool,
    ranges: Vec<String>,
    abbrev: Option<usize>,
}

/// The file being blamed, line by line, and where each line came from.
struct Blamed {
    path: String,
    lines: Vec<Vec<u8>>,
    origins: Vec<Option<Origin>>,
    facts: blame::Facts,
    /// For lines not committed yet: HEAD, if any, and the time now.
    head: Option<ObjectId>,
    now: i64,
}

pub fn run(inv: &mut Invocation) -> Result<i32> {
    let (opts, rev, file) = parse(&inv.args.clone())?;
    let mut repo = inv.repo()?;
    let Some(path) = repo.repo_path(&file) else {
        return fatal(format!("'{file}' is outside repository"));
    };
    let b = blame_file(&mut repo, rev.as_deref(), &path, &file)?;
    let shown = select(&opts.ranges, &b.lines, &path)?;
    if opts.porcelain || opts.line_porcelain {
        porcelain(inv, &mut repo, &b, &shown, &opts)?;
    } else {
        plain(inv, &mut repo, &b, &shown, &opts)?;
    }
    Ok(0)
}

fn parse(args: &[String]) -> Result<(Opts, Option<String>, String)> {
    let (before, after, dashdash) = split_dashdash(args);
    let mut o = Opts::default();
    let mut words = Vec::new();
    let mut it = before.into_iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "-s" => o.suppress = true,
            "-e" | "--show-email" => o.email = true,
            "-l" => o.long = true,
            "-n" | "--show-number" => o.number = true,
            "-f" | "--show-name" => o.name = true,
            "-t" => o.raw_time = true,
            "-b" => o.blank_boundary = true,
            "--root" => o.root = true,
            "-p" | "--porcelain" => o.porcelain = true,
            "--line-porcelain" => o.line_porcelain = true,
            "--no-color" | "--no-progress" => {}
            "-L" => match it.next() {
                Some(r) => o.ranges.push(r),
                None => return usage("switch `L' requires a value"),
            },
            s if s.starts_with("-L") => o.ranges.push(s[2..].to_owned()),
            s if s.starts_with("--abbrev=") => {
                o.abbrev = s[9..].parse().ok();
                if o.abbrev.is_none() {
                    return unsupported("blame", s);
                }
            }
            s if s.starts_with('-') && s.len() > 1 => return unsupported("blame", s),
            _ => words.push(a),
        }
    }
    let (rev, file) = match (words.len(), after.len(), dashdash) {
        (0, 1, _) => (None, after[0].clone()),
        (1, 1, true) => (Some(words[0].clone()), after[0].clone()),
        (1, 0, false) => (None, words[0].clone()),
        (2, 0, false) => (Some(words[0].clone()), words[1].clone()),
        _ => return usage("usage: git blame [<options>] [<rev-opts>] [<rev>] [--] <file>"),
    };
    Ok((o, rev, file))
}

fn usage<T>(message: &str) -> Result<T> {
    eprintln!("{message}");
    Err(Error::Exit(129))
}

/// The final version (REV's, or the work tree's) and the origin of each line.
fn blame_file(repo: &mut Repo, rev: Option<&str>, path: &str, shown: &str) -> Result<Blamed> {
    let (start, content, pending, head) = match rev {
        Some(r) => {
            let Some(id) = repo.rev_parse(r)? else {
                return fatal(format!("bad revision '{r}'"));
            };
            let id = repo.peel_to_commit(&id)?;
            let tree = repo.tree_of(&id)?;
            let Some(blob) = objects::lookup_path(&mut repo.odb, &tree, path)? else {
                return fatal(format!("no such path {shown} in {r}"));
            };
            let data = repo.odb.must_read(&blob)?.data;
            let n = crate::diff::lines(&data).len();
            (
                Some((id, blob)),
                data,
                (0..n).map(|i| (i, i)).collect(),
                None,
            )
        }
        None => worktree_start(repo, path, shown)?,
    };
    let lines: Vec<Vec<u8>> = crate::diff::lines(&content)
        .into_iter()
        .map(<[u8]>::to_vec)
        .collect();
    let mut origins: Vec<Option<Origin>> = vec![None; lines.len()];
    let facts = match start {
        Some((id, blob)) => blame::run(repo, id, path, blob, pending, &mut origins)?,
        None => blame::Facts::default(),
    };
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0);
    Ok(Blamed {
        path: path.to_owned(),
        lines,
        origins,
        facts,
        head,
        now,
    })
}

type Start = (
    Option<(ObjectId, ObjectId)>,
    Vec<u8>,
    Vec<(usize, usize)>,
    Option<ObjectId>,
);

/// Blame of the work tree's file: the lines HEAD's version also has start
/// at HEAD; the others are not committed yet.
fn worktree_start(repo: &mut Repo, path: &str, shown: &str) -> Result<Start> {
    let head = repo.head_commit()?;
    let blob = match head {
        Some(h) => {
            let tree = repo.tree_of(&h)?;
            objects::lookup_path(&mut repo.odb, &tree, path)?
        }
        None => None,
    };
    let Some(blob) = blob else {
        return fatal(format!("no such path '{shown}' in HEAD"));
    };
    let content = match std::fs::read(repo.work_tree.join(path)) {
        Ok(c) => c,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return fatal(format!("Cannot lstat '{shown}': No such file or directory"));
        }
        Err(e) => return Err(e.into()),
    };
    let old = repo.odb.must_read(&blob)?.data;
    let map = blame::equal_map(&old, &content);
    let mut pending: Vec<(usize, usize)> = map.iter().map(|(&new, &old)| (old, new)).collect();
    pending.sort_by_key(|p| p.1);
    Ok((head.map(|h| (h, blob)), content, pending, head))
}

/// The 0-based final lines to show: all, or those of the `-L` ranges.
fn select(ranges: &[String], lines: &[Vec<u8>], path: &str) -> Result<Vec<usize>> {
    if ranges.is_empty() {
        return Ok((0..lines.len()).collect());
    }
    let mut set = std::collections::BTreeSet::new();
    for r in ranges {
        let (a, b) = range(r, lines, path)?;
        set.extend(a..b);
    }
    Ok(set.into_iter().collect())
}

/// One `-L` range as 0-based [start, end).
fn range(spec: &str, lines: &[Vec<u8>], path: &str) -> Result<(usize, usize)> {
    let n = lines.len();
    let (a, b) = match spec.split_once(',') {
        Some((a, b)) => (a, Some(b)),
        None => (spec, None),
    };
    let start = if a.is_empty() {
        1
    } else {
        position(a, lines, 0)?
    };
    if start == 0 {
        return fatal(format!("-L invalid line number: {a}"));
    }
    if start > n.max(1) {
        return fatal(format!(
            "file {path} has only {n} line{}",
            if n == 1 { "" } else { "s" }
        ));
    }
    let end = match b {
        None | Some("") => n,
        Some(b) if b.starts_with('+') => {
            let k: usize = number(&b[1..])?;
            (start + k.max(1) - 1).min(n)
        }
        Some(b) if b.starts_with('-') => {
            let k: usize = number(&b[1..])?;
            let first = start.saturating_sub(k.max(1) - 1).max(1);
            return Ok((first - 1, start));
        }
        Some(b) => position(b, lines, start)?.min(n),
    };
    let (lo, hi) = if end < start {
        (end, start)
    } else {
        (start, end)
    };
    Ok((lo.max(1) - 1, hi))
}

fn number(s: &str) -> Result<usize> {
    s.parse()
        .or_else(|_| fatal(format!("-L parameter '{s}' is not a number")))
}

/// A line number, or the first line from `from` (0-based) matching `/re/`.
fn position(s: &str, lines: &[Vec<u8>], from: usize) -> Result<usize> {
    let Some(pattern) = s.strip_prefix('/').and_then(|p| p.strip_suffix('/')) else {
        if s.starts_with(':') || s.starts_with('^') {
            return unsupported("blame", &format!("-L {s}"));
        }
        return number(s);
    };
    let re = regex_lite::Regex::new(pattern)
        .or_else(|e| fatal(format!("-L parameter '{pattern}': {e}")))?;
    for (i, l) in lines.iter().enumerate().skip(from) {
        if re.is_match(&String::from_utf8_lossy(l)) {
            return Ok(i + 1);
        }
    }
    fatal(format!(
        "-L parameter '{pattern}' starting at line {}: no match",
        from + 1
    ))
}

/// What a line's origin shows: author, mail, time and zone; summary.
struct Who {
    author: String,
    mail: String,
    time: i64,
    zone: i32,
    committer: String,
    cmail: String,
    ctime: i64,
    czone: i32,
    summary: String,
    boundary: bool,
}

fn who(repo: &mut Repo, b: &Blamed, o: &Origin, opts: &Opts) -> Result<Who> {
    let Some(id) = o.commit else {
        let none = "Not Committed Yet".to_owned();
        let mail = "<not.committed.yet>".to_owned();
        return Ok(Who {
            author: none.clone(),
            mail: mail.clone(),
            time: b.now,
            zone: 0,
            committer: none,
            cmail: mail,
            ctime: b.now,
            czone: 0,
            summary: format!("Version of {} from {}", b.path, b.path),
            boundary: false,
        });
    };
    let c = repo.commit(&id)?;
    let (a, k) = (parse_sig(&c.author), parse_sig(&c.committer));
    Ok(Who {
        author: a.name,
        mail: format!("<{}>", a.email),
        time: a.seconds,
        zone: a.offset,
        committer: k.name,
        cmail: format!("<{}>", k.email),
        ctime: k.seconds,
        czone: k.offset,
        summary: subject(&c.message),
        boundary: c.parents.is_empty() && !opts.root,
    })
}

fn digits(n: usize) -> usize {
    n.max(1).to_string().len()
}

impl Origin {
    /// The commit's id, all zeros for a line not committed yet.
    fn hex(&self) -> String {
        self.commit
            .map(|c| c.to_string())
            .unwrap_or_else(|| "0".repeat(40))
    }
}

fn origin(b: &Blamed, i: usize) -> Origin {
    b.origins[i].clone().unwrap_or(Origin {
        commit: None,
        path: b.path.clone(),
        line: i + 1,
    })
}

fn plain(
    inv: &mut Invocation,
    repo: &mut Repo,
    b: &Blamed,
    shown: &[usize],
    opts: &Opts,
) -> Result<()> {
    let abbrev = match (opts.long, opts.abbrev) {
        (true, _) => 40,
        (false, Some(n)) => (n.clamp(4, 39)) + 1,
        (false, None) => {
            repo.config
                .get("core.abbrev")
                .and_then(|v| v.parse::<usize>().ok())
                .unwrap_or(7)
                .clamp(4, 39)
                + 1
        }
    };
    let mut rows = Vec::new();
    for &i in shown {
        let o = origin(b, i);
        let w = who(repo, b, &o, opts)?;
        rows.push((i, o, w));
    }
    let name_w = |w: &Who| {
        if opts.email {
            w.mail.chars().count()
        } else {
            w.author.chars().count()
        }
    };
    let author_w = rows.iter().map(|r| name_w(&r.2)).max().unwrap_or(0);
    let path_w = rows.iter().map(|r| r.1.path.len()).max().unwrap_or(0);
    let show_path = opts.name || rows.iter().any(|r| r.1.path != b.path);
    let line_w = digits(shown.last().map_or(1, |l| l + 1));
    let orig_w = digits(rows.iter().map(|r| r.1.line).max().unwrap_or(1));
    for (i, o, w) in rows {
        let hex = o.hex();
        let mut out = if w.boundary {
            if opts.blank_boundary {
                " ".repeat(abbrev)
            } else {
                format!("^{}", &hex[..abbrev - 1])
            }
        } else {
            hex[..abbrev].to_owned()
        };
        if show_path {
            out.push_str(&format!(" {:<path_w$}", o.path));
        }
        if opts.number {
            out.push_str(&format!(" {:>orig_w$}", o.line));
        }
        if !opts.suppress {
            let name = if opts.email { &w.mail } else { &w.author };
            let pad = author_w - name_w(&w);
            let date = if opts.raw_time {
                format!("{} {}", w.time, zone(w.zone))
            } else {
                format_date(w.time, w.zone, "iso")
            };
            out.push_str(&format!(" ({name}{} {date}", " ".repeat(pad)));
        } else {
            out.push(' ');
        }
        let sep = if opts.suppress { "" } else { " " };
        out.push_str(&format!("{sep}{:>line_w$}) ", i + 1));
        inv.out.write_all(out.as_bytes())?;
        write_line(inv, &b.lines[i])?;
    }
    Ok(())
}

fn write_line(inv: &mut Invocation, line: &[u8]) -> Result<()> {
    inv.out.write_all(line)?;
    if !line.ends_with(b"\n") {
        inv.out.write_all(b"\n")?;
    }
    Ok(())
}

/// `--porcelain`: one header per run of lines from one commit, each
/// commit's details the first time it appears (every line with
/// `--line-porcelain`).
fn porcelain(
    inv: &mut Invocation,
    repo: &mut Repo,
    b: &Blamed,
    shown: &[usize],
    opts: &Opts,
) -> Result<()> {
    let mut seen: HashSet<Option<ObjectId>> = HashSet::new();
    let mut k = 0;
    while k < shown.len() {
        let first = origin(b, shown[k]);
        let mut n = 1;
        while k + n < shown.len() && shown[k + n] == shown[k] + n && {
            let next = origin(b, shown[k + n]);
            next.commit == first.commit && next.line == first.line + n && next.path == first.path
        } {
            n += 1;
        }
        for j in 0..n {
            let i = shown[k + j];
            let o = origin(b, i);
            let hex = o.hex();
            if j == 0 {
                writeln!(inv.out, "{hex} {} {} {n}", o.line, i + 1)?;
            } else {
                writeln!(inv.out, "{hex} {} {}", o.line, i + 1)?;
            }
            if opts.line_porcelain || (j == 0 && seen.insert(o.commit)) {
                details(inv, repo, b, &o, opts)?;
            }
            inv.out.write_all(b"\t")?;
            write_line(inv, &b.lines[i])?;
        }
        k += n;
    }
    Ok(())
}

fn details(
    inv: &mut Invocation,
    repo: &mut Repo,
    b: &Blamed,
    o: &Origin,
    opts: &Opts,
) -> Result<()> {
    let w = who(repo, b, o, opts)?;
    writeln!(
        inv.out,
        "author {}\nauthor-mail {}\nauthor-time {}\nauthor-tz {}\ncommitter {}\ncommitter-mail {}\ncommitter-time {}\ncommitter-tz {}\nsummary {}",
        w.author,
        w.mail,
        w.time,
        zone(w.zone),
        w.committer,
        w.cmail,
        w.ctime,
        zone(w.czone),
        w.summary
    )?;
    if w.boundary {
        writeln!(inv.out, "boundary")?;
    }
    let previous = match o.commit {
        Some(c) => b.facts.previous.get(&c).cloned(),
        None => b.head.map(|h| (h, b.path.clone())),
    };
    if let Some((p, path)) = previous {
        writeln!(inv.out, "previous {p} {path}")?;
    }
    writeln!(inv.out, "filename {}", o.path)?;
    Ok(())
}
