//! The object database: loose objects under `.git/objects/xx/...`, zlib
//! deflated with a `TYPE SIZE\0` header, and the packs real git writes
//! (`pack.rs`). Read whole, never memory-mapped (memmap2 cannot map on
//! WASI).

use std::collections::{HashMap, HashSet};
use std::fs;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use flate2::Compression;
use flate2::read::ZlibDecoder;
use flate2::write::ZlibEncoder;
use gix_hash::ObjectId;
use sha1::{Digest, Sha1};

use crate::error::{Result, fatal};
use crate::pack::Pack;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Commit,
    Tree,
    Blob,
    Tag,
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::Commit => "commit",
            Kind::Tree => "tree",
            Kind::Blob => "blob",
            Kind::Tag => "tag",
        }
    }

    pub fn from_name(name: &[u8]) -> Option<Kind> {
        Some(match name {
            b"commit" => Kind::Commit,
            b"tree" => Kind::Tree,
            b"blob" => Kind::Blob,
            b"tag" => Kind::Tag,
            _ => return None,
        })
    }
}

pub struct Object {
    pub kind: Kind,
    pub data: Vec<u8>,
}

pub struct Odb {
    dir: PathBuf,
    packs: Option<Vec<Pack>>,
    /// Each `objects/xx` directory's names, listed at most once a process
    /// (git's loose-object cache): abbreviating ids in `log` asks again
    /// and again.
    loose_names: HashMap<String, Vec<String>>,
    /// The `objects/xx` directories known to exist, so that writing
    /// objects makes each directory once.
    made_dirs: HashSet<PathBuf>,
}

/// The id git gives `data` as an object of `kind`.
pub fn hash(kind: Kind, data: &[u8]) -> ObjectId {
    let mut h = Sha1::new();
    h.update(format!("{} {}\0", kind.name(), data.len()).as_bytes());
    h.update(data);
    ObjectId::from_bytes_or_panic(&h.finalize())
}

impl Odb {
    pub fn new(objects_dir: &Path) -> Odb {
        Odb {
            dir: objects_dir.to_owned(),
            packs: None,
            loose_names: HashMap::new(),
            made_dirs: HashSet::new(),
        }
    }

    fn loose_path(&self, id: &ObjectId) -> PathBuf {
        let hex = id.to_string();
        self.dir.join(&hex[..2]).join(&hex[2..])
    }

    fn packs(&mut self) -> Result<&mut Vec<Pack>> {
        if self.packs.is_none() {
            let mut packs = Vec::new();
            let pack_dir = self.dir.join("pack");
            if let Ok(entries) = fs::read_dir(&pack_dir) {
                let mut names: Vec<PathBuf> = entries
                    .filter_map(|e| e.ok().map(|e| e.path()))
                    .filter(|p| p.extension().is_some_and(|x| x == "idx"))
                    .collect();
                names.sort();
                for idx in names {
                    packs.push(Pack::open(&idx)?);
                }
            }
            self.packs = Some(packs);
        }
        Ok(self.packs.as_mut().expect("loaded above"))
    }

    pub fn contains(&mut self, id: &ObjectId) -> Result<bool> {
        if self.loose_path(id).exists() {
            return Ok(true);
        }
        Ok(self.packs()?.iter().any(|p| p.find(id).is_some()))
    }

    pub fn read(&mut self, id: &ObjectId) -> Result<Option<Object>> {
        if let Ok(raw) = crate::meta::read(&self.loose_path(id)) {
            return parse_loose(id, &raw).map(Some);
        }
        for i in 0..self.packs()?.len() {
            let found = {
                let packs = self.packs()?;
                packs[i].find(id)
            };
            if let Some(offset) = found {
                let (kind, data) = self.read_packed(i, offset)?;
                return Ok(Some(Object { kind, data }));
            }
        }
        Ok(None)
    }

    fn read_packed(&mut self, pack: usize, offset: u64) -> Result<(Kind, Vec<u8>)> {
        // A ref-delta's base may live anywhere: resolve it through the
        // whole database, everything else inside its pack.
        let entry = self.packs()?[pack].entry(offset)?;
        match entry {
            crate::pack::Entry::Whole(kind, data) => Ok((kind, data)),
            crate::pack::Entry::OfsDelta(base_offset, delta) => {
                let (kind, base) = self.read_packed(pack, base_offset)?;
                Ok((kind, crate::pack::apply_delta(&base, &delta)?))
            }
            crate::pack::Entry::RefDelta(base_id, delta) => {
                let Some(base) = self.read(&base_id)? else {
                    return fatal(format!("missing delta base {base_id}"));
                };
                Ok((base.kind, crate::pack::apply_delta(&base.data, &delta)?))
            }
        }
    }

    pub fn must_read(&mut self, id: &ObjectId) -> Result<Object> {
        match self.read(id)? {
            Some(o) => Ok(o),
            None => fatal(format!("unable to read {id}")),
        }
    }

    /// Writes `data` as a loose object (unless it exists); its id.
    pub fn write(&mut self, kind: Kind, data: &[u8]) -> Result<ObjectId> {
        let id = hash(kind, data);
        let mut z = ZlibEncoder::new(Vec::new(), Compression::new(1));
        z.write_all(format!("{} {}\0", kind.name(), data.len()).as_bytes())?;
        z.write_all(data)?;
        let bytes = z.finish()?;
        let path = self.loose_path(&id);
        // In the workspace: one exclusive write (an existing object is
        // left as it is), instead of a lookup, a temporary file and a rename.
        if self.packs()?.iter().all(|p| p.find(&id).is_none())
            && let Some(made) = crate::meta::create_whole(&path, &bytes)
        {
            made?;
            self.remember_loose(&id);
            return Ok(id);
        }
        if self.contains(&id)? {
            return Ok(id);
        }
        let dir = path.parent().expect("objects/xx").to_owned();
        if !self.made_dirs.contains(&dir) {
            fs::create_dir_all(&dir)?;
            self.made_dirs.insert(dir.clone());
        }
        let tmp = dir.join(format!("tmp_obj_{}", &id.to_string()[2..10]));
        fs::write(&tmp, bytes)?;
        fs::rename(&tmp, &path)?;
        self.remember_loose(&id);
        Ok(id)
    }

    fn remember_loose(&mut self, id: &ObjectId) {
        let hex = id.to_string();
        if let Some(names) = self.loose_names.get_mut(&hex[..2])
            && !names.iter().any(|n| n == &hex[2..])
        {
            names.push(hex[2..].to_owned());
        }
    }

    /// Every object id starting with `prefix` (hex), loose and packed.
    pub fn ids_with_prefix(&mut self, prefix: &str) -> Result<Vec<ObjectId>> {
        let mut out = Vec::new();
        if prefix.len() >= 2 {
            let fan = &prefix[..2];
            if !self.loose_names.contains_key(fan) {
                let names = match fs::read_dir(self.dir.join(fan)) {
                    Ok(entries) => entries
                        .flatten()
                        .map(|e| e.file_name().to_string_lossy().into_owned())
                        .collect(),
                    Err(_) => Vec::new(),
                };
                self.loose_names.insert(fan.to_owned(), names);
            }
            for name in &self.loose_names[fan] {
                let hex = format!("{fan}{name}");
                if hex.starts_with(prefix)
                    && let Ok(id) = ObjectId::from_hex(hex.as_bytes())
                {
                    out.push(id);
                }
            }
        }
        for p in self.packs()?.iter() {
            p.ids_with_prefix(prefix, &mut out);
        }
        out.sort();
        out.dedup();
        Ok(out)
    }
}

fn parse_loose(id: &ObjectId, raw: &[u8]) -> Result<Object> {
    let mut data = Vec::new();
    if ZlibDecoder::new(raw).read_to_end(&mut data).is_err() {
        return fatal(format!("loose object {id} is corrupt"));
    }
    let Some(nul) = data.iter().position(|&b| b == 0) else {
        return fatal(format!("loose object {id} is corrupt"));
    };
    let header = &data[..nul];
    let space = header
        .iter()
        .position(|&b| b == b' ')
        .unwrap_or(header.len());
    let Some(kind) = Kind::from_name(&header[..space]) else {
        return fatal(format!("loose object {id} has an unknown type"));
    };
    let body = data[nul + 1..].to_vec();
    Ok(Object { kind, data: body })
}
