//! Space held by pinned trees: what each snapshot holds that nothing else
//! does (`computer info`), and `gc`, which frees what only old runs' trees
//! hold.
//!
//! Chunks are reference-counted, so removing a snapshot frees the chunks
//! only it used at once; the pinned trees of runs (kept for `undo`, see
//! `undo::record`) are what keeps content alive past its use, and `gc` is
//! where they go.

use std::collections::{HashMap, HashSet};

use rusqlite::Connection;
use serde::Serialize;

use crate::error::Result;
use crate::tree::NodeKind;
use crate::workspace::Workspace;

/// What one snapshot holds that no other tree (live, snapshot, run) uses.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SnapshotSpace {
    /// The snapshot.
    pub name: String,
    /// Chunks only this snapshot uses.
    pub exclusive_chunks: u64,
    /// Their bytes: what removing the snapshot frees.
    pub exclusive_bytes: u64,
}

/// What [`Workspace::gc`] freed.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct GcReport {
    /// Runs whose before/after trees were dropped (they can no longer be
    /// undone or diffed).
    pub runs_dropped: u64,
    /// Chunks freed.
    pub chunks_freed: u64,
    /// Bytes freed.
    pub bytes_freed: u64,
    /// Chunks left, all used by the live tree, a snapshot, a kept run's
    /// trees or a durable run's journal.
    pub chunks_left: u64,
}

/// The chunks reachable from directory or file node `root`.
fn chunks_below(c: &Connection, root: i64) -> Result<HashSet<i64>> {
    let mut seen_nodes = HashSet::new();
    let mut out = HashSet::new();
    let mut pending = vec![root];
    let mut children = c.prepare_cached("SELECT child FROM dentries WHERE dir = ?1")?;
    let mut node = c.prepare_cached("SELECT kind, chunks FROM nodes WHERE id = ?1")?;
    while let Some(id) = pending.pop() {
        if !seen_nodes.insert(id) {
            continue;
        }
        let (kind, chunks): (i64, Option<Vec<u8>>) =
            node.query_row([id], |r| Ok((r.get(0)?, r.get(1)?)))?;
        if kind == NodeKind::Directory.to_db() {
            let kids = children
                .query_map([id], |r| r.get::<_, i64>(0))?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            pending.extend(kids);
        } else if let Some(list) = chunks {
            out.extend(list.chunks(8).map(|b| {
                let mut id = [0u8; 8];
                id[..b.len()].copy_from_slice(b);
                i64::from_le_bytes(id)
            }));
        }
    }
    Ok(out)
}

impl Workspace {
    /// For each snapshot, the chunks and bytes only it holds. Walks every
    /// pinned tree: O(trees x their size), a report, not a hot path.
    pub fn snapshot_space(&self) -> Result<Vec<SnapshotSpace>> {
        self.read_tx(|c| {
            let snaps: Vec<(String, i64)> = c
                .prepare_cached("SELECT name, root FROM snapshots ORDER BY created_ns, name")?
                .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
                .collect::<rusqlite::Result<_>>()?;
            let live = crate::tree::live_root(c)?;
            let mut roots: Vec<i64> = vec![live];
            for (root, _) in super::pin::holders(c)? {
                // The live root may be pinned too: one tree, counted once.
                if !roots.contains(&root) {
                    roots.push(root);
                }
            }
            // How many distinct trees use each chunk.
            let mut users: HashMap<i64, u32> = HashMap::new();
            let mut per_root: HashMap<i64, HashSet<i64>> = HashMap::new();
            for root in roots {
                let set = chunks_below(c, root)?;
                for &chunk in &set {
                    *users.entry(chunk).or_default() += 1;
                }
                per_root.insert(root, set);
            }
            let journal: HashSet<i64> = c
                .prepare_cached("SELECT chunk FROM journal_chunks")?
                .query_map([], |r| r.get(0))?
                .collect::<rusqlite::Result<_>>()?;
            let mut size = c.prepare_cached("SELECT size FROM chunks WHERE id = ?1")?;
            let mut out = Vec::new();
            for (name, root) in snaps {
                // Snapshots sharing one pinned tree, or the live tree's
                // root, hold nothing alone.
                let shared = root == live
                    || c.prepare_cached("SELECT count(*) FROM snapshots WHERE root = ?1")?
                        .query_row([root], |r| r.get::<_, i64>(0))?
                        > 1;
                let mut space = SnapshotSpace {
                    name,
                    exclusive_chunks: 0,
                    exclusive_bytes: 0,
                };
                if !shared {
                    for chunk in &per_root[&root] {
                        if users[chunk] == 1 && !journal.contains(chunk) {
                            space.exclusive_chunks += 1;
                            space.exclusive_bytes +=
                                size.query_row([chunk], |r| r.get::<_, i64>(0))? as u64;
                        }
                    }
                }
                out.push(space);
            }
            Ok(out)
        })
    }

    /// Frees what only old runs' trees hold: drops the before/after trees
    /// of all but the newest `keep_runs` runs (those can no longer be
    /// undone), which frees every chunk no snapshot, live tree or kept run
    /// uses. One transaction.
    pub fn gc(&self, keep_runs: usize) -> Result<GcReport> {
        self.audited(
            "gc",
            "",
            || Some(serde_json::json!({ "keep_runs": keep_runs })),
            || {
                self.meta_tx(|c| {
                    let count =
                        |c: &Connection| -> Result<(i64, i64)> {
                            Ok(c.prepare_cached(
                                "SELECT count(*), coalesce(sum(size), 0) FROM chunks",
                            )?
                            .query_row([], |r| Ok((r.get(0)?, r.get(1)?)))?)
                        };
                    let (chunks0, bytes0) = count(c)?;
                    let runs_dropped = crate::undo::record::drop_older_than(c, keep_runs)?;
                    // Chunks are freed when their count reaches zero; one at
                    // zero that is still stored (none, in a whole file) goes
                    // here, so gc leaves exactly the chunks something uses.
                    let stray: i64 = c
                        .prepare_cached("DELETE FROM chunks WHERE refs <= 0 RETURNING size")?
                        .query_map([], |r| r.get::<_, i64>(0))?
                        .collect::<rusqlite::Result<Vec<_>>>()?
                        .into_iter()
                        .sum();
                    if stray > 0 {
                        c.prepare_cached(
                            "UPDATE workspace SET stored_bytes = stored_bytes - ?1 WHERE id = 1",
                        )?
                        .execute([stray])?;
                    }
                    let (chunks1, bytes1) = count(c)?;
                    Ok(GcReport {
                        runs_dropped,
                        chunks_freed: (chunks0 - chunks1) as u64,
                        bytes_freed: (bytes0 - bytes1) as u64,
                        chunks_left: chunks1 as u64,
                    })
                })
            },
        )
    }
}
