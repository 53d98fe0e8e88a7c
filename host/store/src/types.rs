//! Public option and result types of workspace operations.

use serde::Serialize;

use crate::tree::{Node, NodeKind};

/// Metadata of one node.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Stat {
    /// The last path component (`/` for the root).
    pub name: String,
    pub kind: NodeKind,
    /// Permission bits, e.g. `0o644`.
    pub mode: u32,
    /// Bytes for files, target length for symlinks, 0 for directories.
    pub size: u64,
    /// Nanoseconds since the Unix epoch.
    pub mtime_ns: u64,
    pub ino: u64,
}

impl Stat {
    pub(crate) fn from_node(name: &str, node: &Node) -> Self {
        Stat {
            name: name.to_owned(),
            kind: node.kind,
            mode: node.mode,
            size: node.size,
            mtime_ns: node.mtime_ns.max(0) as u64,
            ino: node.id as u64,
        }
    }
}

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

#[derive(Debug, Clone, Default)]
pub struct MkdirOptions {
    pub recursive: bool,
    /// Defaults to `0o755`.
    pub mode: Option<u32>,
}

#[derive(Debug, Clone, Copy, Default)]
pub struct RmOptions {
    pub recursive: bool,
    /// A missing path is not an error.
    pub force: bool,
}

/// A window into a listing.
#[derive(Debug, Clone, Copy, Default)]
pub struct Page {
    pub offset: u64,
    /// `None` means no limit.
    pub limit: Option<u64>,
}

impl Page {
    pub fn new(offset: u64, limit: Option<u64>) -> Self {
        Page { offset, limit }
    }

    pub fn all() -> Self {
        Page::default()
    }
}

/// One `find` result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FindEntry {
    /// Absolute path.
    pub path: String,
    pub kind: NodeKind,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FindPage {
    pub entries: Vec<FindEntry>,
    /// Pass as `offset` to get the next page; `None` when this is the last.
    pub next_offset: Option<u64>,
}

#[derive(Debug, Clone, Default)]
pub struct GrepOptions {
    /// Treat the query as a regular expression (otherwise a literal).
    pub regex: bool,
    pub ignore_case: bool,
    /// Lines of context before and after each match.
    pub context: u32,
    /// Only search files matching this glob (on the file name, or on the
    /// path relative to the search root if it contains `/`).
    pub include: Option<String>,
    pub page: Page,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GrepMatch {
    pub path: String,
    /// 1-based.
    pub line_number: u64,
    pub line: String,
    pub before: Vec<String>,
    pub after: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GrepPage {
    pub matches: Vec<GrepMatch>,
    pub next_offset: Option<u64>,
    /// Files skipped because they look binary.
    pub binary_files_skipped: u64,
}

/// One replacement in an `edit` batch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextEdit {
    pub old: String,
    pub new: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct EditResult {
    /// Unified diff of the change.
    pub diff: String,
    pub applied: usize,
    /// How many edits matched only with the whitespace/quote-insensitive fallback.
    pub fuzzy: usize,
}
