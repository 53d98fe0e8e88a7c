//! File contents as fixed-size, content-addressed chunks.
//!
//! Fixed-size chunks keep range reads to index arithmetic; only the last
//! chunk of a file may be short. Identical chunks anywhere in the workspace
//! are stored once and reference-counted.

use std::io::Read;

use rusqlite::{Connection, params};
use sha2::{Digest, Sha256};

use crate::error::{Errno, FsError, Result};

/// Size of every chunk but a file's last.
pub const CHUNK_SIZE: usize = 256 * 1024;

/// Stores `data` and returns the chunk id, sharing an identical chunk if one exists.
fn put_chunk(conn: &Connection, data: &[u8]) -> Result<i64> {
    let hash = Sha256::digest(data);
    let mut stmt = conn.prepare_cached(
        "INSERT INTO chunks (hash, size, refs, data) VALUES (?1, ?2, 1, ?3)
         ON CONFLICT (hash) DO UPDATE SET refs = refs + 1
         RETURNING id",
    )?;
    Ok(stmt.query_row(params![&hash[..], data.len() as i64, data], |r| r.get(0))?)
}

fn add_extent(conn: &Connection, node: i64, idx: i64, chunk: i64) -> Result<()> {
    conn.prepare_cached("INSERT INTO extents (node, idx, chunk) VALUES (?1, ?2, ?3)")?
        .execute(params![node, idx, chunk])?;
    Ok(())
}

/// Drops extents `idx >= from` of `node`, releasing their chunks.
pub(crate) fn release_from(conn: &Connection, node: i64, from: i64) -> Result<()> {
    let chunks: Vec<i64> = conn
        .prepare_cached("SELECT chunk FROM extents WHERE node = ?1 AND idx >= ?2")?
        .query_map(params![node, from], |r| r.get(0))?
        .collect::<rusqlite::Result<_>>()?;
    if chunks.is_empty() {
        return Ok(());
    }
    let mut dec =
        conn.prepare_cached("UPDATE chunks SET refs = refs - 1 WHERE id = ?1 RETURNING refs")?;
    let mut del = conn.prepare_cached("DELETE FROM chunks WHERE id = ?1")?;
    for chunk in chunks {
        let refs: i64 = dec.query_row([chunk], |r| r.get(0))?;
        if refs <= 0 {
            del.execute([chunk])?;
        }
    }
    conn.prepare_cached("DELETE FROM extents WHERE node = ?1 AND idx >= ?2")?
        .execute(params![node, from])?;
    Ok(())
}

/// Gives `to` the same extents as `from` (a copy that moves no bytes).
pub(crate) fn share_extents(conn: &Connection, from: i64, to: i64) -> Result<()> {
    conn.prepare_cached(
        "INSERT INTO extents (node, idx, chunk) SELECT ?2, idx, chunk FROM extents WHERE node = ?1",
    )?
    .execute(params![from, to])?;
    let chunks: Vec<i64> = conn
        .prepare_cached("SELECT chunk FROM extents WHERE node = ?1")?
        .query_map([to], |r| r.get(0))?
        .collect::<rusqlite::Result<_>>()?;
    let mut inc = conn.prepare_cached("UPDATE chunks SET refs = refs + 1 WHERE id = ?1")?;
    for chunk in chunks {
        inc.execute([chunk])?;
    }
    Ok(())
}

/// Appends chunks for `data` starting at extent `first_idx`.
fn put_all(conn: &Connection, node: i64, first_idx: i64, data: &[u8]) -> Result<()> {
    for (i, piece) in data.chunks(CHUNK_SIZE).enumerate() {
        let chunk = put_chunk(conn, piece)?;
        add_extent(conn, node, first_idx + i as i64, chunk)?;
    }
    Ok(())
}

fn set_size(conn: &Connection, node: i64, size: u64, mtime_ns: i64) -> Result<()> {
    conn.prepare_cached("UPDATE nodes SET size = ?2, mtime_ns = ?3 WHERE id = ?1")?
        .execute(params![node, size as i64, mtime_ns])?;
    Ok(())
}

/// Replaces the content of `node` with `data`.
pub(crate) fn replace(conn: &Connection, node: i64, data: &[u8], mtime_ns: i64) -> Result<()> {
    release_from(conn, node, 0)?;
    put_all(conn, node, 0, data)?;
    set_size(conn, node, data.len() as u64, mtime_ns)
}

/// Content of a node known to have no extents yet.
pub(crate) fn fill_new(conn: &Connection, node: i64, data: &[u8], mtime_ns: i64) -> Result<()> {
    put_all(conn, node, 0, data)?;
    set_size(conn, node, data.len() as u64, mtime_ns)
}

/// Streams `reader` into a node with no extents; stops with `EFBIG` past `max`.
pub(crate) fn fill_from_reader(
    conn: &Connection,
    node: i64,
    reader: &mut dyn Read,
    max: u64,
    path: &str,
    mtime_ns: i64,
) -> Result<u64> {
    let mut buf = vec![0u8; CHUNK_SIZE];
    let mut total: u64 = 0;
    let mut idx = 0i64;
    loop {
        let mut filled = 0;
        while filled < CHUNK_SIZE {
            let n = reader
                .read(&mut buf[filled..])
                .map_err(|e| FsError::host_io(path, e))?;
            if n == 0 {
                break;
            }
            filled += n;
        }
        if filled == 0 {
            break;
        }
        total += filled as u64;
        if total > max {
            return Err(too_big(path, total, max));
        }
        let chunk = put_chunk(conn, &buf[..filled])?;
        add_extent(conn, node, idx, chunk)?;
        idx += 1;
        if filled < CHUNK_SIZE {
            break;
        }
    }
    set_size(conn, node, total, mtime_ns)?;
    Ok(total)
}

pub(crate) fn too_big(path: &str, size: u64, max: u64) -> FsError {
    FsError::custom(
        Errno::EFBIG,
        path,
        format!("file too large: {path} would be {size} bytes, the limit is {max}"),
    )
}

/// Appends `data` to a node of `old_size` bytes. Only the short last chunk
/// is rewritten, so appends cost O(chunk), not O(file).
pub(crate) fn append(
    conn: &Connection,
    node: i64,
    old_size: u64,
    data: &[u8],
    mtime_ns: i64,
) -> Result<u64> {
    let full = (old_size / CHUNK_SIZE as u64) as i64;
    let tail_len = (old_size % CHUNK_SIZE as u64) as usize;
    let mut joined;
    let mut rest = data;
    if tail_len > 0 {
        joined = read_extent(conn, node, full)?;
        joined.truncate(tail_len);
        let take = (CHUNK_SIZE - tail_len).min(rest.len());
        joined.extend_from_slice(&rest[..take]);
        rest = &rest[take..];
        release_from(conn, node, full)?;
        let chunk = put_chunk(conn, &joined)?;
        add_extent(conn, node, full, chunk)?;
        put_all(conn, node, full + 1, rest)?;
    } else {
        put_all(conn, node, full, rest)?;
    }
    let new_size = old_size + data.len() as u64;
    set_size(conn, node, new_size, mtime_ns)?;
    Ok(new_size)
}

/// Shrinks or zero-extends a node to `new_size`.
pub(crate) fn truncate(
    conn: &Connection,
    node: i64,
    old_size: u64,
    new_size: u64,
    mtime_ns: i64,
) -> Result<()> {
    if new_size > old_size {
        let zeros = vec![0u8; (new_size - old_size) as usize];
        append(conn, node, old_size, &zeros, mtime_ns)?;
        return Ok(());
    }
    let keep_full = (new_size / CHUNK_SIZE as u64) as i64;
    let tail_len = (new_size % CHUNK_SIZE as u64) as usize;
    let tail = if tail_len > 0 {
        let mut t = read_extent(conn, node, keep_full)?;
        t.truncate(tail_len);
        Some(t)
    } else {
        None
    };
    release_from(conn, node, keep_full)?;
    if let Some(tail) = tail {
        let chunk = put_chunk(conn, &tail)?;
        add_extent(conn, node, keep_full, chunk)?;
    }
    set_size(conn, node, new_size, mtime_ns)
}

fn read_extent(conn: &Connection, node: i64, idx: i64) -> Result<Vec<u8>> {
    Ok(conn
        .prepare_cached(
            "SELECT c.data FROM extents e JOIN chunks c ON c.id = e.chunk WHERE e.node = ?1 AND e.idx = ?2",
        )?
        .query_row(params![node, idx], |r| r.get(0))?)
}

/// Reads `[offset, offset + len)` of a node of `size` bytes, clamped at EOF.
pub(crate) fn read_range(
    conn: &Connection,
    node: i64,
    size: u64,
    offset: u64,
    len: Option<u64>,
) -> Result<Vec<u8>> {
    if offset >= size {
        return Ok(Vec::new());
    }
    let end = len.map_or(size, |l| offset.saturating_add(l).min(size));
    if end <= offset {
        return Ok(Vec::new());
    }
    let first = (offset / CHUNK_SIZE as u64) as i64;
    let last = ((end - 1) / CHUNK_SIZE as u64) as i64;
    let mut out = Vec::with_capacity((end - offset) as usize);
    let mut stmt = conn.prepare_cached(
        "SELECT e.idx, c.data FROM extents e JOIN chunks c ON c.id = e.chunk
         WHERE e.node = ?1 AND e.idx BETWEEN ?2 AND ?3 ORDER BY e.idx",
    )?;
    let mut rows = stmt.query(params![node, first, last])?;
    while let Some(row) = rows.next()? {
        let idx: i64 = row.get(0)?;
        let data = row.get_ref(1)?.as_blob().map_err(rusqlite::Error::from)?;
        let chunk_start = idx as u64 * CHUNK_SIZE as u64;
        let from = offset.saturating_sub(chunk_start) as usize;
        let to = ((end - chunk_start) as usize).min(data.len());
        if from < to {
            out.extend_from_slice(&data[from..to]);
        }
    }
    Ok(out)
}

/// Calls `sink` with each piece of the node's content in order, without
/// holding the whole file in memory.
pub(crate) fn for_each_chunk(
    conn: &Connection,
    node: i64,
    sink: &mut dyn FnMut(&[u8]) -> Result<()>,
) -> Result<()> {
    let mut stmt = conn.prepare_cached(
        "SELECT c.data FROM extents e JOIN chunks c ON c.id = e.chunk WHERE e.node = ?1 ORDER BY e.idx",
    )?;
    let mut rows = stmt.query([node])?;
    while let Some(row) = rows.next()? {
        sink(row.get_ref(0)?.as_blob().map_err(rusqlite::Error::from)?)?;
    }
    Ok(())
}
