//! `fsck`: checks that a workspace file is whole. It reads everything, in
//! one read transaction, and changes nothing: the tree (every entry points
//! at a node, every directory is reachable once per entry and never from
//! below itself), the reference counts of nodes and chunks, each file's
//! chunk list against its size, every chunk's bytes against its sha256 and CRC-32,
//! the quota's running total, the path bound (`path_bound.rs`), and
//! SQLite's own `quick_check`.

use std::collections::HashMap;

use rusqlite::Connection;
use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::content::CHUNK_SIZE;
use crate::error::Result;
use crate::workspace::Workspace;

/// What [`Workspace::fsck`] found.
#[derive(Debug, Clone, Default, Serialize)]
pub struct FsckReport {
    /// Nodes checked.
    pub nodes: u64,
    /// Directory entries checked.
    pub entries: u64,
    /// Chunks checked (bytes hashed).
    pub chunks: u64,
    /// Every problem, one line each; empty when the workspace is whole.
    pub problems: Vec<String>,
}

impl FsckReport {
    /// Whether nothing is wrong.
    pub fn is_clean(&self) -> bool {
        self.problems.is_empty()
    }
}

struct NodeRow {
    kind: i64,
    size: i64,
    refs: i64,
    nlink: i64,
    chunks: Vec<i64>,
}

impl Workspace {
    /// Checks the whole workspace file and reports every problem found.
    pub fn fsck(&self) -> Result<FsckReport> {
        self.read_tx(|c| {
            let mut report = FsckReport::default();
            quick_check(c, &mut report)?;
            let nodes = load_nodes(c)?;
            report.nodes = nodes.len() as u64;
            let live = crate::tree::live_root(c)?;
            let pinned = check_pins(c, &nodes, &mut report)?;
            let children = check_entries(c, &nodes, live, &pinned, &mut report)?;
            check_reachable(&nodes, &children, live, &pinned, &mut report);
            check_links(&nodes, &children, &mut report);
            // Paths mean something only in a whole tree (a cycle has none).
            if report.problems.is_empty()
                && let Some(problem) = crate::path_bound::problem(c)?
            {
                report.problems.push(problem);
            }
            let uses = check_files(c, &nodes, &mut report)?;
            check_chunks(c, &uses, &mut report)?;
            Ok(report)
        })
    }
}

fn quick_check(c: &Connection, report: &mut FsckReport) -> Result<()> {
    let mut stmt = c.prepare("PRAGMA quick_check")?;
    let lines = stmt
        .query_map([], |r| r.get::<_, String>(0))?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    for line in lines.into_iter().filter(|l| l != "ok") {
        report.problems.push(format!("sqlite: {line}"));
    }
    Ok(())
}

fn load_nodes(c: &Connection) -> Result<HashMap<i64, NodeRow>> {
    let mut stmt = c.prepare("SELECT id, kind, size, refs, chunks, nlink FROM nodes")?;
    let rows = stmt.query_map([], |r| {
        let blob: Option<Vec<u8>> = r.get(4)?;
        let chunks = blob
            .unwrap_or_default()
            .chunks(8)
            .map(|b| {
                let mut id = [0u8; 8];
                id[..b.len()].copy_from_slice(b);
                i64::from_le_bytes(id)
            })
            .collect();
        Ok((
            r.get::<_, i64>(0)?,
            NodeRow {
                kind: r.get(1)?,
                size: r.get(2)?,
                refs: r.get(3)?,
                nlink: r.get(5)?,
                chunks,
            },
        ))
    })?;
    Ok(rows.collect::<rusqlite::Result<HashMap<_, _>>>()?)
}

/// Entries name existing nodes from directories, and each node's `refs`
/// is the number of entries naming it. Returns each directory's children.
fn check_entries(
    c: &Connection,
    nodes: &HashMap<i64, NodeRow>,
    live: i64,
    pinned: &HashMap<i64, i64>,
    report: &mut FsckReport,
) -> Result<HashMap<i64, Vec<i64>>> {
    let mut incoming: HashMap<i64, i64> = HashMap::new();
    let mut children: HashMap<i64, Vec<i64>> = HashMap::new();
    let mut stmt = c.prepare("SELECT dir, name, child FROM dentries")?;
    let mut rows = stmt.query([])?;
    while let Some(row) = rows.next()? {
        let (dir, name, child): (i64, String, i64) = (row.get(0)?, row.get(1)?, row.get(2)?);
        report.entries += 1;
        match nodes.get(&dir) {
            None => report.problems.push(format!(
                "tree: entry {name:?} is in directory node {dir}, which does not exist"
            )),
            Some(d) if d.kind != 2 => report.problems.push(format!(
                "tree: entry {name:?} is in node {dir}, which is not a directory"
            )),
            Some(_) => {}
        }
        if !nodes.contains_key(&child) {
            report.problems.push(format!(
                "tree: entry {name:?} in directory node {dir} points at node {child}, which does not exist"
            ));
            continue;
        }
        *incoming.entry(child).or_default() += 1;
        children.entry(dir).or_default().push(child);
    }
    if nodes.get(&live).is_none_or(|r| r.kind != 2) {
        report.problems.push(format!(
            "tree: the root (node {live}) is missing or not a directory"
        ));
    }
    let mut ids: Vec<_> = nodes.keys().copied().collect();
    ids.sort_unstable();
    for id in ids {
        let node = &nodes[&id];
        // The root has no entry; its count of one is the workspace's own.
        // The live root counts one for the workspace, a pinned tree's root
        // one per holder (`snapshots::pin`); a root can be both.
        let expected = if id == live || pinned.contains_key(&id) {
            i64::from(id == live) + pinned.get(&id).copied().unwrap_or(0)
        } else {
            incoming.get(&id).copied().unwrap_or(0)
        };
        if (id == live || pinned.contains_key(&id)) && incoming.contains_key(&id) {
            report.problems.push(format!(
                "tree: the root node {id} is listed inside a directory"
            ));
        }
        if node.refs != expected {
            report.problems.push(format!(
                "refs: node {id} records {} references, {expected} entries point at it",
                node.refs
            ));
        }
    }
    Ok(children)
}

/// Hard links are counted, and no copy shares a hard-linked node or a
/// directory above one (`hard_links`).
fn check_links(
    nodes: &HashMap<i64, NodeRow>,
    children: &HashMap<i64, Vec<i64>>,
    report: &mut FsckReport,
) {
    let counts = nodes
        .iter()
        .map(|(&id, n)| (id, (n.kind, n.refs, n.nlink)))
        .collect();
    let mut parents: HashMap<i64, Vec<i64>> = HashMap::new();
    for (&dir, kids) in children {
        for &kid in kids {
            parents.entry(kid).or_default().push(dir);
        }
    }
    report
        .problems
        .extend(crate::hard_links::problems(&counts, &parents));
}

/// Every node is reachable from the root, and no directory holds itself.
fn check_reachable(
    nodes: &HashMap<i64, NodeRow>,
    children: &HashMap<i64, Vec<i64>>,
    live: i64,
    pinned: &HashMap<i64, i64>,
    report: &mut FsckReport,
) {
    // 0 unvisited, 1 on the current path, 2 done: a child on the path is a cycle.
    let mut state: HashMap<i64, u8> = HashMap::new();
    let mut roots: Vec<i64> = pinned.keys().copied().collect();
    roots.sort_unstable();
    roots.insert(0, live);
    for root in roots {
        if state.contains_key(&root) || !nodes.contains_key(&root) {
            continue;
        }
        state.insert(root, 1);
        walk_from(root, children, &mut state, report);
    }
    let mut lost: Vec<_> = nodes.keys().filter(|id| !state.contains_key(id)).collect();
    lost.sort_unstable();
    for id in lost {
        report.problems.push(format!(
            "tree: node {id} cannot be reached from the root or a pinned tree"
        ));
    }
}

/// Depth-first from `root`, marking what it reaches; reports cycles.
fn walk_from(
    root: i64,
    children: &HashMap<i64, Vec<i64>>,
    state: &mut HashMap<i64, u8>,
    report: &mut FsckReport,
) {
    let mut stack = vec![(root, 0usize)];
    while let Some((id, next)) = stack.pop() {
        let kids = children.get(&id).map_or(&[][..], |k| &k[..]);
        if let Some(&child) = kids.get(next) {
            stack.push((id, next + 1));
            match state.get(&child).copied().unwrap_or(0) {
                0 => {
                    state.insert(child, 1);
                    stack.push((child, 0));
                }
                1 => report.problems.push(format!(
                    "tree: directory node {child} is inside itself (a cycle)"
                )),
                _ => {}
            }
        } else {
            state.insert(id, 2);
        }
    }
}

/// The pinned trees (snapshots, runs' before and after) and their holders:
/// each must be an existing directory, every snapshot and run must name a
/// listed one. Returns each pinned root's number of holders.
fn check_pins(
    c: &Connection,
    nodes: &HashMap<i64, NodeRow>,
    report: &mut FsckReport,
) -> Result<HashMap<i64, i64>> {
    let mut pinned = HashMap::new();
    for (root, holders) in crate::snapshots::pin::holders(c)? {
        match nodes.get(&root) {
            Some(n) if n.kind == 2 => {}
            _ => report.problems.push(format!(
                "pins: pinned tree {root} is not a directory node that exists"
            )),
        }
        if holders == 0 {
            report.problems.push(format!(
                "pins: pinned tree {root} has no snapshot or run holding it"
            ));
        }
        pinned.insert(root, holders);
    }
    let mut stmt = c.prepare(
        "SELECT 'snapshot ' || name, root FROM snapshots
         UNION ALL SELECT 'run ' || id || ' (before)', tree_before FROM runs WHERE tree_before IS NOT NULL
         UNION ALL SELECT 'run ' || id || ' (after)', tree_after FROM runs WHERE tree_after IS NOT NULL",
    )?;
    let mut rows = stmt.query([])?;
    while let Some(row) = rows.next()? {
        let (who, root): (String, i64) = (row.get(0)?, row.get(1)?);
        if !pinned.contains_key(&root) {
            report.problems.push(format!(
                "pins: {who} names tree {root}, which is not a pinned tree"
            ));
        }
    }
    Ok(pinned)
}

/// Files' chunk lists against their sizes; returns how often each chunk is used.
fn check_files(
    c: &Connection,
    nodes: &HashMap<i64, NodeRow>,
    report: &mut FsckReport,
) -> Result<HashMap<i64, i64>> {
    let sizes: HashMap<i64, i64> = c
        .prepare("SELECT id, size FROM chunks")?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<rusqlite::Result<_>>()?;
    let mut uses: HashMap<i64, i64> = HashMap::new();
    let mut ids: Vec<_> = nodes.keys().copied().collect();
    ids.sort_unstable();
    for id in ids {
        let node = &nodes[&id];
        if node.kind != 1 {
            if !node.chunks.is_empty() {
                report
                    .problems
                    .push(format!("content: node {id} is not a file but has chunks"));
            }
            continue;
        }
        let mut total = 0i64;
        let last = node.chunks.len().saturating_sub(1);
        for (i, chunk) in node.chunks.iter().enumerate() {
            *uses.entry(*chunk).or_default() += 1;
            match sizes.get(chunk) {
                None => report.problems.push(format!(
                    "content: file node {id} uses chunk {chunk}, which does not exist"
                )),
                Some(&size) => {
                    if i < last && size != CHUNK_SIZE as i64 {
                        report.problems.push(format!(
                            "content: file node {id}: chunk {chunk} is {size} bytes, only a file's last chunk may be short"
                        ));
                    }
                    total += size;
                }
            }
        }
        if total != node.size {
            report.problems.push(format!(
                "content: file node {id} records {} bytes, its chunks hold {total}",
                node.size
            ));
        }
    }
    let mut pins = c.prepare("SELECT chunk FROM journal_chunks")?;
    let mut rows = pins.query([])?;
    while let Some(row) = rows.next()? {
        *uses.entry(row.get(0)?).or_default() += 1;
    }
    Ok(uses)
}

/// Each chunk's bytes against its sha256 and its count against its uses,
/// and the quota's running total against the sum.
fn check_chunks(c: &Connection, uses: &HashMap<i64, i64>, report: &mut FsckReport) -> Result<()> {
    let mut stmt = c.prepare("SELECT id, hash, size, refs, data, crc FROM chunks ORDER BY id")?;
    let mut rows = stmt.query([])?;
    let mut total = 0i64;
    while let Some(row) = rows.next()? {
        let (id, size, refs): (i64, i64, i64) = (row.get(0)?, row.get(2)?, row.get(3)?);
        let hash = row.get_ref(1)?.as_blob().map_err(rusqlite::Error::from)?;
        let data = row.get_ref(4)?.as_blob().map_err(rusqlite::Error::from)?;
        report.chunks += 1;
        total += size;
        let crc: Option<u32> = row.get(5)?;
        if Sha256::digest(data)[..] != *hash {
            report.problems.push(format!(
                "chunks: chunk {id} does not match its sha256 (its bytes changed)"
            ));
        } else if crc.is_some_and(|crc| crc32fast::hash(data) != crc) {
            report.problems.push(format!(
                "chunks: chunk {id} does not match its crc32 (its bytes match the sha256: the crc changed)"
            ));
        }
        if data.len() as i64 != size {
            report.problems.push(format!(
                "chunks: chunk {id} records {size} bytes and holds {}",
                data.len()
            ));
        }
        let used = uses.get(&id).copied().unwrap_or(0);
        if refs != used {
            report.problems.push(format!(
                "refs: chunk {id} records {refs} references, it is used {used} times"
            ));
        }
    }
    let counted: i64 = c.query_row("SELECT stored_bytes FROM workspace WHERE id = 1", [], |r| {
        r.get(0)
    })?;
    if counted != total {
        report.problems.push(format!(
            "quota: the workspace counts {counted} bytes stored, its chunks hold {total}"
        ));
    }
    Ok(())
}
