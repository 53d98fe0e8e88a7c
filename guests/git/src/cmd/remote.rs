//! `git remote [-v]` and `git remote get-url NAME`: the remotes in config.

use std::io::Write;

use crate::Invocation;
use crate::cmd::unsupported;
use crate::error::{Result, fatal};

pub fn run(inv: &mut Invocation) -> Result<i32> {
    let repo = inv.repo()?;
    let mut remotes: Vec<(String, String)> = Vec::new();
    for f in &repo.config.files {
        for (s, sub, k, v) in f.entries() {
            if s == "remote"
                && k == "url"
                && let Some(name) = sub
            {
                remotes.retain(|(n, _)| *n != name);
                remotes.push((name, v));
            }
        }
    }
    remotes.sort();
    let args = inv.args.clone();
    match args
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        [] => {
            for (n, _) in &remotes {
                writeln!(inv.out, "{n}")?;
            }
        }
        ["-v"] | ["--verbose"] => {
            for (n, u) in &remotes {
                writeln!(inv.out, "{n}\t{u} (fetch)\n{n}\t{u} (push)")?;
            }
        }
        ["get-url", name] => match remotes.iter().find(|(n, _)| n == name) {
            Some((_, u)) => writeln!(inv.out, "{u}")?,
            None => return fatal(format!("No such remote '{name}'")),
        },
        _ => return unsupported("remote", &args.join(" ")),
    }
    Ok(0)
}
