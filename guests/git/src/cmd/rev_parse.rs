//! `git rev-parse [--short[=N]] [--abbrev-ref] [--verify] [-q] REV...`,
//! `--show-toplevel`, `--git-dir`, `--is-inside-work-tree`, `--show-prefix`.

use std::io::Write;

use crate::Invocation;
use crate::cmd::unsupported;
use crate::error::{Error, Result};
use crate::repo::Head;

pub fn run(inv: &mut Invocation) -> Result<i32> {
    let mut short: Option<usize> = None;
    let mut abbrev_ref = false;
    let mut verify = false;
    let mut quiet = false;
    let mut symbolic = false;
    let mut repo = inv.repo()?;
    for a in inv.args.clone() {
        match a.as_str() {
            "--show-toplevel" => writeln!(inv.out, "{}", repo.work_tree.display())?,
            "--git-dir" => {
                if repo.prefix.is_empty() {
                    writeln!(inv.out, ".git")?
                } else {
                    writeln!(inv.out, "{}", repo.git_dir.display())?
                }
            }
            "--absolute-git-dir" => writeln!(inv.out, "{}", repo.git_dir.display())?,
            "--is-inside-work-tree" => writeln!(inv.out, "{}", !inside_git_dir(&repo))?,
            "--is-inside-git-dir" => writeln!(inv.out, "{}", inside_git_dir(&repo))?,
            "--is-bare-repository" => writeln!(inv.out, "false")?,
            "--symbolic-full-name" => symbolic = true,
            "--show-prefix" => writeln!(inv.out, "{}", repo.prefix)?,
            "--show-cdup" => {
                let depth = repo.prefix.matches('/').count();
                writeln!(inv.out, "{}", "../".repeat(depth))?
            }
            "--short" => short = Some(7),
            s if s.starts_with("--short=") => short = s[8..].parse().ok(),
            "--abbrev-ref" => abbrev_ref = true,
            "--verify" => verify = true,
            "-q" | "--quiet" => quiet = true,
            "--" => {}
            s if s.starts_with('-') => return unsupported("rev-parse", s),
            rev => {
                if abbrev_ref && rev == "HEAD" {
                    match repo.head()? {
                        Head::Branch(b, Some(_)) => {
                            writeln!(inv.out, "{b}")?;
                            continue;
                        }
                        Head::Detached(_) => {
                            writeln!(inv.out, "HEAD")?;
                            continue;
                        }
                        Head::Branch(_, None) => {}
                    }
                }
                if symbolic && let Some(full) = full_name(&repo, rev)? {
                    writeln!(inv.out, "{full}")?;
                    continue;
                }
                match repo.rev_parse(rev)? {
                    Some(_) if symbolic => {}
                    Some(id) if abbrev_ref => {
                        let name = if repo.resolve_ref(&format!("refs/heads/{rev}")).is_some() {
                            rev.to_owned()
                        } else {
                            id.to_string()
                        };
                        writeln!(inv.out, "{name}")?;
                    }
                    Some(id) => match short {
                        Some(n) => {
                            let hex = id.to_string();
                            let a = repo.abbrev(&id);
                            let out = if n > a.len() {
                                hex[..n.min(40)].to_owned()
                            } else {
                                a
                            };
                            writeln!(inv.out, "{out}")?;
                        }
                        None => writeln!(inv.out, "{id}")?,
                    },
                    None if verify => {
                        if quiet {
                            return Err(Error::Exit(1));
                        }
                        return Err(Error::Fatal("Needed a single revision".into()));
                    }
                    None => {
                        writeln!(inv.out, "{rev}")?;
                        let _ = inv.out.flush();
                        return Err(Error::Fatal(format!(
                            "ambiguous argument '{rev}': unknown revision or path not in the working tree.\nUse '--' to separate paths from revisions, like this:\n'git <command> [<revision>...] -- [<file>...]'"
                        )));
                    }
                }
            }
        }
    }
    Ok(0)
}

fn inside_git_dir(repo: &crate::repo::Repo) -> bool {
    std::env::current_dir().is_ok_and(|d| d.starts_with(&repo.git_dir))
}

/// `--symbolic-full-name`: the ref a name means (HEAD: its branch).
fn full_name(repo: &crate::repo::Repo, rev: &str) -> Result<Option<String>> {
    if rev == "HEAD" || rev == "@" {
        return Ok(Some(match repo.head()? {
            Head::Branch(b, _) => format!("refs/heads/{b}"),
            Head::Detached(_) => "HEAD".to_owned(),
        }));
    }
    for full in [
        rev.to_owned(),
        format!("refs/{rev}"),
        format!("refs/tags/{rev}"),
        format!("refs/heads/{rev}"),
        format!("refs/remotes/{rev}"),
    ] {
        if full.starts_with("refs/") && repo.resolve_ref(&full).is_some() {
            return Ok(Some(full));
        }
    }
    Ok(None)
}
