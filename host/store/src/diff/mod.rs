//! `diff`: what differs between two trees of a workspace, among the live
//! tree, snapshots, and runs' before and after trees ([`TreeRef`]).
//!
//! The walk (`walk.rs`) skips every subtree both trees share, so it costs
//! O(changes) (times the size of the directories on their paths), not
//! O(tree). Output follows git: files and symlinks only, sorted by path,
//! modes as git sees them (100644, 100755, 120000), exact renames paired,
//! unified diffs with three lines of context (`text.rs`).

mod text;
pub(crate) mod walk;

use rusqlite::{Connection, OptionalExtension};
use serde::Serialize;

use crate::error::{Errno, FsError, Result};
use crate::path::WsPath;
use crate::snapshots;
use crate::tree::NodeKind;
use crate::workspace::Workspace;

/// A tree of the workspace that `diff` can compare.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TreeRef {
    /// The live tree (`live`).
    Live,
    /// A named snapshot (`NAME`).
    Snapshot(String),
    /// The tree run `ID` started from (`run:ID:before`).
    RunBefore(String),
    /// The tree run `ID` ended with (`run:ID:after`, or `run:ID`).
    RunAfter(String),
    /// The live tree of fork `NAME` of this workspace (`fork:NAME`): a
    /// workspace file of its own, so the comparison walks every directory
    /// (O(tree), files compared by their content-addressed chunk lists).
    Fork(String),
}

impl TreeRef {
    /// Reads `live`, `NAME` (a snapshot), `run:ID:before`, `run:ID:after`,
    /// `run:ID` (after) or `fork:NAME`.
    pub fn parse(spec: &str) -> Result<Self> {
        if spec == "live" {
            return Ok(TreeRef::Live);
        }
        if let Some(name) = spec.strip_prefix("fork:") {
            snapshots::validate_snapshot_name(name).map_err(|e| {
                FsError::custom(
                    Errno::EINVAL,
                    spec,
                    e.message.replace("snapshot name", "fork name"),
                )
            })?;
            return Ok(TreeRef::Fork(name.to_owned()));
        }
        if let Some(rest) = spec.strip_prefix("run:") {
            let (id, side) = match rest.rsplit_once(':') {
                Some((id, "before")) => (id, false),
                Some((id, "after")) => (id, true),
                _ => (rest, true),
            };
            crate::runs::validate_run_id(id)?;
            return Ok(if side {
                TreeRef::RunAfter(id.to_owned())
            } else {
                TreeRef::RunBefore(id.to_owned())
            });
        }
        snapshots::validate_snapshot_name(spec).map_err(|_| {
            FsError::custom(
                Errno::EINVAL,
                spec,
                format!(
                    "cannot read {spec:?} as a tree: use live, a snapshot name, run:ID:before, run:ID:after or fork:NAME"
                ),
            )
        })?;
        Ok(TreeRef::Snapshot(spec.to_owned()))
    }

    /// The root node of the tree, in the caller's transaction (a fork's
    /// in a transaction of the fork's file).
    pub(crate) fn root(&self, c: &Connection) -> Result<i64> {
        match self {
            TreeRef::Live | TreeRef::Fork(_) => crate::tree::live_root(c),
            TreeRef::Snapshot(name) => snapshots::root_of(c, name),
            TreeRef::RunBefore(id) => run_tree(c, id, "tree_before"),
            TreeRef::RunAfter(id) => run_tree(c, id, "tree_after"),
        }
    }
}

impl std::fmt::Display for TreeRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TreeRef::Live => f.write_str("live"),
            TreeRef::Snapshot(n) => f.write_str(n),
            TreeRef::RunBefore(id) => write!(f, "run:{id}:before"),
            TreeRef::RunAfter(id) => write!(f, "run:{id}:after"),
            TreeRef::Fork(name) => write!(f, "fork:{name}"),
        }
    }
}

/// A run's before or after tree; `ENOENT` naming why it has none.
pub(crate) fn run_tree(c: &Connection, id: &str, column: &str) -> Result<i64> {
    let row: Option<(Option<i64>, String)> = c
        .prepare_cached(&format!("SELECT {column}, status FROM runs WHERE id = ?1"))?
        .query_row([id], |r| Ok((r.get(0)?, r.get(1)?)))
        .optional()?;
    match row {
        None => Err(FsError::custom(
            Errno::ENOENT,
            id,
            format!("no run with id {id}"),
        )),
        Some((Some(root), _)) => Ok(root),
        Some((None, status)) => {
            let why = if column == "tree_after" && status == "running" {
                "it has not ended yet".to_owned()
            } else {
                "its trees were dropped (older than the runs kept, or by gc), or it ran before this build recorded them".to_owned()
            };
            Err(FsError::custom(
                Errno::ENOENT,
                id,
                format!("run {id} has no recorded {}: {why}", &column[5..]),
            ))
        }
    }
}

/// What to compare and how much to say.
#[derive(Debug, Clone, Default)]
pub struct DiffOptions {
    /// Only paths at or below these (absolute workspace paths).
    pub paths: Vec<String>,
    /// Do not pair removed and added files with equal content as renames.
    pub no_renames: bool,
    /// Include each file's unified diff ([`FileDiff::patch`]) and line counts.
    pub patch: bool,
}

/// How a path changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DiffStatus {
    /// Only in the second tree.
    Added,
    /// Only in the first tree.
    Deleted,
    /// Content or mode changed.
    Modified,
    /// Moved with its content unchanged.
    Renamed,
    /// A file became a symlink or the other way.
    TypeChanged,
}

impl DiffStatus {
    /// git's letter for it (`--name-status`).
    pub fn letter(self) -> &'static str {
        match self {
            DiffStatus::Added => "A",
            DiffStatus::Deleted => "D",
            DiffStatus::Modified => "M",
            DiffStatus::Renamed => "R100",
            DiffStatus::TypeChanged => "T",
        }
    }
}

/// One changed file or symlink.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FileDiff {
    /// The path in the second tree (the first, for a deleted one).
    pub path: String,
    /// For a rename, the path in the first tree.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub old_path: Option<String>,
    /// How it changed.
    pub status: DiffStatus,
    /// git's mode in the first tree (`100644`, `100755`, `120000`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub old_mode: Option<String>,
    /// git's mode in the second tree.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub new_mode: Option<String>,
    /// Whether the content changed (not only the mode or the path).
    pub content_changed: bool,
    /// Whether git would call it binary (no line counts, no hunks).
    pub binary: bool,
    /// Lines added (with `patch`; `None` for binary content).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub insertions: Option<u64>,
    /// Lines removed (with `patch`; `None` for binary content).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deletions: Option<u64>,
    /// The git-style patch of this file (with `patch`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub patch: Option<String>,
}

/// What differs between two trees.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Diff {
    /// The first tree, as given.
    pub from: String,
    /// The second tree, as given.
    pub to: String,
    /// Changed files and symlinks, depth first with names in byte order
    /// (the order of `git diff --no-index`).
    pub files: Vec<FileDiff>,
}

impl Diff {
    /// The whole patch, as `git diff` prints it (without `index` lines).
    pub fn patch(&self) -> String {
        self.files
            .iter()
            .filter_map(|f| f.patch.as_deref())
            .collect()
    }
}

impl Workspace {
    /// What differs between trees `from` and `to`, read in one snapshot of
    /// the workspace. Costs O(changes): subtrees both share are skipped.
    pub fn diff(&self, from: &TreeRef, to: &TreeRef, opts: &DiffOptions) -> Result<Diff> {
        let scope: Vec<WsPath> = opts
            .paths
            .iter()
            .map(|p| WsPath::parse(p))
            .collect::<Result<_>>()?;
        let fork_of = |t: &TreeRef| match t {
            TreeRef::Fork(name) => self.open_fork(name).map(Some),
            _ => Ok(None),
        };
        let fa = fork_of(from)?;
        let fb = match (from, to) {
            (TreeRef::Fork(x), TreeRef::Fork(y)) if x == y => None,
            _ => fork_of(to)?,
        };
        let wa = fa.as_ref().unwrap_or(self);
        let wb = match (from, to) {
            (TreeRef::Fork(x), TreeRef::Fork(y)) if x == y => wa,
            _ => fb.as_ref().unwrap_or(self),
        };
        let run = |c: walk::Conns<'_>| -> Result<Diff> {
            let (a, b) = (from.root(c.old)?, to.root(c.new)?);
            let mut leaves = Vec::new();
            walk::leaves(c, a, b, &walk::Scope(&scope), &mut leaves)?;
            let files = describe(c, leaves, opts)?;
            Ok(Diff {
                from: from.to_string(),
                to: to.to_string(),
                files,
            })
        };
        if std::ptr::eq(wa, wb) {
            wa.read_tx(|c| run(walk::Conns::one(c)))
        } else {
            wa.read_tx(|ca| wb.read_tx(|cb| run(walk::Conns { old: ca, new: cb })))
        }
    }

    /// What run `id` changed: its before tree against its after tree.
    pub fn run_diff(&self, id: &str, opts: &DiffOptions) -> Result<Diff> {
        self.diff(
            &TreeRef::RunBefore(id.to_owned()),
            &TreeRef::RunAfter(id.to_owned()),
            opts,
        )
    }
}

fn mode_str(side: &walk::Side) -> String {
    format!("{:o}", walk::git_mode(side.kind, side.mode))
}

fn bytes_of(c: &Connection, side: &walk::Side) -> Result<Vec<u8>> {
    match side.kind {
        NodeKind::Symlink => Ok(c
            .prepare_cached("SELECT target FROM nodes WHERE id = ?1")?
            .query_row([side.node], |r| r.get::<_, Option<String>>(0))?
            .unwrap_or_default()
            .into_bytes()),
        _ => crate::content::read_range(c, side.node, side.size, 0, None),
    }
}

/// Pairs exact renames, sorts, and fills in modes, counts and patches.
fn describe(
    c: walk::Conns<'_>,
    leaves: Vec<walk::Leaf>,
    opts: &DiffOptions,
) -> Result<Vec<FileDiff>> {
    let mut leaves = leaves;
    // (old leaf, new leaf) pairs for renames; the rest stay single.
    let mut renames: Vec<(walk::Leaf, walk::Leaf)> = Vec::new();
    if !opts.no_renames {
        let mut removed: Vec<(usize, NodeKind, Vec<u8>)> = Vec::new();
        for (i, l) in leaves.iter().enumerate() {
            if let (Some(o), None) = (&l.old, &l.new)
                && o.size > 0
                && let Some(key) = walk::content_key(c.old, o.node)?
            {
                removed.push((i, o.kind, key));
            }
        }
        let mut taken = vec![false; leaves.len()];
        let mut pairs = Vec::new();
        for (i, l) in leaves.iter().enumerate() {
            if let (None, Some(n)) = (&l.old, &l.new)
                && n.size > 0
                && let Some(key) = walk::content_key(c.new, n.node)?
                && let Some((j, _, _)) = removed
                    .iter()
                    .find(|(j, kind, k)| !taken[*j] && *kind == n.kind && *k == key)
            {
                taken[*j] = true;
                taken[i] = true;
                pairs.push((*j, i));
            }
        }
        for (j, i) in pairs {
            renames.push((leaves[j].clone(), leaves[i].clone()));
        }
        let mut k = 0;
        leaves.retain(|_| {
            k += 1;
            !taken[k - 1]
        });
    }
    let mut out = Vec::with_capacity(leaves.len() + renames.len());
    for leaf in leaves {
        let (status, content_changed) = match (&leaf.old, &leaf.new) {
            (None, _) => (DiffStatus::Added, true),
            (_, None) => (DiffStatus::Deleted, true),
            (Some(o), Some(n)) if o.kind != n.kind => (DiffStatus::TypeChanged, true),
            (Some(o), Some(n)) => (
                DiffStatus::Modified,
                walk::content_key(c.old, o.node)? != walk::content_key(c.new, n.node)?,
            ),
        };
        out.push(file_diff(
            c,
            &leaf.path,
            None,
            status,
            &leaf,
            content_changed,
            opts,
        )?);
    }
    for (old, new) in renames {
        let joined = walk::Leaf {
            path: new.path.clone(),
            old: old.old.clone(),
            new: new.new.clone(),
        };
        out.push(file_diff(
            c,
            &new.path,
            Some(old.path.clone()),
            DiffStatus::Renamed,
            &joined,
            false,
            opts,
        )?);
    }
    // Depth first, names in byte order: `a/z` before `a-b`, as
    // `git diff --no-index` walks two directories.
    out.sort_by(|a, b| a.path.split('/').cmp(b.path.split('/')));
    Ok(out)
}

fn file_diff(
    c: walk::Conns<'_>,
    path: &str,
    old_path: Option<String>,
    status: DiffStatus,
    leaf: &walk::Leaf,
    content_changed: bool,
    opts: &DiffOptions,
) -> Result<FileDiff> {
    let old_bytes = leaf.old.as_ref().map(|s| bytes_of(c.old, s)).transpose()?;
    let new_bytes = leaf.new.as_ref().map(|s| bytes_of(c.new, s)).transpose()?;
    let binary = old_bytes.as_deref().is_some_and(text::is_binary)
        || new_bytes.as_deref().is_some_and(text::is_binary);
    let mut fd = FileDiff {
        path: path.to_owned(),
        old_path: old_path.clone(),
        status,
        old_mode: leaf.old.as_ref().map(mode_str),
        new_mode: leaf.new.as_ref().map(mode_str),
        content_changed,
        binary,
        insertions: None,
        deletions: None,
        patch: None,
    };
    if !opts.patch {
        return Ok(fd);
    }
    let old_text = String::from_utf8_lossy(old_bytes.as_deref().unwrap_or_default());
    let new_text = String::from_utf8_lossy(new_bytes.as_deref().unwrap_or_default());
    if !binary {
        let (ins, del) = text::line_counts(&old_text, &new_text);
        fd.insertions = Some(ins);
        fd.deletions = Some(del);
    }
    let side =
        |s: &Option<walk::Side>, p: &str, b: &Option<Vec<u8>>| -> Option<(String, u32, Vec<u8>)> {
            s.as_ref().map(|s| {
                (
                    p.to_owned(),
                    walk::git_mode(s.kind, s.mode),
                    b.clone().unwrap_or_default(),
                )
            })
        };
    let old_path = old_path.unwrap_or_else(|| path.to_owned());
    let old = side(&leaf.old, &old_path, &old_bytes);
    let new = side(&leaf.new, path, &new_bytes);
    fn view(x: &Option<(String, u32, Vec<u8>)>) -> Option<(&str, u32, &[u8])> {
        x.as_ref().map(|(p, m, b)| (p.as_str(), *m, b.as_slice()))
    }
    fd.patch = Some(if status == DiffStatus::TypeChanged {
        // git shows a type change as a deletion and an addition.
        text::patch(view(&old), None) + &text::patch(None, view(&new))
    } else {
        text::patch(view(&old), view(&new))
    });
    Ok(fd)
}
