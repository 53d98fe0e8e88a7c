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
use crate::output::{Out, mode_string, parse_mode, stat_json, time_string};

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
                println!("{target}")
            });
            Ok(())
        }
        FsCommand::Chmod { mode, path } => {
            let mode = parse_mode(&mode)?;
            ws.chmod(&path, mode)?;
            out.emit(json!({"path": path, "mode": format!("{mode:o}")}), || {});
            Ok(())
        }
        FsCommand::Find { dir, pattern, page } => find(ws, &dir, &pattern, page, out),
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

fn append(ws: &Workspace, path: &str, out: Out) -> CliResult {
    let mut data = Vec::new();
    std::io::stdin().lock().read_to_end(&mut data)?;
    ws.append(path, &data)?;
    out.emit(json!({"path": path, "bytes_appended": data.len()}), || {});
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
            println!("{}{slash}", e.path);
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
            println!("{p}");
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

fn ls(ws: &Workspace, path: &str, long: bool, page: PageArgs, out: Out) -> CliResult {
    // `ls FILE` lists the file itself, as ls(1) does; a symlink to a
    // directory lists the directory.
    let listing_dir = ws
        .stat(path)
        .map(|st| st.kind == NodeKind::Directory)
        .unwrap_or(false);
    let entries: Vec<(String, computer_store::Stat)> = if listing_dir {
        let base = path.trim_end_matches('/');
        ws.readdir(path, page_of(page))?
            .into_iter()
            .map(|e| (format!("{base}/{}", e.name), e))
            .collect()
    } else {
        vec![(path.to_owned(), ws.lstat(path)?)]
    };
    let mut docs = Vec::with_capacity(entries.len());
    let mut lines = Vec::with_capacity(entries.len());
    for (full, e) in &entries {
        let mut doc = stat_json(e, None);
        let mut line = if listing_dir {
            e.name.clone()
        } else {
            full.clone()
        };
        if e.kind == NodeKind::Symlink {
            let target = ws.readlink(full)?;
            line = format!("{line} -> {target}");
            doc["target"] = json!(target);
        }
        if long {
            line = format!(
                "{} {:>10} {} {line}",
                mode_string(e.kind, e.mode),
                e.size,
                time_string(e.mtime_ns)
            );
        }
        docs.push(doc);
        lines.push(line);
    }
    out.emit(json!({"path": path, "entries": docs}), || {
        for l in &lines {
            println!("{l}");
        }
    });
    Ok(())
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
        for m in &found.matches {
            let first = m.line_number as usize - m.before.len();
            for (i, l) in m.before.iter().enumerate() {
                println!("{}-{}-{l}", m.path, first + i);
            }
            println!("{}:{}:{}", m.path, m.line_number, m.line);
            for (i, l) in m.after.iter().enumerate() {
                println!("{}-{}-{l}", m.path, m.line_number as usize + 1 + i);
            }
            if context > 0 {
                println!("--");
            }
        }
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
            eprintln!("computer: {}: {}", e.code, e.message);
        }
    }
    Ok(if errors.is_empty() { 0 } else { 1 })
}
