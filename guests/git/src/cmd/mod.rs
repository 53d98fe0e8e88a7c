//! The subcommands, one module each.

mod add;
mod blame;
mod branch;
mod cat_file;
mod checkout;
mod clone;
mod commit;
mod commit_diff;
mod config;
mod diff;
mod diff_conflicts;
mod init;
mod known_options;
mod log;
mod ls_files;
pub mod merge;
mod mv;
mod plumbing;
mod pretty;
mod remote;
mod reset;
mod rev_parse;
mod rm;
mod show;
mod stash;
mod status;
mod tag;

use crate::Invocation;
use crate::error::{Error, Result};

pub fn dispatch(name: &str, inv: &mut Invocation) -> Result<i32> {
    match name {
        "init" => init::run(inv),
        "config" => config::run(inv),
        "add" => add::run(inv),
        "rm" => rm::run(inv),
        "commit" => commit::run(inv),
        "status" => status::run(inv),
        "log" => log::run(inv),
        "blame" => blame::run(inv),
        "rev-list" => log::rev_list(inv),
        "rev-parse" => rev_parse::run(inv),
        "cat-file" => cat_file::run(inv),
        "ls-files" => ls_files::run(inv),
        "branch" => branch::run(inv),
        "diff" => diff::run(inv),
        "checkout" => checkout::run_checkout(inv),
        "switch" => checkout::run_switch(inv),
        "restore" => checkout::run_restore(inv),
        "reset" => reset::run(inv),
        "tag" => tag::run(inv),
        "show" => show::run(inv),
        "mv" => mv::run(inv),
        "merge" => merge::run(inv),
        "stash" => stash::run(inv),
        "clone" => clone::run(inv),
        "remote" => remote::run(inv),
        "symbolic-ref" => plumbing::symbolic_ref(inv),
        "ls-tree" => plumbing::ls_tree(inv),
        "hash-object" => plumbing::hash_object(inv),
        "help" | "--help" | "-h" => {
            println!("usage: git [--version] [-C <path>] [-c <name>=<value>] <command> [<args>]");
            Ok(0)
        }
        other if GIT_COMMANDS.contains(&other) => Err(Error::Unsupported(format!("'git {other}'"))),
        other => {
            eprintln!("git: '{other}' is not a git command. See 'git --help'.");
            Err(Error::Exit(1))
        }
    }
}

/// git 2.39's commands: one of these that this git lacks exits 127 (the
/// container's git can run it); any other name is not a git command.
const GIT_COMMANDS: &[&str] = &[
    "am",
    "annotate",
    "apply",
    "archive",
    "bisect",
    "blame",
    "branch",
    "bundle",
    "cherry",
    "cherry-pick",
    "citool",
    "clean",
    "clone",
    "commit-graph",
    "commit-tree",
    "count-objects",
    "credential",
    "describe",
    "diff-files",
    "diff-index",
    "diff-tree",
    "difftool",
    "fetch",
    "for-each-ref",
    "format-patch",
    "fsck",
    "gc",
    "grep",
    "gui",
    "hash-object",
    "init-db",
    "instaweb",
    "log",
    "ls-remote",
    "ls-tree",
    "maintenance",
    "merge",
    "merge-base",
    "merge-file",
    "merge-tree",
    "mergetool",
    "mktag",
    "mktree",
    "name-rev",
    "notes",
    "pack-objects",
    "pack-refs",
    "prune",
    "pull",
    "push",
    "range-diff",
    "read-tree",
    "rebase",
    "reflog",
    "remote",
    "repack",
    "replace",
    "request-pull",
    "rerere",
    "revert",
    "rev-list",
    "send-email",
    "shortlog",
    "show-branch",
    "show-ref",
    "sparse-checkout",
    "stash",
    "stripspace",
    "submodule",
    "switch",
    "symbolic-ref",
    "update-index",
    "update-ref",
    "var",
    "verify-commit",
    "verify-pack",
    "verify-tag",
    "whatchanged",
    "worktree",
    "write-tree",
    "fast-export",
    "fast-import",
    "filter-branch",
    "gitk",
    "bugreport",
    "check-attr",
    "check-ignore",
    "check-mailmap",
    "check-ref-format",
    "checkout-index",
    "column",
    "fmt-merge-msg",
    "interpret-trailers",
    "mailinfo",
    "mailsplit",
    "patch-id",
    "unpack-file",
    "unpack-objects",
    "upload-pack",
    "receive-pack",
    "restore",
    "sparse-checkout",
    "scalar",
];

/// An option this git does not implement.
/// An option this git lacks: 127 for the container's git to run it, or,
/// when git itself does not know the option, git's usage error (129).
pub fn unsupported<T>(command: &str, option: &str) -> Result<T> {
    if let Some(message) = unknown_to_git(command, option) {
        eprintln!("{message}");
        return Err(Error::Exit(129));
    }
    Err(Error::Unsupported(format!("'git {command} {option}'")))
}

/// git's complaint about `option` if its parse-options for `command`
/// would reject it (unique prefixes and `--no-` forms are accepted as
/// git accepts them).
fn unknown_to_git(command: &str, option: &str) -> Option<String> {
    let (_, usage, shorts, longs) = known_options::KNOWN.iter().find(|k| k.0 == command)?;
    let word = option.split_whitespace().next()?;
    let complaint = if let Some(long) = word.strip_prefix("--") {
        let name = long.split('=').next().unwrap_or(long);
        let bare = name.strip_prefix("no-").unwrap_or(name);
        let known = name.is_empty()
            || longs
                .split(' ')
                .any(|l| l.starts_with(name) || l.starts_with(bare));
        (!known).then(|| format!("error: unknown option `{name}'"))?
    } else {
        let c = word.strip_prefix('-')?.chars().next()?;
        (!shorts.contains(c) && !c.is_ascii_digit())
            .then(|| format!("error: unknown switch `{c}'"))?
    };
    Some(format!("{complaint}\nusage: {usage}"))
}

/// Splits `args` at `--`: (options and revisions, paths).
pub fn split_dashdash(args: &[String]) -> (Vec<String>, Vec<String>, bool) {
    match args.iter().position(|a| a == "--") {
        Some(i) => (args[..i].to_vec(), args[i + 1..].to_vec(), true),
        None => (args.to_vec(), Vec::new(), false),
    }
}

/// `-qam MSG` as `-q -a -m MSG`: short options clustered, where the
/// letters in `with_value` take the rest of the word or the next one.
pub fn expand_short(args: &[String], with_value: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if a == "--" {
            out.push(a.clone());
            out.extend(it.cloned());
            break;
        }
        if a.len() > 2 && a.starts_with('-') && !a.starts_with("--") {
            let chars: Vec<char> = a[1..].chars().collect();
            let mut i = 0;
            while i < chars.len() {
                let c = chars[i];
                out.push(format!("-{c}"));
                if with_value.contains(c) {
                    let rest: String = chars[i + 1..].iter().collect();
                    if !rest.is_empty() {
                        out.push(rest);
                    }
                    break;
                }
                i += 1;
            }
            continue;
        }
        out.push(a.clone());
    }
    out
}
