//! `git tag` (list, `-l PATTERN`), `git tag NAME [REV]`, `-a -m`, `-d`.

use std::io::Write;

use crate::Invocation;
use crate::cmd::commit::cleanup;
use crate::cmd::unsupported;
use crate::error::{Error, Result, fatal};
use crate::ident::Ident;
use crate::odb::Kind;

pub fn run(inv: &mut Invocation) -> Result<i32> {
    let mut annotate = false;
    let mut delete = false;
    let mut list = false;
    let mut annotations = false;
    let mut force = false;
    let mut message: Option<String> = None;
    // (--contains rather than --points-at, the revision)
    let mut filter: Option<(bool, String)> = None;
    let mut rest = Vec::new();
    let args = inv.args.clone();
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "-a" | "--annotate" => annotate = true,
            "-d" | "--delete" => delete = true,
            "-l" | "--list" => list = true,
            "-n" => {
                list = true;
                annotations = true;
            }
            "-f" | "--force" => force = true,
            "-m" | "--message" => {
                i += 1;
                let m = args.get(i).cloned().unwrap_or_default();
                // Each -m is a paragraph, as with commit.
                message = Some(match message {
                    Some(before) => format!("{before}\n\n{m}"),
                    None => m,
                });
                annotate = true;
            }
            "--contains" | "--points-at" => {
                i += 1;
                let rev = args.get(i).cloned().unwrap_or_else(|| "HEAD".to_owned());
                filter = Some((args[i - 1] == "--contains", rev));
                list = true;
            }
            s if s.starts_with('-') => return unsupported("tag", s),
            s => rest.push(s.to_owned()),
        }
        i += 1;
    }
    let mut repo = inv.repo()?;
    if delete {
        let mut code = 0;
        for n in &rest {
            let name = format!("refs/tags/{n}");
            match repo.resolve_ref(&name) {
                Some(id) => {
                    crate::cmd::branch::delete_ref(&repo, &name)?;
                    let a = repo.abbrev(&id);
                    writeln!(inv.out, "Deleted tag '{n}' (was {a})")?;
                }
                None => {
                    eprintln!("error: tag '{n}' not found.");
                    code = 1;
                }
            }
        }
        return if code == 0 {
            Ok(0)
        } else {
            Err(Error::Exit(code))
        };
    }
    if list || rest.is_empty() {
        let wanted = match &filter {
            Some((contains, rev)) => Some((*contains, repo.must_rev(rev)?)),
            None => None,
        };
        for (name, id) in repo.refs_under("refs/tags/") {
            let short = &name[10..];
            if let Some((contains, rev)) = wanted
                && !selected(&mut repo, &id, contains, rev)?
            {
                continue;
            }
            if rest.is_empty()
                || rest.iter().any(|p| {
                    gix_glob::wildmatch(
                        p.as_str().into(),
                        short.into(),
                        gix_glob::wildmatch::Mode::empty(),
                    )
                })
            {
                if annotations {
                    let id = repo
                        .resolve_ref(&name)
                        .unwrap_or_else(|| gix_hash::ObjectId::null(gix_hash::Kind::Sha1));
                    let obj = repo.odb.must_read(&id)?;
                    let subject = match obj.kind {
                        Kind::Tag => {
                            let text = String::from_utf8_lossy(&obj.data).into_owned();
                            let msg = text
                                .split_once("\n\n")
                                .map(|(_, m)| m.to_owned())
                                .unwrap_or_default();
                            msg.lines().next().unwrap_or("").to_owned()
                        }
                        Kind::Commit => crate::cmd::pretty::subject(
                            &crate::objects::parse_commit(&obj.data)?.message,
                        ),
                        _ => String::new(),
                    };
                    writeln!(inv.out, "{short:<15} {subject}")?;
                } else {
                    writeln!(inv.out, "{short}")?;
                }
            }
        }
        return Ok(0);
    }
    let name = rest[0].clone();
    let refname = format!("refs/tags/{name}");
    if repo.resolve_ref(&refname).is_some() && !force {
        return fatal(format!("tag '{name}' already exists"));
    }
    let target = match rest.get(1) {
        Some(r) => match repo.rev_parse(r)? {
            Some(id) => id,
            None => return fatal(format!("Failed to resolve '{r}' as a valid ref.")),
        },
        None => match repo.head_commit()? {
            Some(h) => h,
            None => return fatal("Failed to resolve 'HEAD' as a valid ref."),
        },
    };
    let id = if annotate {
        let Some(message) = message else {
            return unsupported("tag", "-a without -m (an editor)");
        };
        let kind = repo.odb.must_read(&target)?.kind;
        let tagger = Ident::of("COMMITTER", &repo.config)?;
        let body = format!(
            "object {target}\ntype {}\ntag {name}\ntagger {}\n\n{}",
            kind.name(),
            tagger.header(),
            cleanup(&message)
        );
        repo.odb.write(Kind::Tag, body.as_bytes())?
    } else {
        target
    };
    repo.write_ref(&refname, &id)?;
    Ok(0)
}

/// Whether the tag at `id` contains `rev` in its history (`--contains`),
/// or points at it (`--points-at`, directly or once peeled).
fn selected(
    repo: &mut crate::repo::Repo,
    id: &gix_hash::ObjectId,
    contains: bool,
    rev: gix_hash::ObjectId,
) -> Result<bool> {
    let Ok(commit) = repo.peel_to_commit(id) else {
        return Ok(false);
    };
    if !contains {
        return Ok(*id == rev || commit == rev);
    }
    let Ok(rev) = repo.peel_to_commit(&rev) else {
        return Ok(false);
    };
    let history = crate::cmd::log::walk(repo, &[commit], &[], None)?;
    Ok(history.iter().any(|(c, _)| *c == rev))
}
