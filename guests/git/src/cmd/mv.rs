//! `git mv [-f] SOURCE... DESTINATION`.

use crate::Invocation;
use crate::cmd::unsupported;
use crate::error::{Result, fatal};
use crate::index::Index;

pub fn run(inv: &mut Invocation) -> Result<i32> {
    let mut force = false;
    let mut args = Vec::new();
    for a in inv.args.clone() {
        match a.as_str() {
            "-f" | "--force" => force = true,
            s if s.starts_with('-') => return unsupported("mv", s),
            _ => args.push(a),
        }
    }
    let repo = inv.repo()?;
    if args.len() < 2 {
        eprintln!("usage: git mv [<options>] <source>... <destination>");
        return Err(crate::error::Error::Exit(129));
    }
    let dest_arg = args.pop().unwrap_or_default();
    let dest = repo.repo_path(&dest_arg).unwrap_or_default();
    let mut index = Index::load(&repo.git_dir)?;
    let dest_is_dir = repo.work_tree.join(&dest).is_dir();
    for src_arg in &args {
        let src = repo.repo_path(src_arg).unwrap_or_default();
        let target = if dest_is_dir {
            let base = src.rsplit('/').next().unwrap_or(&src);
            if dest.is_empty() {
                base.to_owned()
            } else {
                format!("{dest}/{base}")
            }
        } else {
            dest.clone()
        };
        let shown_target = if dest_is_dir {
            format!(
                "{}/{}",
                dest_arg.trim_end_matches('/'),
                src_arg.rsplit('/').next().unwrap_or(src_arg)
            )
        } else {
            dest_arg.clone()
        };
        let tracked: Vec<String> = index
            .files()
            .into_keys()
            .filter(|p| *p == src || p.starts_with(&format!("{src}/")))
            .collect();
        if !repo.work_tree.join(&src).exists() {
            return fatal(format!(
                "bad source, source={src_arg}, destination={shown_target}"
            ));
        }
        if tracked.is_empty() {
            return fatal(format!(
                "not under version control, source={src_arg}, destination={shown_target}"
            ));
        }
        if repo.work_tree.join(&target).exists() && !force {
            return fatal(format!(
                "destination exists, source={src_arg}, destination={shown_target}"
            ));
        }
        if let Some(parent) = repo.work_tree.join(&target).parent()
            && !parent.is_dir()
        {
            return fatal(format!(
                "renaming '{src_arg}' failed: No such file or directory"
            ));
        }
        std::fs::rename(repo.work_tree.join(&src), repo.work_tree.join(&target))?;
        for p in tracked {
            if let Some(mut e) = index.get(&p).cloned() {
                index.remove(&p);
                let new_path = format!("{target}{}", &p[src.len()..]);
                // git renames the file, then cannot stage the new name: it
                // says so and leaves the path out of the index (exit 0).
                if !crate::verify_path::verify_path(&new_path, e.mode) {
                    crate::checkout::report_invalid(&new_path);
                    continue;
                }
                if let Ok(meta) = crate::meta::lstat(repo.work_tree.join(&new_path)) {
                    e.stat = crate::index::stat_of(&meta);
                }
                index.insert(&new_path, e);
            }
        }
    }
    index.save(&repo.git_dir)?;
    Ok(0)
}
