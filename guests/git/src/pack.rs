//! Packs as real git writes them (`git gc`, `git repack`): a version 2
//! `.idx` (fan-out, sorted ids, CRCs, 31-bit offsets with a large-offset
//! table) and its `.pack` (entries of a type, a size, zlib data; deltas
//! against an offset in the pack or an object id). Both are read whole.

use std::io::Read;
use std::path::Path;

use flate2::bufread::ZlibDecoder;
use gix_hash::ObjectId;

use crate::error::{Result, fatal};
use crate::odb::Kind;

pub struct Pack {
    idx: Vec<u8>,
    data: Vec<u8>,
    count: usize,
}

pub enum Entry {
    Whole(Kind, Vec<u8>),
    OfsDelta(u64, Vec<u8>),
    RefDelta(ObjectId, Vec<u8>),
}

const IDX_MAGIC: &[u8] = b"\xfftOc";

impl Pack {
    pub fn open(idx_path: &Path) -> Result<Pack> {
        let idx = std::fs::read(idx_path)?;
        let data = std::fs::read(idx_path.with_extension("pack"))?;
        if idx.len() < 8 + 256 * 4 || &idx[..4] != IDX_MAGIC || be32(&idx[4..]) != 2 {
            return fatal(format!(
                "{} is not a version 2 pack index",
                idx_path.display()
            ));
        }
        if data.len() < 12 || &data[..4] != b"PACK" {
            return fatal(format!("{} is not a pack", idx_path.display()));
        }
        let count = be32(&idx[8 + 255 * 4..]) as usize;
        Ok(Pack { idx, data, count })
    }

    fn id_at(&self, i: usize) -> &[u8] {
        let start = 8 + 256 * 4 + i * 20;
        &self.idx[start..start + 20]
    }

    fn offset_at(&self, i: usize) -> u64 {
        let base = 8 + 256 * 4 + self.count * 24;
        let raw = be32(&self.idx[base + i * 4..]);
        if raw & 0x8000_0000 == 0 {
            return u64::from(raw);
        }
        let large = base + self.count * 4 + (raw & 0x7fff_ffff) as usize * 8;
        u64::from(be32(&self.idx[large..])) << 32 | u64::from(be32(&self.idx[large + 4..]))
    }

    pub fn find(&self, id: &ObjectId) -> Option<u64> {
        let bytes = id.as_bytes();
        let first = bytes[0] as usize;
        let lo = if first == 0 {
            0
        } else {
            be32(&self.idx[8 + (first - 1) * 4..]) as usize
        };
        let hi = be32(&self.idx[8 + first * 4..]) as usize;
        let (mut lo, mut hi) = (lo, hi);
        while lo < hi {
            let mid = (lo + hi) / 2;
            match self.id_at(mid).cmp(bytes) {
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
                std::cmp::Ordering::Equal => return Some(self.offset_at(mid)),
            }
        }
        None
    }

    pub fn ids_with_prefix(&self, prefix: &str, out: &mut Vec<ObjectId>) {
        for i in 0..self.count {
            let id = ObjectId::from_bytes_or_panic(self.id_at(i));
            if id.to_string().starts_with(prefix) {
                out.push(id);
            }
        }
    }

    pub fn entry(&self, offset: u64) -> Result<Entry> {
        let mut pos = offset as usize;
        let byte = |p: usize| -> Result<u8> {
            match self.data.get(p) {
                Some(b) => Ok(*b),
                None => fatal("a pack entry runs past the end of its pack"),
            }
        };
        let mut c = byte(pos)?;
        pos += 1;
        let kind = (c >> 4) & 7;
        let mut size = u64::from(c & 15);
        let mut shift = 4;
        while c & 0x80 != 0 {
            c = byte(pos)?;
            pos += 1;
            size |= u64::from(c & 0x7f) << shift;
            shift += 7;
        }
        let base = match kind {
            6 => {
                let mut c = byte(pos)?;
                pos += 1;
                let mut back = u64::from(c & 0x7f);
                while c & 0x80 != 0 {
                    c = byte(pos)?;
                    pos += 1;
                    back = ((back + 1) << 7) | u64::from(c & 0x7f);
                }
                Some(Err(offset - back))
            }
            7 => {
                let id = ObjectId::from_bytes_or_panic(&self.data[pos..pos + 20]);
                pos += 20;
                Some(Ok(id))
            }
            _ => None,
        };
        let mut out = Vec::with_capacity(size as usize);
        ZlibDecoder::new(&self.data[pos..])
            .read_to_end(&mut out)
            .map_err(|e| crate::error::Error::Fatal(format!("a pack entry is corrupt: {e}")))?;
        Ok(match (kind, base) {
            (_, Some(Err(at))) => Entry::OfsDelta(at, out),
            (_, Some(Ok(id))) => Entry::RefDelta(id, out),
            (1, None) => Entry::Whole(Kind::Commit, out),
            (2, None) => Entry::Whole(Kind::Tree, out),
            (3, None) => Entry::Whole(Kind::Blob, out),
            (4, None) => Entry::Whole(Kind::Tag, out),
            _ => return fatal(format!("unknown pack entry type {kind}")),
        })
    }
}

fn be32(b: &[u8]) -> u32 {
    u32::from_be_bytes([b[0], b[1], b[2], b[3]])
}

fn varint(d: &[u8], pos: &mut usize) -> Result<u64> {
    let mut value = 0u64;
    let mut shift = 0;
    loop {
        let Some(&c) = d.get(*pos) else {
            return fatal("a delta is cut short");
        };
        *pos += 1;
        value |= u64::from(c & 0x7f) << shift;
        shift += 7;
        if c & 0x80 == 0 {
            return Ok(value);
        }
    }
}

/// git's delta format: the base and result sizes, then copy-from-base and
/// insert instructions.
pub fn apply_delta(base: &[u8], delta: &[u8]) -> Result<Vec<u8>> {
    let mut pos = 0;
    let base_size = varint(delta, &mut pos)?;
    if base_size as usize != base.len() {
        return fatal("a delta does not fit its base");
    }
    let size = varint(delta, &mut pos)? as usize;
    let mut out = Vec::with_capacity(size);
    while pos < delta.len() {
        let op = delta[pos];
        pos += 1;
        if op & 0x80 != 0 {
            let mut off = 0usize;
            let mut len = 0usize;
            for i in 0..4 {
                if op & (1 << i) != 0 {
                    off |= (*delta.get(pos).unwrap_or(&0) as usize) << (8 * i);
                    pos += 1;
                }
            }
            for i in 0..3 {
                if op & (0x10 << i) != 0 {
                    len |= (*delta.get(pos).unwrap_or(&0) as usize) << (8 * i);
                    pos += 1;
                }
            }
            if len == 0 {
                len = 0x10000;
            }
            let Some(chunk) = base.get(off..off + len) else {
                return fatal("a delta copies past its base");
            };
            out.extend_from_slice(chunk);
        } else if op != 0 {
            let n = op as usize;
            let Some(chunk) = delta.get(pos..pos + n) else {
                return fatal("a delta is cut short");
            };
            out.extend_from_slice(chunk);
            pos += n;
        } else {
            return fatal("a delta has a reserved instruction");
        }
    }
    if out.len() != size {
        return fatal("a delta gives the wrong size");
    }
    Ok(out)
}
