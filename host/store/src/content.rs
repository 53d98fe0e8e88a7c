//! File contents as fixed-size, content-addressed chunks.
//!
//! Fixed-size chunks keep range reads to index arithmetic; only the last
//! chunk of a file may be short. Identical chunks anywhere in the workspace
//! are stored once and reference-counted. A file's chunk list lives in its
//! node row (`nodes.chunks`, packed little-endian u64 ids).

use std::io::Read;

use rusqlite::{Connection, OptionalExtension, params};
use sha2::{Digest, Sha256};

use crate::error::{Errno, FsError, Result};

/// Size of every chunk but a file's last.
pub const CHUNK_SIZE: usize = 256 * 1024;

/// Chunk ids are positive 63-bit integers.
const ID_MASK: u64 = (1 << 63) - 1;

fn decode(blob: Option<Vec<u8>>) -> Vec<i64> {
    blob.unwrap_or_default()
        .chunks_exact(8)
        .map(|b| i64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]))
        .collect()
}

fn encode(ids: &[i64]) -> Vec<u8> {
    ids.iter().flat_map(|id| id.to_le_bytes()).collect()
}

/// The chunk ids of a file, in order.
pub(crate) fn chunk_list(conn: &Connection, node: i64) -> Result<Vec<i64>> {
    let blob: Option<Vec<u8>> = conn
        .prepare_cached("SELECT chunks FROM nodes WHERE id = ?1")?
        .query_row([node], |r| r.get(0))?;
    Ok(decode(blob))
}

fn store_list(conn: &Connection, node: i64, ids: &[i64], size: u64, mtime_ns: i64) -> Result<()> {
    let blob = (!ids.is_empty()).then(|| encode(ids));
    conn.prepare_cached("UPDATE nodes SET chunks = ?2, size = ?3, mtime_ns = ?4 WHERE id = ?1")?
        .execute(params![node, blob, size as i64, mtime_ns])?;
    Ok(())
}

/// Content cut into chunks and hashed, before any transaction: the hashing
/// (the bulk of a large write's CPU time) then happens outside the write
/// lock, and the digests also serve the audit log's summary.
pub(crate) struct Hashed<'a> {
    pub data: &'a [u8],
    /// The sha256 of each `CHUNK_SIZE` piece, in order.
    pub digests: Vec<[u8; 32]>,
}

impl<'a> Hashed<'a> {
    pub fn new(data: &'a [u8]) -> Self {
        let digests = data
            .chunks(CHUNK_SIZE)
            .map(|piece| Sha256::digest(piece).into())
            .collect();
        Hashed { data, digests }
    }
}

/// Stores `data` and returns the chunk id, sharing an identical chunk if one exists.
fn put_chunk(conn: &Connection, data: &[u8]) -> Result<i64> {
    put_hashed_chunk(conn, data, &Sha256::digest(data).into())
}

/// [`put_chunk`] for a chunk whose sha256 is known.
fn put_hashed_chunk(conn: &Connection, data: &[u8], hash: &[u8; 32]) -> Result<i64> {
    let mut prefix = [0u8; 8];
    prefix.copy_from_slice(&hash[..8]);
    let mut id = (u64::from_le_bytes(prefix) & ID_MASK) as i64;
    let mut find = conn.prepare_cached("SELECT hash FROM chunks WHERE id = ?1")?;
    loop {
        let existing: Option<Vec<u8>> = find.query_row([id], |r| r.get(0)).optional()?;
        match existing {
            None => {
                crate::quota::charge(conn, data.len() as u64)?;
                conn.prepare_cached(
                    "INSERT INTO chunks (id, hash, size, refs, data, crc) VALUES (?1, ?2, ?3, 1, ?4, ?5)",
                )?
                .execute(params![id, &hash[..], data.len() as i64, data, crc32fast::hash(data)])?;
                return Ok(id);
            }
            Some(h) if h[..] == hash[..] => {
                conn.prepare_cached("UPDATE chunks SET refs = refs + 1 WHERE id = ?1")?
                    .execute([id])?;
                return Ok(id);
            }
            // A 63-bit prefix collision: probe the next id.
            Some(_) => id = ((id as u64).wrapping_add(1) & ID_MASK) as i64,
        }
    }
}

/// Drops one reference per occurrence in `ids`, deleting unreferenced chunks.
fn release_chunks(conn: &Connection, ids: &[i64]) -> Result<()> {
    let mut dec =
        conn.prepare_cached("UPDATE chunks SET refs = refs - 1 WHERE id = ?1 RETURNING refs")?;
    let mut del = conn.prepare_cached("DELETE FROM chunks WHERE id = ?1 RETURNING size")?;
    for &id in ids {
        let refs: i64 = dec.query_row([id], |r| r.get(0))?;
        if refs <= 0 {
            let size: i64 = del.query_row([id], |r| r.get(0))?;
            crate::quota::refund(conn, size as u64)?;
        }
    }
    Ok(())
}

fn retain_chunks(conn: &Connection, ids: &[i64]) -> Result<()> {
    let mut inc = conn.prepare_cached("UPDATE chunks SET refs = refs + 1 WHERE id = ?1")?;
    for &id in ids {
        inc.execute([id])?;
    }
    Ok(())
}

/// Releases every chunk of a node that is being deleted.
pub(crate) fn release_all(conn: &Connection, node: i64) -> Result<()> {
    let ids = chunk_list(conn, node)?;
    release_chunks(conn, &ids)
}

/// Moves the content (chunks, size, mtime) and mode of the unnamed node
/// `from`, just filled, into `into`, whose old content is released;
/// `from` is deleted.
pub(crate) fn adopt(conn: &Connection, from: i64, into: i64) -> Result<()> {
    release_all(conn, into)?;
    conn.prepare_cached(
        "UPDATE nodes SET (chunks, size, mtime_ns, mode) =
         (SELECT chunks, size, mtime_ns, mode FROM nodes WHERE id = ?1) WHERE id = ?2",
    )?
    .execute(params![from, into])?;
    conn.prepare_cached("DELETE FROM nodes WHERE id = ?1")?
        .execute([from])?;
    Ok(())
}

/// Takes a reference on every chunk of `node`, whose row was just copied
/// from another node (a copy that moves no bytes).
pub(crate) fn retain_all(conn: &Connection, node: i64) -> Result<()> {
    let ids = chunk_list(conn, node)?;
    retain_chunks(conn, &ids)
}

fn put_all(conn: &Connection, data: &[u8], ids: &mut Vec<i64>) -> Result<()> {
    for piece in data.chunks(CHUNK_SIZE) {
        ids.push(put_chunk(conn, piece)?);
    }
    Ok(())
}

fn put_hashed(conn: &Connection, content: &Hashed<'_>) -> Result<Vec<i64>> {
    content
        .data
        .chunks(CHUNK_SIZE)
        .zip(&content.digests)
        .map(|(piece, hash)| put_hashed_chunk(conn, piece, hash))
        .collect()
}

/// Replaces the content of `node`.
pub(crate) fn replace(
    conn: &Connection,
    node: i64,
    content: &Hashed<'_>,
    mtime_ns: i64,
) -> Result<()> {
    let old = chunk_list(conn, node)?;
    // New references first, so rewriting identical content never frees a chunk.
    let ids = put_hashed(conn, content)?;
    store_list(conn, node, &ids, content.data.len() as u64, mtime_ns)?;
    release_chunks(conn, &old)
}

/// Content of a node known to have none yet.
pub(crate) fn fill_new(
    conn: &Connection,
    node: i64,
    content: &Hashed<'_>,
    mtime_ns: i64,
) -> Result<()> {
    let ids = put_hashed(conn, content)?;
    store_list(conn, node, &ids, content.data.len() as u64, mtime_ns)
}

/// Streams `reader` into a node with no content; stops with `EFBIG` past `max`.
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
    let mut ids = Vec::new();
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
        ids.push(put_chunk(conn, &buf[..filled])?);
        if filled < CHUNK_SIZE {
            break;
        }
    }
    store_list(conn, node, &ids, total, mtime_ns)?;
    Ok(total)
}

pub(crate) fn too_big(path: &str, size: u64, max: u64) -> FsError {
    FsError::custom(
        Errno::EFBIG,
        path,
        format!("file too large: {path} would be {size} bytes, the limit is {max}"),
    )
}

fn chunk_data(conn: &Connection, id: i64) -> Result<Vec<u8>> {
    let mut stmt = conn.prepare_cached(CHUNK_QUERY)?;
    let mut out = Vec::new();
    with_chunk(&mut stmt, id, &mut |data| {
        out.extend_from_slice(data);
        Ok(())
    })?;
    Ok(out)
}

/// Every read of chunk data goes through [`with_chunk`] with this query.
const CHUNK_QUERY: &str = "SELECT data, hash, crc FROM chunks WHERE id = ?1";

/// Calls `f` with the bytes of chunk `id` once they match the CRC-32 they
/// were stored with (the sha256 for chunks stored before there was one): a
/// chunk changed in the file (bit rot, a bad copy, an edit) fails the read
/// with `EIO` instead of being handed out. The CRC is the cheap check
/// (BENCHMARKS.md "Chunk checks on read"); `fsck` checks the sha256 as well.
fn with_chunk<T>(
    stmt: &mut rusqlite::CachedStatement<'_>,
    id: i64,
    f: &mut dyn FnMut(&[u8]) -> Result<T>,
) -> Result<T> {
    let mut rows = stmt.query([id])?;
    let row = rows.next()?.ok_or_else(|| missing_chunk(id))?;
    let data = row.get_ref(0)?.as_blob().map_err(rusqlite::Error::from)?;
    let sound = match row.get::<_, Option<u32>>(2)? {
        Some(crc) => crc32fast::hash(data) == crc,
        None => {
            let hash = row.get_ref(1)?.as_blob().map_err(rusqlite::Error::from)?;
            Sha256::digest(data)[..] == *hash
        }
    };
    if !sound {
        return Err(damaged_chunk(id));
    }
    f(data)
}

fn damaged_chunk(id: i64) -> FsError {
    FsError::custom(
        Errno::EIO,
        "",
        format!(
            "workspace is corrupt: chunk {id} does not match its checksum (its bytes changed on disk); run `computer fsck`"
        ),
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
    let mut ids = chunk_list(conn, node)?;
    let tail_len = (old_size % CHUNK_SIZE as u64) as usize;
    let mut released = Vec::new();
    let mut rest = data;
    if tail_len > 0
        && let Some(last) = ids.pop()
    {
        let mut joined = chunk_data(conn, last)?;
        joined.truncate(tail_len);
        let take = (CHUNK_SIZE - tail_len).min(rest.len());
        joined.extend_from_slice(&rest[..take]);
        rest = &rest[take..];
        ids.push(put_chunk(conn, &joined)?);
        released.push(last);
    }
    put_all(conn, rest, &mut ids)?;
    let new_size = old_size + data.len() as u64;
    store_list(conn, node, &ids, new_size, mtime_ns)?;
    release_chunks(conn, &released)?;
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
        // Zero chunks shared, not a buffer of the new size's zeros.
        let grow = Patch {
            size: new_size,
            keep: old_size,
            pages: &[],
        };
        return patch(conn, node, old_size, &grow, mtime_ns);
    }
    let mut ids = chunk_list(conn, node)?;
    let keep_full = (new_size / CHUNK_SIZE as u64) as usize;
    let tail_len = (new_size % CHUNK_SIZE as u64) as usize;
    let mut dropped: Vec<i64> = ids.split_off(keep_full.min(ids.len()));
    if tail_len > 0
        && let Some(&first_dropped) = dropped.first()
    {
        let mut tail = chunk_data(conn, first_dropped)?;
        tail.truncate(tail_len);
        ids.push(put_chunk(conn, &tail)?);
    }
    store_list(conn, node, &ids, new_size, mtime_ns)?;
    release_chunks(conn, &dropped)?;
    dropped.clear();
    Ok(())
}

/// Reads `[offset, offset + len)` of a node of `size` bytes, clamped at EOF.
/// The piece list [`read_range_pieces`] also builds is one small entry per
/// 256 KiB chunk, so one loop serves both.
pub(crate) fn read_range(
    conn: &Connection,
    node: i64,
    size: u64,
    offset: u64,
    len: Option<u64>,
) -> Result<Vec<u8>> {
    read_range_pieces(conn, node, size, offset, len).map(|(data, _)| data)
}

/// Bytes `[start, end)` of one chunk: what a durable run's journal keeps of
/// a large read instead of the bytes themselves (the chunk is pinned while
/// the journal exists, see `journal_chunks`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ChunkPiece {
    /// The chunk's id.
    pub chunk: i64,
    /// First byte of the piece in the chunk.
    pub start: u32,
    /// One past its last byte.
    pub end: u32,
}

/// As [`read_range`], also saying which pieces of which chunks the bytes
/// came from.
pub(crate) fn read_range_pieces(
    conn: &Connection,
    node: i64,
    size: u64,
    offset: u64,
    len: Option<u64>,
) -> Result<(Vec<u8>, Vec<ChunkPiece>)> {
    let end = len.map_or(size, |l| offset.saturating_add(l).min(size));
    if offset >= size || end <= offset {
        return Ok((Vec::new(), Vec::new()));
    }
    let ids = chunk_list(conn, node)?;
    let first = (offset / CHUNK_SIZE as u64) as usize;
    let last = ((end - 1) / CHUNK_SIZE as u64) as usize;
    let mut out = Vec::with_capacity((end - offset) as usize);
    let mut pieces = Vec::with_capacity(last + 1 - first);
    let mut stmt = conn.prepare_cached(CHUNK_QUERY)?;
    for (idx, id) in ids.iter().enumerate().take(last + 1).skip(first) {
        with_chunk(&mut stmt, *id, &mut |data| {
            let chunk_start = idx as u64 * CHUNK_SIZE as u64;
            let from = offset.saturating_sub(chunk_start) as usize;
            let to = ((end - chunk_start) as usize).min(data.len());
            if from < to {
                out.extend_from_slice(&data[from..to]);
                pieces.push(ChunkPiece {
                    chunk: *id,
                    start: from as u32,
                    end: to as u32,
                });
            }
            Ok(())
        })?;
    }
    Ok((out, pieces))
}

/// The bytes of `pieces`, in order.
pub(crate) fn read_pieces(conn: &Connection, pieces: &[ChunkPiece]) -> Result<Vec<u8>> {
    let total: usize = pieces
        .iter()
        .map(|p| p.end.saturating_sub(p.start) as usize)
        .sum();
    let mut out = Vec::with_capacity(total);
    let mut stmt = conn.prepare_cached(CHUNK_QUERY)?;
    for p in pieces {
        with_chunk(&mut stmt, p.chunk, &mut |data| {
            let piece = data
                .get(p.start as usize..p.end as usize)
                .ok_or_else(|| missing_chunk(p.chunk))?;
            out.extend_from_slice(piece);
            Ok(())
        })?;
    }
    Ok(out)
}

/// Takes a reference on chunk `id` for a run's journal; `false` if the
/// chunk is gone (its last file changed since it was read).
pub(crate) fn pin(conn: &Connection, id: i64) -> Result<bool> {
    Ok(conn
        .prepare_cached("UPDATE chunks SET refs = refs + 1 WHERE id = ?1")?
        .execute([id])?
        == 1)
}

/// Drops the references [`pin`] took.
pub(crate) fn unpin(conn: &Connection, ids: &[i64]) -> Result<()> {
    release_chunks(conn, ids)
}

fn missing_chunk(id: i64) -> FsError {
    FsError::custom(
        Errno::EIO,
        "",
        format!("workspace is corrupt: chunk {id} is missing"),
    )
}

/// Calls `sink` with each piece of the node's content in order, without
/// holding the whole file in memory.
pub(crate) fn for_each_chunk(
    conn: &Connection,
    node: i64,
    sink: &mut dyn FnMut(&[u8]) -> Result<()>,
) -> Result<()> {
    let ids = chunk_list(conn, node)?;
    let mut stmt = conn.prepare_cached(CHUNK_QUERY)?;
    for id in ids {
        with_chunk(&mut stmt, id, sink)?;
    }
    Ok(())
}

/// Changes a node of `old_size` bytes in place, chunk by chunk: its new
/// size is `new_size`; chunk `i` of `pages` holds the bytes from the
/// chunk's start (zeros follow it up to the chunk's end or the file's);
/// every other chunk keeps the stored bytes below `keep` and is zeros from
/// `keep` on. Only the chunks that changed are hashed and stored, and a
/// zero region costs one shared chunk, so a program that seeks far and
/// writes a byte, or sets a large size, stores no more than that byte and
/// allocates at most a chunk.
pub(crate) fn patch(
    conn: &Connection,
    node: i64,
    old_size: u64,
    change: &Patch<'_>,
    mtime_ns: i64,
) -> Result<()> {
    let old = chunk_list(conn, node)?;
    let chunk = CHUNK_SIZE as u64;
    let count = change.size.div_ceil(chunk);
    let mut ids = Vec::with_capacity(count as usize);
    let mut zeros: Option<(usize, i64)> = None;
    let mut reused = Vec::new();
    let mut pages = change.pages.iter().peekable();
    for i in 0..count {
        let start = i * chunk;
        let want = (change.size - start).min(chunk) as usize;
        while pages.peek().is_some_and(|(p, _)| *p < i) {
            pages.next();
        }
        if let Some((_, page)) = pages.next_if(|(p, _)| *p == i) {
            let mut data = page[..page.len().min(want)].to_vec();
            data.resize(want, 0);
            ids.push(put_chunk(conn, &data)?);
            continue;
        }
        let stored = old
            .get(i as usize)
            .map_or(0, |_| old_size.saturating_sub(start).min(chunk) as usize);
        let valid =
            (change.keep.min(old_size).saturating_sub(start).min(chunk) as usize).min(stored);
        if valid == 0 {
            // One zero chunk of each length serves every sparse chunk.
            let id = match zeros {
                Some((len, id)) if len == want => {
                    retain_chunks(conn, &[id])?;
                    id
                }
                _ => put_chunk(conn, &vec![0u8; want])?,
            };
            zeros = Some((want, id));
            ids.push(id);
        } else if valid == want && stored == want {
            reused.push(old[i as usize]);
            ids.push(old[i as usize]);
        } else {
            let mut data = chunk_data(conn, old[i as usize])?;
            data.truncate(valid);
            data.resize(want, 0);
            ids.push(put_chunk(conn, &data)?);
        }
    }
    // New references first, so a chunk kept in place is never freed.
    retain_chunks(conn, &reused)?;
    store_list(conn, node, &ids, change.size, mtime_ns)?;
    release_chunks(conn, &old)
}

/// An in-place change of a file (`Workspace::patch`): its new size, and the
/// chunks that changed. Chunk `i` of the result is `pages`' entry for `i`
/// (its bytes from the chunk's start, zeros after them), else the stored
/// chunk's bytes below `keep` and zeros from `keep` on.
#[derive(Debug, Clone, Copy)]
pub struct Patch<'a> {
    /// The file's new size.
    pub size: u64,
    /// Stored bytes below this offset that no page covers are kept.
    pub keep: u64,
    /// Changed chunks, by chunk index, in increasing order.
    pub pages: &'a [(u64, &'a [u8])],
}
