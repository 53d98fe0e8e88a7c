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
