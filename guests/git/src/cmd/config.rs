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
    let mut regexp = false;
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
            "--get-regexp" => regexp = true,
            s if s.starts_with('-') => return unsupported("config", s),
            _ => rest.push(a),
        }
    }
    let repo = Repo::discover(&inv.overrides).ok();
    if regexp {
        let pattern = rest.first().cloned().unwrap_or_default();
        let cfg = Config::load(repo.as_ref().map(|r| r.git_dir.as_path()), &inv.overrides);
        let mut found = false;
        for f in &cfg.files {
            for (s, sub, k, v) in f.entries() {
                let key = match sub {
                    Some(sub) => format!("{s}.{sub}.{k}"),
                    None => format!("{s}.{k}"),
                };
                if simple_match(&pattern, &key) {
                    writeln!(inv.out, "{key} {v}")?;
                    found = true;
                }
            }
        }
        return Ok(if found { 0 } else { 1 });
    }
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

/// The regexes agents give `--get-regexp` (`^user\.`, `name$`, `remote\..*\.url`):
/// anchors, `.` and `.*`, `\.` for a dot; anything else is matched as text.
fn simple_match(pattern: &str, text: &str) -> bool {
    let anchored_start = pattern.starts_with('^');
    let anchored_end = pattern.ends_with('$') && !pattern.ends_with("\\$");
    let body = pattern.trim_start_matches('^');
    let body = if anchored_end {
        &body[..body.len() - 1]
    } else {
        body
    };
    // Tokens: literal chars, `.` (any), `.*` (any run).
    let mut tokens: Vec<Option<char>> = Vec::new(); // None = any char
    let mut stars: Vec<bool> = Vec::new();
    let mut chars = body.chars().peekable();
    while let Some(c) = chars.next() {
        let tok = match c {
            '\\' => chars.next().map(Some).unwrap_or(Some('\\')),
            '.' => None,
            c => Some(c),
        };
        let star = chars.peek() == Some(&'*');
        if star {
            chars.next();
        }
        tokens.push(tok);
        stars.push(star);
    }
    let t: Vec<char> = text.chars().collect();
    fn go(tokens: &[Option<char>], stars: &[bool], t: &[char], end: bool) -> bool {
        match tokens.first() {
            None => !end || t.is_empty(),
            Some(tok) => {
                let fits = |c: &char| tok.is_none_or(|x| x == *c);
                if stars[0] {
                    let mut i = 0;
                    loop {
                        if go(&tokens[1..], &stars[1..], &t[i..], end) {
                            return true;
                        }
                        if i < t.len() && fits(&t[i]) {
                            i += 1;
                        } else {
                            return false;
                        }
                    }
                }
                !t.is_empty() && fits(&t[0]) && go(&tokens[1..], &stars[1..], &t[1..], end)
            }
        }
    }
    if anchored_start {
        return go(&tokens, &stars, &t, anchored_end);
    }
    (0..=t.len()).any(|i| go(&tokens, &stars, &t[i..], anchored_end))
}
