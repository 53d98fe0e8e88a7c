//! `git cat-file (-t | -s | -p | -e | TYPE) OBJECT`.

use std::io::Write;

use crate::Invocation;
use crate::cmd::unsupported;
use crate::error::{Error, Result, fatal};
use crate::objects;
use crate::odb::Kind;

pub fn run(inv: &mut Invocation) -> Result<i32> {
    let args = inv.args.clone();
    let (mode, rev) = match args.as_slice() {
        [m, r] => (m.as_str(), r.as_str()),
        _ => return unsupported("cat-file", &args.join(" ")),
    };
    let mut repo = inv.repo()?;
    let id = match repo.rev_parse(rev)? {
        Some(id) => id,
        None => {
            if let Some((base, path)) = rev.split_once(':') {
                let base = if base.is_empty() { "HEAD" } else { base };
                if repo.rev_parse(base)?.is_some() {
                    return fatal(format!("path '{path}' does not exist in '{base}'"));
                }
            }
            if mode == "-e" {
                return Err(Error::Exit(1));
            }
            return fatal(format!("Not a valid object name {rev}"));
        }
    };
    let Some(obj) = repo.odb.read(&id)? else {
        if mode == "-e" {
            return Err(Error::Exit(1));
        }
        return fatal(format!("Not a valid object name {rev}"));
    };
    match mode {
        "-t" => writeln!(inv.out, "{}", obj.kind.name())?,
        "-s" => writeln!(inv.out, "{}", obj.data.len())?,
        "-e" => {}
        "-p" => match obj.kind {
            Kind::Tree => {
                for e in objects::parse_tree(&obj.data)? {
                    let kind = match e.mode {
                        objects::MODE_TREE => "tree",
                        0o160000 => "commit",
                        _ => "blob",
                    };
                    writeln!(inv.out, "{:06o} {kind} {}\t{}", e.mode, e.id, e.name)?;
                }
            }
            _ => inv.out.write_all(&obj.data)?,
        },
        t => match Kind::from_name(t.as_bytes()) {
            Some(k) if k == obj.kind => inv.out.write_all(&obj.data)?,
            Some(_) => return fatal(format!("git cat-file {rev}: bad file")),
            None => return unsupported("cat-file", t),
        },
    }
    Ok(0)
}
