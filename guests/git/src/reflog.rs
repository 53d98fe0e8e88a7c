//! Reflogs (`.git/logs/HEAD`, `.git/logs/refs/heads/*`), as git appends
//! them (`OLD NEW Name <email> SECONDS ZONE\tMESSAGE`), so real git's
//! `reflog`, `checkout -` and `@{-1}` work on our repositories, and ours
//! can find the branch a `checkout -` goes back to.

use std::io::Write;

use gix_hash::ObjectId;

use crate::ident::Ident;
use crate::repo::Repo;

/// Appends one entry to the log of `name` (`HEAD` or `refs/heads/x`).
pub fn append(repo: &Repo, name: &str, old: Option<ObjectId>, new: &ObjectId, message: &str) {
    let Ok(who) = Ident::of("COMMITTER", &repo.config) else {
        return;
    };
    let path = repo.git_dir.join("logs").join(name);
    if let Some(dir) = path.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    let old = old.unwrap_or_else(|| ObjectId::null(gix_hash::Kind::Sha1));
    if let Ok(mut f) = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
    {
        let _ = writeln!(f, "{old} {new} {}\t{message}", who.header());
    }
}

/// Logs a move of HEAD, and of the branch it is on when `branch_too`.
pub fn head_moved(
    repo: &Repo,
    old: Option<ObjectId>,
    new: &ObjectId,
    message: &str,
    branch_too: bool,
) {
    append(repo, "HEAD", old, new, message);
    if branch_too
        && let Some(target) = repo
            .read_ref_file("HEAD")
            .and_then(|h| h.strip_prefix("ref: ").map(str::to_owned))
    {
        append(repo, &target, old, new, message);
    }
}

/// The branch (or commit) the `n`-th last checkout moved away from, for
/// `checkout -` and `@{-N}`.
pub fn previous_checkout(repo: &Repo, n: usize) -> Option<String> {
    let text = std::fs::read_to_string(repo.git_dir.join("logs/HEAD")).ok()?;
    text.lines()
        .rev()
        .filter_map(|l| l.split_once('\t').map(|(_, m)| m))
        .filter_map(|m| m.strip_prefix("checkout: moving from "))
        .filter_map(|m| m.split(" to ").next())
        .nth(n.saturating_sub(1))
        .map(str::to_owned)
}

/// What `status` and `branch` call a detached HEAD: `HEAD detached at X`
/// while HEAD is still where the last checkout put it (`from X` once it
/// moved), X being the checkout's target as typed when that names a ref
/// (full name, `refs/tags/` and `refs/remotes/` cut), else the abbreviated
/// commit.
pub fn detached_label(repo: &mut Repo, head: &ObjectId) -> String {
    let text = std::fs::read_to_string(repo.git_dir.join("logs/HEAD")).unwrap_or_default();
    let last = text.lines().rev().find_map(|l| {
        let (head_part, msg) = l.split_once('\t')?;
        let target = msg
            .strip_prefix("checkout: moving from ")?
            .rsplit(" to ")
            .next()?;
        let new = head_part.split(' ').nth(1)?;
        Some((target.to_owned(), ObjectId::from_hex(new.as_bytes()).ok()?))
    });
    let Some((target, moved_to)) = last else {
        return format!("HEAD detached at {}", repo.abbrev(head));
    };
    let word = if moved_to == *head { "at" } else { "from" };
    let name = match dwim_ref(repo, &target) {
        Some((full, id)) if id == moved_to || repo.peel_to_commit(&id).ok() == Some(moved_to) => {
            full.strip_prefix("refs/tags/")
                .or_else(|| full.strip_prefix("refs/remotes/"))
                .unwrap_or(&full)
                .to_owned()
        }
        _ => repo.abbrev(&moved_to),
    };
    format!("HEAD detached {word} {name}")
}

/// The one ref a short name means, as git's dwim_ref (none if ambiguous).
fn dwim_ref(repo: &Repo, name: &str) -> Option<(String, ObjectId)> {
    let rules = [
        name.to_owned(),
        format!("refs/{name}"),
        format!("refs/tags/{name}"),
        format!("refs/heads/{name}"),
        format!("refs/remotes/{name}"),
        format!("refs/remotes/{name}/HEAD"),
    ];
    let found: Vec<(String, ObjectId)> = rules
        .into_iter()
        .filter(|r| r == "HEAD" || r.starts_with("refs/"))
        .filter_map(|r| repo.resolve_ref(&r).map(|id| (r, id)))
        .collect();
    match found.as_slice() {
        [one] => Some(one.clone()),
        _ => None,
    }
}
