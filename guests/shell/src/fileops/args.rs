//! The command line `cp` and `mv` share: single-letter flags (clustered), their
//! long names, `-t DIR`/`--target-directory=DIR`, `-T`, `--`, and the operands,
//! resolved into sources and a destination as GNU does.

use std::path::{Path, PathBuf};

#[derive(Debug)]
pub struct Parsed {
    /// The single-letter flags given, long options mapped onto their letters.
    pub flags: Vec<char>,
    pub target_dir: Option<String>,
    pub operands: Vec<String>,
}

impl Parsed {
    pub fn has(&self, c: char) -> bool {
        self.flags.contains(&c)
    }
    /// The last of several flags that override each other (`-f`/`-i`/`-n`).
    pub fn last_of(&self, set: &[char]) -> Option<char> {
        self.flags.iter().rev().find(|c| set.contains(c)).copied()
    }
}

/// `command: MESSAGE` and the hint GNU adds to usage errors.
pub fn usage(command: &str, message: &str) -> String {
    format!("{command}: {message}\nTry '{command} --help' for more information.\n")
}

/// Parse `args`: `letters` are the flags the command knows, `longs` maps long
/// options to them.
pub fn parse(
    command: &str,
    args: &[String],
    letters: &str,
    longs: &[(&str, char)],
) -> Result<Parsed, String> {
    let mut p = Parsed {
        flags: Vec::new(),
        target_dir: None,
        operands: Vec::new(),
    };
    let mut i = 0;
    let mut done = false;
    while i < args.len() {
        let arg = &args[i];
        i += 1;
        if done || arg == "-" || !arg.starts_with('-') {
            p.operands.push(arg.clone());
        } else if arg == "--" {
            done = true;
        } else if let Some(long) = arg.strip_prefix("--") {
            let (name, value) = match long.split_once('=') {
                Some((n, v)) => (n, Some(v.to_string())),
                None => (long, None),
            };
            if name == "target-directory" {
                let dir = value.or_else(|| args.get(i).cloned()).ok_or_else(|| {
                    usage(command, "option '--target-directory' requires an argument")
                })?;
                i += usize::from(!long.contains('='));
                p.target_dir = Some(dir);
                continue;
            }
            // `--update=none` is `-n`; `--preserve=...` and friends take values we
            // do not look at.
            let name = if long == "update=none" {
                "no-clobber"
            } else {
                name
            };
            match longs.iter().find(|(n, _)| *n == name) {
                Some((_, c)) => p.flags.push(*c),
                None => return Err(usage(command, &format!("unrecognized option '{arg}'"))),
            }
        } else {
            let chars: Vec<char> = arg[1..].chars().collect();
            for (k, &c) in chars.iter().enumerate() {
                if c == 't' {
                    let rest: String = chars[k + 1..].iter().collect();
                    let dir = if rest.is_empty() {
                        i += 1;
                        args.get(i - 1)
                            .cloned()
                            .ok_or_else(|| usage(command, "option requires an argument -- 't'"))?
                    } else {
                        rest
                    };
                    p.target_dir = Some(dir);
                    break;
                }
                if !letters.contains(c) {
                    return Err(usage(command, &format!("invalid option -- '{c}'")));
                }
                p.flags.push(c);
            }
        }
    }
    Ok(p)
}

/// One thing to copy or move: the operand as given, and where it goes.
pub struct Job {
    pub source: String,
    pub dest: String,
}

/// The sources and the target operand (`-t DIR`, else the last operand).
pub fn split(command: &str, p: &Parsed) -> Result<(Vec<String>, String), String> {
    let mut operands = p.operands.clone();
    if operands.is_empty() {
        return Err(usage(command, "missing file operand"));
    }
    let target = match &p.target_dir {
        Some(dir) => dir.clone(),
        None if operands.len() == 1 => {
            let msg = format!("missing destination file operand after '{}'", operands[0]);
            return Err(usage(command, &msg));
        }
        None => operands.pop().unwrap_or_default(),
    };
    Ok((operands, target))
}

/// Pair sources with destinations: into the target when it is a directory (or
/// `-t` named it), else onto the target itself, which takes one source only.
pub fn jobs(
    command: &str,
    p: &Parsed,
    (sources, target): (Vec<String>, String),
    target_is_dir: bool,
) -> Result<Vec<Job>, String> {
    let into_dir = if p.has('T') {
        if sources.len() > 1 {
            return Err(usage(command, &format!("extra operand '{}'", sources[1])));
        }
        false
    } else {
        p.target_dir.is_some() || target_is_dir
    };
    if !into_dir && sources.len() > 1 {
        return Err(format!("{command}: target '{target}' is not a directory\n"));
    }
    Ok(sources
        .into_iter()
        .map(|source| {
            let dest = if into_dir {
                join(&target, &base_name(&source))
            } else {
                target.clone()
            };
            Job { source, dest }
        })
        .collect())
}

/// The last component of an operand as given: `a/b/` gives `b`, `a/.` gives `.`.
pub fn base_name(operand: &str) -> String {
    let trimmed = operand.trim_end_matches('/');
    if trimmed.is_empty() {
        return "/".to_string();
    }
    trimmed.rsplit('/').next().unwrap_or(trimmed).to_string()
}

fn join(dir: &str, name: &str) -> String {
    if name == "." {
        return dir.to_string();
    }
    if dir.ends_with('/') {
        format!("{dir}{name}")
    } else {
        format!("{dir}/{name}")
    }
}

pub fn resolve(cwd: &Path, operand: &str) -> PathBuf {
    bashkit::normalize_path(&bashkit::vfs_join(cwd, operand))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert_eq!(base_name("a/b/"), "b");
        assert_eq!(base_name("a/."), ".");
        assert_eq!(join("d/", "x"), "d/x");
        assert_eq!(join("d", "."), "d");
    }

    #[test]
    fn clusters_and_targets() {
        let args: Vec<String> = ["-rvt", "out", "a", "b"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let p = parse("cp", &args, "rv", &[]).unwrap();
        assert!(p.has('r') && p.has('v'));
        assert_eq!(p.target_dir.as_deref(), Some("out"));
        assert_eq!(p.operands, vec!["a", "b"]);
        let bad: Vec<String> = vec!["-z".into()];
        assert!(
            parse("cp", &bad, "rv", &[])
                .unwrap_err()
                .contains("invalid option -- 'z'")
        );
    }
}
