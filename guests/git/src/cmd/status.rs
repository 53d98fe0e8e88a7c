//! `git status` (long, `-s`/`--short`, `--porcelain`, `-b`, `-u`), and the
//! long format `git commit` prints when there is nothing to commit.

use std::io::Write;

use crate::Invocation;
use crate::cmd::unsupported;
use crate::error::Result;
use crate::index::Index;
use crate::repo::{Head, Repo};
use crate::status::{self, Changes, Untracked};

const LABEL_WIDTH: usize = 12;

pub fn run(inv: &mut Invocation) -> Result<i32> {
    let (mut short, mut porcelain, mut branch) = (false, false, false);
    let mut untracked = Untracked::Normal;
    let mut ignored = false;
    let (args, mut paths, _) = crate::cmd::split_dashdash(&inv.args);
    for a in args {
        match a.as_str() {
            "-s" | "--short" => short = true,
            "--porcelain" | "--porcelain=v1" => porcelain = true,
            "-b" | "--branch" => branch = true,
            "-sb" | "-bs" => {
                short = true;
                branch = true;
            }
            "-u" | "-uall" | "--untracked-files=all" | "--untracked-files" => {
                untracked = Untracked::All
            }
            "-uno" | "--untracked-files=no" => untracked = Untracked::No,
            "-unormal" | "--untracked-files=normal" => untracked = Untracked::Normal,
            "--long" => {}
            "--ignored" | "--ignored=traditional" => ignored = true,
            "--ignored=no" => ignored = false,
            s if s.starts_with('-') => return unsupported("status", s),
            _ => paths.push(a),
        }
    }
    let mut repo = inv.repo()?;
    let index = Index::load(&repo.git_dir)?;
    let specs: Vec<String> = paths.iter().filter_map(|p| repo.repo_path(p)).collect();
    let view = View { ignored, specs };
    if short || porcelain {
        let changes = status::compute(&mut repo, &index, untracked)?;
        let changes = view.apply(&repo, &index, changes)?;
        if branch {
            let line = branch_line(&mut repo)?;
            if !porcelain && crate::color::on(&repo.config, "status") {
                writeln!(inv.out, "## {}", color_branch_line(&line))?;
            } else {
                writeln!(inv.out, "## {line}")?;
            }
        }
        print_short(&repo, &changes, porcelain, &mut inv.out)?;
        return Ok(0);
    }
    long_with(&mut repo, &index, &mut inv.out, false, untracked, &view)?;
    Ok(0)
}

/// The parts of a status the options ask for: the pathspecs' paths only,
/// and the ignored entries with `--ignored`.
#[derive(Default)]
struct View {
    ignored: bool,
    specs: Vec<String>,
}

impl View {
    fn apply(&self, repo: &Repo, index: &Index, mut c: Changes) -> Result<Changes> {
        if self.ignored {
            c.ignored = status::ignored(repo, index)?;
        }
        if self.specs.is_empty() {
            return Ok(c);
        }
        let hit = |p: &str| self.specs.iter().any(|s| crate::cmd::add::matches(s, p));
        c.staged.retain(|(_, p, _)| hit(p));
        c.unstaged.retain(|(_, p)| hit(p));
        c.unmerged.retain(|(p, _)| hit(p));
        c.untracked
            .retain(|p| hit(p.trim_end_matches('/')) || hit(p));
        c.ignored.retain(|p| hit(p.trim_end_matches('/')) || hit(p));
        Ok(c)
    }
}

fn branch_line(repo: &mut Repo) -> Result<String> {
    Ok(match repo.head()? {
        Head::Branch(b, None) => format!("No commits yet on {b}"),
        Head::Branch(b, Some(_)) => match status::upstream(repo, &b)? {
            None => b,
            Some((up, None)) => format!("{b}...{up} [gone]"),
            Some((up, Some((0, 0)))) => format!("{b}...{up}"),
            Some((up, Some((a, 0)))) => format!("{b}...{up} [ahead {a}]"),
            Some((up, Some((0, n)))) => format!("{b}...{up} [behind {n}]"),
            Some((up, Some((a, n)))) => format!("{b}...{up} [ahead {a}, behind {n}]"),
        },
        Head::Detached(_) => "HEAD (no branch)".to_owned(),
    })
}

/// `main...origin/main [ahead 1]` as `status -sb` paints it: the branch
/// green, the upstream red.
fn color_branch_line(line: &str) -> String {
    use crate::color::{GREEN, RED, paint};
    match line.split_once("...") {
        Some((b, rest)) => {
            let (up, tail) = rest.split_once(' ').unwrap_or((rest, ""));
            let tail = if tail.is_empty() {
                String::new()
            } else {
                format!(" {tail}")
            };
            format!("{}...{}{tail}", paint(GREEN, b), paint(RED, up))
        }
        None => paint(GREEN, line),
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "commit" } else { "commits" }
}

fn print_short(repo: &Repo, c: &Changes, porcelain: bool, out: &mut impl Write) -> Result<()> {
    let show = |p: &str| {
        let shown = if porcelain {
            p.to_owned()
        } else {
            repo.display_path(p)
        };
        crate::worktree::quote_path(&shown, true)
    };
    // One line per path: index status, then work-tree status.
    let mut lines: std::collections::BTreeMap<String, (char, char, Option<String>)> =
        Default::default();
    for (x, path, from) in &c.staged {
        lines.insert(path.clone(), (*x, ' ', from.clone()));
    }
    for (y, path) in &c.unstaged {
        lines.entry(path.clone()).or_insert((' ', ' ', None)).1 = *y;
    }
    for (path, label) in &c.unmerged {
        let xy = match *label {
            "both modified:" => ('U', 'U'),
            "both added:" => ('A', 'A'),
            "deleted by them:" => ('U', 'D'),
            "deleted by us:" => ('D', 'U'),
            "added by us:" => ('A', 'U'),
            "added by them:" => ('U', 'A'),
            _ => ('D', 'D'),
        };
        lines.insert(path.clone(), (xy.0, xy.1, None));
    }
    // --porcelain is never coloured.
    let colored = !porcelain && crate::color::on(&repo.config, "status");
    let paint = |color: &str, text: &str| {
        if colored && text.trim() != "" {
            crate::color::paint(color, text)
        } else {
            text.to_owned()
        }
    };
    for (path, (x, y, from)) in &lines {
        let (x, y) = (
            paint(crate::color::GREEN, &x.to_string()),
            paint(crate::color::RED, &y.to_string()),
        );
        match from {
            Some(f) => writeln!(out, "{x}{y} {} -> {}", show(f), show(path))?,
            None => writeln!(out, "{x}{y} {}", show(path))?,
        }
    }
    for u in &c.untracked {
        writeln!(out, "{} {}", paint(crate::color::RED, "??"), show(u))?;
    }
    for u in &c.ignored {
        writeln!(out, "{} {}", paint(crate::color::RED, "!!"), show(u))?;
    }
    Ok(())
}

/// The long format; `for_commit` words the end as `git commit` does.
pub fn long(repo: &mut Repo, index: &Index, out: &mut impl Write, for_commit: bool) -> Result<()> {
    long_with(
        repo,
        index,
        out,
        for_commit,
        Untracked::Normal,
        &View::default(),
    )
}

fn long_with(
    repo: &mut Repo,
    index: &Index,
    out: &mut impl Write,
    for_commit: bool,
    untracked: Untracked,
    view: &View,
) -> Result<()> {
    let c = status::compute(repo, index, untracked)?;
    let c = view.apply(repo, index, c)?;
    let colored = crate::color::on(&repo.config, "status");
    let tint = |color: &str, text: &str| {
        if colored {
            crate::color::paint(color, text)
        } else {
            text.to_owned()
        }
    };
    use crate::color::{GREEN, RED};
    let head = repo.head()?;
    match &head {
        Head::Branch(b, _) => writeln!(out, "On branch {b}")?,
        Head::Detached(id) => {
            let label = crate::reflog::detached_label(repo, id);
            writeln!(out, "{label}")?
        }
    }
    let no_commits = matches!(head, Head::Branch(_, None));
    if let Head::Branch(b, Some(_)) = &head {
        let b = b.clone();
        match status::upstream(repo, &b)? {
            None => {}
            Some((up, None)) => write!(
                out,
                "Your branch is based on '{up}', but the upstream is gone.\n  (use \"git branch --unset-upstream\" to fixup)\n\n"
            )?,
            Some((up, Some((0, 0)))) => write!(out, "Your branch is up to date with '{up}'.\n\n")?,
            Some((up, Some((a, 0)))) => write!(
                out,
                "Your branch is ahead of '{up}' by {a} {}.\n  (use \"git push\" to publish your local commits)\n\n",
                plural(a)
            )?,
            Some((up, Some((0, n)))) => write!(
                out,
                "Your branch is behind '{up}' by {n} {}, and can be fast-forwarded.\n  (use \"git pull\" to update your local branch)\n\n",
                plural(n)
            )?,
            Some((up, Some((a, n)))) => write!(
                out,
                "Your branch and '{up}' have diverged,\nand have {a} and {n} different commits each, respectively.\n  (use \"git pull\" to merge the remote branch into yours)\n\n"
            )?,
        }
    }
    let merging = repo.git_dir.join("MERGE_HEAD").exists();
    if merging {
        if c.unmerged.is_empty() {
            write!(
                out,
                "All conflicts fixed but you are still merging.\n  (use \"git commit\" to conclude merge)\n\n"
            )?;
        } else {
            write!(
                out,
                "You have unmerged paths.\n  (fix conflicts and run \"git commit\")\n  (use \"git merge --abort\" to abort the merge)\n\n"
            )?;
        }
    }
    if no_commits {
        let what = if for_commit {
            "Initial commit"
        } else {
            "No commits yet"
        };
        write!(out, "\n{what}\n\n")?;
    }
    let show = |p: &str| crate::worktree::quote_path(&repo.display_path(p), false);
    if !c.staged.is_empty() {
        writeln!(out, "Changes to be committed:")?;
        if merging {
            // git gives no hint while a merge is being concluded.
        } else if no_commits {
            writeln!(out, "  (use \"git rm --cached <file>...\" to unstage)")?;
        } else {
            writeln!(out, "  (use \"git restore --staged <file>...\" to unstage)")?;
        }
        for (x, p, from) in &c.staged {
            let label = match x {
                'A' => "new file:",
                'M' => "modified:",
                'D' => "deleted:",
                _ => "renamed:",
            };
            match from {
                Some(f) => writeln!(
                    out,
                    "\t{}",
                    tint(
                        GREEN,
                        &format!("{label:<LABEL_WIDTH$}{} -> {}", show(f), show(p))
                    )
                )?,
                None => writeln!(
                    out,
                    "\t{}",
                    tint(GREEN, &format!("{label:<LABEL_WIDTH$}{}", show(p)))
                )?,
            }
        }
        writeln!(out)?;
    }
    if !c.unmerged.is_empty() {
        writeln!(out, "Unmerged paths:")?;
        if c.unmerged.iter().any(|(_, l)| l.contains("deleted")) {
            writeln!(
                out,
                "  (use \"git add/rm <file>...\" as appropriate to mark resolution)"
            )?;
        } else {
            writeln!(out, "  (use \"git add <file>...\" to mark resolution)")?;
        }
        for (p, label) in &c.unmerged {
            writeln!(out, "\t{}", tint(RED, &format!("{label:<17}{}", show(p))))?;
        }
        writeln!(out)?;
    }
    if !c.unstaged.is_empty() {
        writeln!(out, "Changes not staged for commit:")?;
        if c.unstaged.iter().any(|(y, _)| *y == 'D') {
            writeln!(
                out,
                "  (use \"git add/rm <file>...\" to update what will be committed)"
            )?;
        } else {
            writeln!(
                out,
                "  (use \"git add <file>...\" to update what will be committed)"
            )?;
        }
        writeln!(
            out,
            "  (use \"git restore <file>...\" to discard changes in working directory)"
        )?;
        for (y, p) in &c.unstaged {
            let label = if *y == 'D' { "deleted:" } else { "modified:" };
            writeln!(
                out,
                "\t{}",
                tint(RED, &format!("{label:<LABEL_WIDTH$}{}", show(p)))
            )?;
        }
        writeln!(out)?;
    }
    if !c.untracked.is_empty() {
        writeln!(out, "Untracked files:")?;
        writeln!(
            out,
            "  (use \"git add <file>...\" to include in what will be committed)"
        )?;
        for u in &c.untracked {
            writeln!(out, "\t{}", tint(RED, &show(u).to_string()))?;
        }
        writeln!(out)?;
    }
    if !c.ignored.is_empty() {
        writeln!(out, "Ignored files:")?;
        writeln!(
            out,
            "  (use \"git add -f <file>...\" to include in what will be committed)"
        )?;
        for u in &c.ignored {
            writeln!(out, "\t{}", tint(RED, &show(u).to_string()))?;
        }
        writeln!(out)?;
    }
    if c.staged.is_empty() {
        if !c.unstaged.is_empty() || !c.unmerged.is_empty() {
            writeln!(
                out,
                "no changes added to commit (use \"git add\" and/or \"git commit -a\")"
            )?;
        } else if !c.untracked.is_empty() {
            writeln!(
                out,
                "nothing added to commit but untracked files present (use \"git add\" to track)"
            )?;
        } else if no_commits {
            writeln!(
                out,
                "nothing to commit (create/copy files and use \"git add\" to track)"
            )?;
        } else {
            writeln!(out, "nothing to commit, working tree clean")?;
        }
    }
    Ok(())
}
