//! `git init [-q] [-b NAME | --initial-branch=NAME] [DIR]`.

use std::fs;
use std::path::PathBuf;

use crate::Invocation;
use crate::cmd::unsupported;
use crate::config::Config;
use crate::error::Result;

const HINT: &str = "hint: Using 'master' as the name for the initial branch. This default branch name\nhint: is subject to change. To configure the initial branch name to use in all\nhint: of your new repositories, which will suppress this warning, call:\nhint: \nhint: \tgit config --global init.defaultBranch <name>\nhint: \nhint: Names commonly chosen instead of 'master' are 'main', 'trunk' and\nhint: 'development'. The just-created branch can be renamed via this command:\nhint: \nhint: \tgit branch -m <name>\n";

const CONFIG: &str = "[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n\tlogallrefupdates = true\n";
const DESCRIPTION: &str =
    "Unnamed repository; edit this file 'description' to name the repository.\n";
const EXCLUDE: &str = "# git ls-files --others --exclude-from=.git/info/exclude\n# Lines that start with '#' are comments.\n# For a project mostly in C, the following would be a good set of\n# exclude patterns (uncomment them if you want to use them):\n# *.[oa]\n# *~\n";

pub fn run(inv: &mut Invocation) -> Result<i32> {
    let mut quiet = false;
    let mut branch = None;
    let mut dir = None;
    let mut i = 0;
    while i < inv.args.len() {
        let a = inv.args[i].clone();
        match a.as_str() {
            "-q" | "--quiet" => quiet = true,
            "-b" | "--initial-branch" => {
                i += 1;
                branch = inv.args.get(i).cloned();
            }
            s if s.starts_with("--initial-branch=") => branch = Some(s[17..].to_owned()),
            s if s.starts_with('-') => return unsupported("init", s),
            _ => dir = Some(a),
        }
        i += 1;
    }
    let cwd = std::env::current_dir()?;
    let top: PathBuf = match &dir {
        Some(d) => {
            let p = cwd.join(d);
            fs::create_dir_all(&p)?;
            p
        }
        None => cwd,
    };
    let top = crate::repo::normalize(&top);
    let git_dir = top.join(".git");
    let shown = format!("{}/", git_dir.display());
    if git_dir.join("HEAD").is_file() {
        if branch.is_some() {
            eprintln!(
                "warning: re-init: ignored --initial-branch={}",
                branch.unwrap_or_default()
            );
        }
        if !quiet {
            writeln!(inv.out, "Reinitialized existing Git repository in {shown}")?;
        }
        return Ok(0);
    }
    let config = Config::load(None, &inv.overrides);
    let branch = match branch.or_else(|| config.get("init.defaultbranch")) {
        Some(b) => b,
        None => {
            if !quiet {
                eprint!("{HINT}");
            }
            "master".to_owned()
        }
    };
    for sub in [
        "branches",
        "hooks",
        "info",
        "objects/info",
        "objects/pack",
        "refs/heads",
        "refs/tags",
    ] {
        fs::create_dir_all(git_dir.join(sub))?;
    }
    fs::write(git_dir.join("HEAD"), format!("ref: refs/heads/{branch}\n"))?;
    fs::write(git_dir.join("config"), CONFIG)?;
    fs::write(git_dir.join("description"), DESCRIPTION)?;
    fs::write(git_dir.join("info/exclude"), EXCLUDE)?;
    if !quiet {
        writeln!(inv.out, "Initialized empty Git repository in {shown}")?;
    }
    Ok(0)
}

use std::io::Write as _;
