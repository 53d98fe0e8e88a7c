//! Public option and result types of workspace operations.

use serde::Serialize;

use crate::tree::{Node, NodeKind};

/// Metadata of one node.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Stat {
    /// The last path component (`/` for the root).
    pub name: String,
    /// File, directory or symlink.
    pub kind: NodeKind,
    /// Permission bits, e.g. `0o644`.
    pub mode: u32,
    /// Bytes for files, target length for symlinks, 0 for directories.
    pub size: u64,
    /// Nanoseconds since the Unix epoch.
    pub mtime_ns: u64,
    /// The inode number: stable across writes, renames, runs and
    /// snapshots; shared by hard links; a copy's own (`tree::eff_ino`).
    pub ino: u64,
    /// How many names the node has (hard links); 1 for directories.
    pub nlink: u64,
    /// Last access time as set by a program; the mtime unless one was set
    /// (reads do not change it).
    pub atime_ns: u64,
}

impl Stat {
    /// `ino` is what `tree::eff_ino` gives for the path it was reached by.
    pub(crate) fn from_node(name: &str, node: &Node, ino: u64) -> Self {
        Stat {
            name: name.to_owned(),
            kind: node.kind,
            mode: node.mode,
            size: node.size,
            mtime_ns: node.mtime_ns.max(0) as u64,
            ino,
            nlink: node.nlink.max(1) as u64,
            atime_ns: node.atime_ns.unwrap_or(node.mtime_ns).max(0) as u64,
        }
    }
}

/// Options of `write`.
#[derive(Debug, Clone, Default)]
pub struct WriteOptions {
    /// Mode for a new file; for an existing file, replaces its mode. `None`
    /// keeps an existing file's mode and gives new files `0o644`.
    pub mode: Option<u32>,
    /// Fail with `EEXIST` if the path exists.
    pub exclusive: bool,
    /// Create missing parent directories.
    pub create_parents: bool,
}

/// Options of `mkdir`.
#[derive(Debug, Clone, Default)]
pub struct MkdirOptions {
    /// Create missing parents too (`mkdir -p`); an existing directory is not an error.
    pub recursive: bool,
    /// Defaults to `0o755`.
    pub mode: Option<u32>,
}

/// Options of `rm`.
#[derive(Debug, Clone, Copy, Default)]
pub struct RmOptions {
    /// Remove a directory with everything below it.
    pub recursive: bool,
    /// A missing path is not an error.
    pub force: bool,
}

/// A window into a listing.
#[derive(Debug, Clone, Copy, Default)]
pub struct Page {
    /// How many entries to skip.
    pub offset: u64,
    /// `None` means no limit.
    pub limit: Option<u64>,
}

impl Page {
    /// A window of `limit` entries after `offset`.
    pub fn new(offset: u64, limit: Option<u64>) -> Self {
        Page { offset, limit }
    }

    /// Everything.
    pub fn all() -> Self {
        Page::default()
    }
}

/// One `find` result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FindEntry {
    /// Absolute path.
    pub path: String,
    /// What it is.
    pub kind: NodeKind,
}

/// A page of `find` results.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FindPage {
    /// The matches, sorted by path.
    pub entries: Vec<FindEntry>,
    /// Pass as `offset` to get the next page; `None` when this is the last.
    pub next_offset: Option<u64>,
}

/// Options of `grep`.
#[derive(Debug, Clone, Default)]
pub struct GrepOptions {
    /// Treat the query as a regular expression (otherwise a literal).
    pub regex: bool,
    /// Match case-insensitively.
    pub ignore_case: bool,
    /// Lines of context before and after each match.
    pub context: u32,
    /// Only search files matching this glob (on the file name, or on the
    /// path relative to the search root if it contains `/`).
    pub include: Option<String>,
    /// Which of the matches.
    pub page: Page,
}

/// One `grep` match.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GrepMatch {
    /// Absolute path of the file.
    pub path: String,
    /// 1-based.
    pub line_number: u64,
    /// The matching line.
    pub line: String,
    /// Lines of context before it.
    pub before: Vec<String>,
    /// Lines of context after it.
    pub after: Vec<String>,
}

/// A page of `grep` matches.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GrepPage {
    /// The matches, by path and line.
    pub matches: Vec<GrepMatch>,
    /// Pass as `offset` to get the next page; `None` when this is the last.
    pub next_offset: Option<u64>,
    /// Files skipped because they look binary.
    pub binary_files_skipped: u64,
}

/// One replacement in an `edit` batch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextEdit {
    /// The text to replace (must match once).
    pub old: String,
    /// What replaces it.
    pub new: String,
}

/// What an `edit` did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct EditResult {
    /// Unified diff of the change.
    pub diff: String,
    /// How many edits were applied.
    pub applied: usize,
    /// How many edits matched only with the whitespace/quote-insensitive fallback.
    pub fuzzy: usize,
}
