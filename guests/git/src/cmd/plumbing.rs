//! Plumbing agents reach for: `symbolic-ref`, `ls-tree`, `hash-object`.

use std::io::Write;

use crate::Invocation;
use crate::cmd::unsupported;
use crate::error::{Error, Result, fatal};
use crate::objects::{self, MODE_TREE};
use crate::odb::{self, Kind};

pub fn symbolic_ref(inv: &mut Invocation) -> Result<i32> {
    let mut short = false;
    let mut quiet = false;
    let mut rest = Vec::new();
    for a in inv.args.clone() {
        match a.as_str() {
            "--short" => short = true,
            "-q" | "--quiet" => quiet = true,
            s if s.starts_with('-') => return unsupported("symbolic-ref", s),
            _ => rest.push(a),
        }
    }
    let repo = inv.repo()?;
    match rest.as_slice() {
        [name] => {
            let content = repo.read_ref_file(name).unwrap_or_default();
            match content.strip_prefix("ref: ") {
                Some(target) => {
                    let shown = if short {
                        target.strip_prefix("refs/heads/").unwrap_or(target)
                    } else {
                        target
                    };
                    writeln!(inv.out, "{shown}")?;
                    Ok(0)
                }
                None if quiet => Err(Error::Exit(1)),
                None => fatal(format!("ref {name} is not a symbolic ref")),
            }
        }
        [name, target] => {
            if !target.starts_with("refs/") {
                return fatal(format!("Refusing to point {name} at non-ref target"));
            }
            std::fs::write(repo.git_dir.join(name), format!("ref: {target}\n"))?;
            Ok(0)
        }
        _ => unsupported("symbolic-ref", &rest.join(" ")),
    }
}

pub fn ls_tree(inv: &mut Invocation) -> Result<i32> {
    let (mut recursive, mut name_only, mut trees_too) = (false, false, false);
    let mut rest = Vec::new();
    for a in inv.args.clone() {
        match a.as_str() {
            "-r" => recursive = true,
            "--name-only" | "--name-status" => name_only = true,
            "-t" => trees_too = true,
            s if s.starts_with('-') => return unsupported("ls-tree", s),
            _ => rest.push(a),
        }
    }
    let mut repo = inv.repo()?;
    let Some(rev) = rest.first().cloned() else {
        eprintln!("usage: git ls-tree [<options>] <tree-ish> [<path>...]");
        return Err(Error::Exit(129));
    };
    let Some(id) = repo.rev_parse(&rev)? else {
        return fatal("Not a valid object name ".to_owned() + &rev);
    };
    let tree = repo.tree_of(&id)?;
    let paths: Vec<String> = rest[1..].iter().filter_map(|p| repo.repo_path(p)).collect();
    let mut stack = vec![(tree, String::new())];
    let mut lines = Vec::new();
    while let Some((t, prefix)) = stack.pop() {
        let data = repo.odb.must_read(&t)?.data;
        for e in objects::parse_tree(&data)? {
            let path = format!("{prefix}{}", e.name);
            let wanted = paths.is_empty()
                || paths.iter().any(|p| {
                    *p == path
                        || path.starts_with(&format!("{p}/"))
                        || p.starts_with(&format!("{path}/"))
                });
            if !wanted {
                continue;
            }
            let is_tree = e.mode == MODE_TREE;
            let descend =
                is_tree && (recursive || paths.iter().any(|p| p.starts_with(&format!("{path}/"))));
            if descend {
                stack.push((e.id, format!("{path}/")));
                if !trees_too {
                    continue;
                }
            }
            let kind = match e.mode {
                MODE_TREE => "tree",
                0o160000 => "commit",
                _ => "blob",
            };
            lines.push((path, e.mode, kind, e.id));
        }
    }
    lines.sort_by(|a, b| a.0.cmp(&b.0));
    for (path, mode, kind, id) in lines {
        let shown = repo.display_path(&path);
        if name_only {
            writeln!(inv.out, "{shown}")?;
        } else {
            writeln!(inv.out, "{mode:06o} {kind} {id}\t{shown}")?;
        }
    }
    Ok(0)
}

pub fn hash_object(inv: &mut Invocation) -> Result<i32> {
    let mut write = false;
    let mut stdin = false;
    let mut files = Vec::new();
    for a in inv.args.clone() {
        match a.as_str() {
            "-w" => write = true,
            "--stdin" => stdin = true,
            s if s.starts_with('-') => return unsupported("hash-object", s),
            _ => files.push(a),
        }
    }
    let mut inputs = Vec::new();
    if stdin {
        inputs.push(std::io::read_to_string(std::io::stdin())?.into_bytes());
    }
    for f in &files {
        match std::fs::read(f) {
            Ok(d) => inputs.push(d),
            Err(e) => return fatal(format!("could not open '{f}' for reading: {e}")),
        }
    }
    let mut repo = if write { Some(inv.repo()?) } else { None };
    for data in inputs {
        let id = match &mut repo {
            Some(r) => r.odb.write(Kind::Blob, &data)?,
            None => odb::hash(Kind::Blob, &data),
        };
        writeln!(inv.out, "{id}")?;
    }
    Ok(0)
}
