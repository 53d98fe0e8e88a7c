//! `git config [--global|--local] KEY [VALUE]`, `--get`, `--unset`, `--list`.

use std::io::Write as _;

use crate::Invocation;
use crate::cmd::unsupported;
use crate::config::{self, Config, ConfigFile};
use crate::error::{Error, Result, fatal};
use crate::repo::Repo;

pub fn run(inv: &mut Invocation) -> Result<i32> {
    let mut global = false;
    let mut local = false;
    let mut list = false;
    let mut unset = false;
    let mut rest = Vec::new();
    for a in inv.args.clone() {
        match a.as_str() {
            "--global" => global = true,
            "--local" => {
                global = false;
                local = true;
            }
            "-l" | "--list" => list = true,
            "--unset" => unset = true,
            "--get" => {}
            s if s.starts_with('-') => return unsupported("config", s),
            _ => rest.push(a),
        }
    }
    let repo = Repo::discover(&inv.overrides).ok();
    if list {
        let cfg = Config::load(repo.as_ref().map(|r| r.git_dir.as_path()), &[]);
        let has_global = usize::from(config::global_path().is_some());
        let files: Vec<&ConfigFile> = if global {
            cfg.files.iter().take(has_global).collect()
        } else if local {
            cfg.files.iter().skip(has_global).collect()
        } else {
            cfg.files.iter().collect()
        };
        for f in files {
            for (s, sub, k, v) in f.entries() {
                match sub {
                    Some(sub) => writeln!(inv.out, "{s}.{sub}.{k}={v}")?,
                    None => writeln!(inv.out, "{s}.{k}={v}")?,
                }
            }
        }
        for (k, v) in &inv.overrides {
            writeln!(inv.out, "{}={v}", k.to_ascii_lowercase())?;
        }
        return Ok(0);
    }
    let path = if global {
        match config::global_path() {
            Some(p) => p,
            None => return fatal("$HOME not set"),
        }
    } else {
        match &repo {
            Some(r) => r.git_dir.join("config"),
            None if rest.len() >= 2 || unset => return fatal("not in a git directory"),
            None => std::path::PathBuf::new(),
        }
    };
    match rest.as_slice() {
        [key] if unset => {
            let mut f = ConfigFile::load(&path);
            if f.unset(key)? { Ok(0) } else { Ok(5) }
        }
        [key] => {
            if config::split_key(key).is_none() {
                eprintln!("error: key does not contain a section: {key}");
                return Err(Error::Exit(1));
            }
            let value = if global {
                ConfigFile::load(&path).get(key)
            } else {
                let cfg = Config::load(repo.as_ref().map(|r| r.git_dir.as_path()), &inv.overrides);
                cfg.get(key)
            };
            match value {
                Some(v) => {
                    writeln!(inv.out, "{v}")?;
                    Ok(0)
                }
                None => Ok(1),
            }
        }
        [key, value] => {
            if config::split_key(key).is_none() {
                eprintln!("error: key does not contain a section: {key}");
                return Err(Error::Exit(2));
            }
            ConfigFile::load(&path).set(key, value)?;
            Ok(0)
        }
        _ => unsupported("config", &rest.join(" ")),
    }
}
