//! `computer fs ...`: one function per subcommand.

use std::io::{Read, Write};

use base64::Engine;
use computer_store::{
    GrepOptions, MkdirOptions, NodeKind, Page, RmOptions, TextEdit, Workspace, WriteOptions,
};
use serde::Deserialize;
use serde_json::json;

use crate::args::{FsCommand, PageArgs};
use crate::error::{CliError, CliResult};
use crate::output::{Out, mode_string, parse_mode, shown, stat_json, time_string};

/// Runs one `fs` subcommand; returns the process exit code.
pub fn run(ws: &Workspace, cmd: FsCommand, out: Out) -> CliResult<u8> {
    match cmd {
        FsCommand::Grep {
            pattern,
            path,
            regex,
            ignore_case,
            context,
            include,
            page,
            ..
        } => {
            let opts = GrepOptions {
                regex,
                ignore_case,
                context,
                include,
                page: page_of(page),
            };
            grep(ws, &pattern, &path, &opts, out)
        }
        FsCommand::Rm {
            paths,
            recursive,
            force,
        } => rm(ws, &paths, RmOptions { recursive, force }, out),
        other => run_simple(ws, other, out).map(|()| 0),
    }
}

fn run_simple(ws: &Workspace, cmd: FsCommand, out: Out) -> CliResult {
    match cmd {
        FsCommand::Read {
            path,
            offset,
            length,
        } => read(ws, &path, offset, length, out),
        FsCommand::Write {
            path,
            mode,
            exclusive,
            parents,
        } => write(ws, &path, mode.as_deref(), exclusive, parents, out),
        FsCommand::Append { path } => append(ws, &path, out),
        FsCommand::Truncate { path, size } => {
            ws.truncate(&path, size)?;
            out.emit(json!({"path": path, "size": size}), || {});
            Ok(())
        }
        FsCommand::Ls { path, long, page } => ls(ws, &path, long, page, out),
        FsCommand::Stat { path, no_follow } => stat(ws, &path, no_follow, out),
        FsCommand::Mkdir {
            path,
            parents,
            mode,
        } => mkdir(ws, &path, parents, mode.as_deref(), out),
        FsCommand::Mv { from, to } => {
            let to = into_dir(ws, &from, &to)?;
            ws.rename(&from, &to)?;
            out.emit(json!({"from": from, "to": to}), || {});
            Ok(())
        }
        FsCommand::Cp {
            from,
            to,
            recursive,
        } => {
            let to = into_dir(ws, &from, &to)?;
            ws.copy(&from, &to, recursive)?;
            out.emit(json!({"from": from, "to": to}), || {});
            Ok(())
        }
        FsCommand::Ln {
            symbolic,
            target,
            path,
        } => ln(ws, symbolic, &target, &path, out),
        FsCommand::Readlink { path } => {
            let target = ws.readlink(&path)?;
            out.emit(json!({"path": path, "target": target}), || {
                println!("{}", shown(&target))
            });
            Ok(())
        }
        FsCommand::Chmod { mode, path } => {
            let mode = parse_mode(&mode)?;
            ws.chmod(&path, mode)?;
            out.emit(json!({"path": path, "mode": format!("{mode:o}")}), || {});
            Ok(())
        }
        FsCommand::Find { dir, pattern, page } => match pattern {
            Some(pattern) => find(ws, &dir, &pattern, page, out),
            // `fs find PATTERN`, as the MCP tool defaults its dir.
            None => find(ws, "/", &dir, page, out),
        },
        FsCommand::Edit {
            path,
            old,
            new,
            edits,
        } => edit(ws, &path, old, new, edits, out),
        FsCommand::Grep { .. } | FsCommand::Rm { .. } => unreachable!("dispatched in run"),
        FsCommand::Readonly { path, off } => readonly(ws, path.as_deref(), off, out),
    }
}

fn write(
    ws: &Workspace,
    path: &str,
    mode: Option<&str>,
    exclusive: bool,
    parents: bool,
    out: Out,
) -> CliResult {
    let opts = WriteOptions {
        mode: mode.map(parse_mode).transpose()?,
        exclusive,
        create_parents: parents,
    };
    let size = ws.write_from(path, &mut std::io::stdin().lock(), &opts)?;
    out.emit(json!({"path": path, "bytes_written": size}), || {});
    Ok(())
}

/// Bytes of stdin `fs append` reads per append: an endless stdin
/// (`yes | computer fs append /f`) grows the file until the store's file-size
/// cap refuses it, in flat memory.
const APPEND_PIECE: usize = 4 << 20;

fn append(ws: &Workspace, path: &str, out: Out) -> CliResult {
    let mut stdin = std::io::stdin().lock();
    let mut total = 0usize;
    let mut piece = Vec::with_capacity(APPEND_PIECE);
    loop {
        piece.clear();
        (&mut stdin)
            .take(APPEND_PIECE as u64)
            .read_to_end(&mut piece)?;
        // The first append also creates an empty file for an empty stdin.
        if piece.is_empty() && total > 0 {
            break;
        }
        ws.append(path, &piece)?;
        total += piece.len();
        if piece.len() < APPEND_PIECE {
            break;
        }
    }
    out.emit(json!({"path": path, "bytes_appended": total}), || {});
    Ok(())
}

fn stat(ws: &Workspace, path: &str, no_follow: bool, out: Out) -> CliResult {
    let st = if no_follow {
        ws.lstat(path)?
    } else {
        ws.stat(path)?
    };
    out.emit(stat_json(&st, Some(path)), || {
        println!("path: {path}");
        println!("kind: {}", st.kind.as_str());
        println!("mode: {:o}", st.mode);
        println!("size: {}", st.size);
        println!("mtime: {}", time_string(st.mtime_ns));
        println!("ino: {}", st.ino);
    });
    Ok(())
}

fn mkdir(ws: &Workspace, path: &str, parents: bool, mode: Option<&str>, out: Out) -> CliResult {
    let opts = MkdirOptions {
        recursive: parents,
        mode: mode.map(parse_mode).transpose()?,
    };
    ws.mkdir(path, &opts)?;
    out.emit(json!({"path": path}), || {});
    Ok(())
}

fn ln(ws: &Workspace, symbolic: bool, target: &str, path: &str, out: Out) -> CliResult {
    if !symbolic {
        return Err(CliError::invalid(
            "hard links are not supported; use ln -s TARGET PATH for a symbolic link",
        ));
    }
    ws.symlink(target, path)?;
    out.emit(json!({"path": path, "target": target}), || {});
    Ok(())
}

fn find(ws: &Workspace, dir: &str, pattern: &str, page: PageArgs, out: Out) -> CliResult {
    let found = ws.find(dir, pattern, page_of(page))?;
    out.emit(json!(found), || {
        for e in &found.entries {
            let slash = if e.kind == NodeKind::Directory {
                "/"
            } else {
                ""
            };
            println!("{}{slash}", shown(&e.path));
        }
        if let Some(n) = found.next_offset {
            eprintln!("(more results: --offset {n})");
        }
    });
    Ok(())
}

fn readonly(ws: &Workspace, path: Option<&str>, off: bool, out: Out) -> CliResult {
    if let Some(p) = path {
        ws.set_readonly(p, !off)?;
    }
    let list = ws.readonly_paths()?;
    out.emit(json!({"readonly": list}), || {
        for p in &list {
            println!("{}", shown(p));
        }
    });
    Ok(())
}

fn page_of(p: PageArgs) -> Page {
    Page::new(p.offset, p.limit)
}

fn read(ws: &Workspace, path: &str, offset: u64, length: Option<u64>, out: Out) -> CliResult {
    let data = ws.read_range(path, offset, length)?;
    if out.json {
        let doc = match std::str::from_utf8(&data) {
            Ok(text) => json!({"path": path, "size": data.len(), "content": text}),
            Err(_) => json!({
                "path": path,
                "size": data.len(),
                "base64": base64::engine::general_purpose::STANDARD.encode(&data),
            }),
        };
        println!("{doc}");
    } else {
        let mut stdout = std::io::stdout().lock();
        stdout.write_all(&data)?;
        stdout.flush()?;
    }
    Ok(())
}

/// Entries read from the store per page while listing: a directory of
/// 100,000 entries is listed in flat memory.
const LS_PAGE: u64 = 2048;

fn ls(ws: &Workspace, path: &str, long: bool, page: PageArgs, out: Out) -> CliResult {
    // `ls FILE` lists the file itself, as ls(1) does; a symlink to a
    // directory lists the directory.
    let listing_dir = ws
        .stat(path)
        .map(|st| st.kind == NodeKind::Directory)
        .unwrap_or(false);
    if !listing_dir {
        let st = ws.lstat(path)?;
        let mut listing = Listing::start(path, long, out)?;
        listing.entry(ws, path, path, &st)?;
        return listing.finish();
    }
    let base = path.trim_end_matches('/');
    let mut offset = page.offset;
    let mut left = page.limit;
    let page_size = |left: Option<u64>| left.map_or(LS_PAGE, |l| l.min(LS_PAGE));
    // The first page before any output, so a failure is a clean error.
    let mut entries = ws.readdir(path, Page::new(offset, Some(page_size(left))))?;
    let mut listing = Listing::start(path, long, out)?;
    loop {
        let want = page_size(left);
        if want == 0 {
            break;
        }
        if offset != page.offset {
            entries = ws.readdir(path, Page::new(offset, Some(want)))?;
        }
        for e in &entries {
            listing.entry(ws, &format!("{base}/{}", e.name), &e.name, e)?;
        }
        let got = entries.len() as u64;
        offset += got;
        left = left.map(|l| l - got);
        if got < want {
            break;
        }
    }
    listing.finish()
}

/// `fs ls` output, written entry by entry: lines, or one JSON document whose
/// `entries` array is streamed.
struct Listing {
    out: std::io::BufWriter<std::io::Stdout>,
    json: bool,
    long: bool,
    first: bool,
}

impl Listing {
    fn start(path: &str, long: bool, out: Out) -> CliResult<Self> {
        let mut listing = Listing {
            out: std::io::BufWriter::new(std::io::stdout()),
            json: out.json,
            long,
            first: true,
        };
        if listing.json {
            write!(listing.out, "{{\"path\":{},\"entries\":[", json!(path))?;
        }
        Ok(listing)
    }

    /// One entry; `full` is its path, `name` what a line shows.
    fn entry(
        &mut self,
        ws: &Workspace,
        full: &str,
        name: &str,
        e: &computer_store::Stat,
    ) -> CliResult {
        let target = match e.kind {
            NodeKind::Symlink => Some(ws.readlink(full)?),
            _ => None,
        };
        if self.json {
            let mut doc = stat_json(e, None);
            if let Some(t) = &target {
                doc["target"] = json!(t);
            }
            let comma = if self.first { "" } else { "," };
            write!(self.out, "{comma}{doc}")?;
        } else {
            let mut line = shown(name).into_owned();
            if let Some(t) = &target {
                line = format!("{line} -> {}", shown(t));
            }
            if self.long {
                line = format!(
                    "{} {:>10} {} {line}",
                    mode_string(e.kind, e.mode),
                    e.size,
                    time_string(e.mtime_ns)
                );
            }
            writeln!(self.out, "{line}")?;
        }
        self.first = false;
        Ok(())
    }

    fn finish(mut self) -> CliResult {
        if self.json {
            writeln!(self.out, "]}}")?;
        }
        self.out.flush()?;
        Ok(())
    }
}

/// `mv a dir` and `cp a dir` put `a` inside `dir`, as mv(1) and cp(1) do.
fn into_dir(ws: &Workspace, from: &str, to: &str) -> CliResult<String> {
    match ws.stat(to) {
        Ok(st) if st.kind == NodeKind::Directory => {
            let name = from.trim_end_matches('/').rsplit('/').next().unwrap_or("");
            if name.is_empty() {
                return Ok(to.to_owned());
            }
            Ok(format!("{}/{name}", to.trim_end_matches('/')))
        }
        _ => Ok(to.to_owned()),
    }
}

#[derive(Deserialize)]
struct EditArg {
    #[serde(alias = "oldText")]
    old: String,
    #[serde(alias = "newText")]
    new: String,
}

fn edit(
    ws: &Workspace,
    path: &str,
    old: Option<String>,
    new: Option<String>,
    edits: Option<String>,
    out: Out,
) -> CliResult {
    let batch: Vec<TextEdit> = match (old, new, edits) {
        (Some(old), Some(new), None) => vec![TextEdit { old, new }],
        (None, None, Some(json)) => {
            let parsed: Vec<EditArg> = serde_json::from_str(&json).map_err(|e| {
                CliError::invalid(format!(
                    "--edits is not valid: {e}; expected a JSON array like [{{\"old\": \"a\", \"new\": \"b\"}}]"
                ))
            })?;
            parsed
                .into_iter()
                .map(|e| TextEdit {
                    old: e.old,
                    new: e.new,
                })
                .collect()
        }
        _ => {
            return Err(CliError::invalid(
                "give either --old TEXT --new TEXT, or --edits JSON",
            ));
        }
    };
    let result = ws.edit(path, &batch)?;
    out.emit(json!({"path": path, "applied": result.applied, "fuzzy": result.fuzzy, "diff": result.diff}), || {
        print!("{}", result.diff)
    });
    Ok(())
}

fn grep(ws: &Workspace, pattern: &str, path: &str, opts: &GrepOptions, out: Out) -> CliResult<u8> {
    let found = ws.grep(path, pattern, opts)?;
    let context = opts.context;
    out.emit(json!(found), || {
        print_grep_lines(&found.matches, context > 0);
        if let Some(n) = found.next_offset {
            eprintln!("(more matches: --offset {n})");
        }
    });
    // Like grep(1): no match is exit status 1 with no message.
    Ok(if found.matches.is_empty() { 1 } else { 0 })
}

/// Removes each path in turn; like rm(1), a failure does not stop the
/// others, and the exit status reports it.
fn rm(ws: &Workspace, paths: &[String], opts: RmOptions, out: Out) -> CliResult<u8> {
    let mut removed = Vec::new();
    let mut errors = Vec::new();
    for p in paths {
        match ws.rm(p, opts) {
            Ok(()) => removed.push(p.clone()),
            Err(e) => errors.push(e),
        }
    }
    if errors.len() == 1 && removed.is_empty() {
        return Err(errors.remove(0).into());
    }
    if out.json {
        let errs: Vec<_> = errors
            .iter()
            .map(|e| json!({"code": e.code.as_str(), "message": e.message}))
            .collect();
        if errs.is_empty() {
            println!("{}", json!({"removed": removed}));
        } else {
            println!(
                "{}",
                json!({"removed": removed, "error": errs[0], "errors": errs})
            );
        }
    } else {
        for e in &errors {
            eprintln!("computer: {}: {}", e.code, shown(&e.message));
        }
    }
    Ok(if errors.is_empty() { 0 } else { 1 })
}

/// Matches with their context, as GNU grep prints them: a line in several
/// matches' context once (as a match if it is one), and `--` between groups
/// that do not touch, never after the last.
fn print_grep_lines(matches: &[computer_store::GrepMatch], context: bool) {
    use std::collections::BTreeMap;
    let mut i = 0;
    let mut groups = 0;
    while i < matches.len() {
        let path = &matches[i].path;
        // One file's lines: number → (is a match, text).
        let mut lines: BTreeMap<usize, (bool, &str)> = BTreeMap::new();
        while i < matches.len() && matches[i].path == *path {
            let m = &matches[i];
            let n = m.line_number as usize;
            for (k, l) in m.before.iter().enumerate() {
                lines.entry(n - m.before.len() + k).or_insert((false, l));
            }
            lines.insert(n, (true, &m.line));
            for (k, l) in m.after.iter().enumerate() {
                lines.entry(n + 1 + k).or_insert((false, l));
            }
            i += 1;
        }
        let shown_path = shown(path);
        let mut previous: Option<usize> = None;
        for (n, (is_match, text)) in lines {
            let touches = previous.is_some_and(|p| n == p + 1);
            if context && groups > 0 && !touches {
                println!("--");
            }
            if !touches {
                groups += 1;
            }
            let sep = if is_match { ':' } else { '-' };
            println!("{shown_path}{sep}{n}{sep}{}", line_shown(text));
            previous = Some(n);
        }
    }
}

/// A matched line for people: tabs kept (code is indented with them), every
/// other control character escaped, so file contents cannot rewrite the
/// terminal's earlier lines.
fn line_shown(line: &str) -> String {
    line.split('\t')
        .map(|part| shown(part).into_owned())
        .collect::<Vec<_>>()
        .join("\t")
}
