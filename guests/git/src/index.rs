//! `.git/index` through gix-index: decoded from bytes (any version real git
//! writes), and written back as git writes it, trailing SHA-1 included,
//! through a lock file and a rename.

use std::collections::BTreeMap;
use std::path::Path;

use gix_hash::ObjectId;
use gix_index::State;
use gix_index::entry::{Flags, Mode, Stat};
use sha1::{Digest, Sha1};

use crate::error::{Result, fatal};

/// One staged path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Staged {
    pub mode: u32,
    pub id: ObjectId,
    pub stat: Stat,
    /// 0 normally; 1–3 for the sides of a conflict.
    pub stage: u32,
}

/// The index as a sorted map of (path, stage).
pub struct Index {
    pub entries: BTreeMap<(String, u32), Staged>,
}

impl Index {
    pub fn load(git_dir: &Path) -> Result<Index> {
        let mut entries = BTreeMap::new();
        let Ok(data) = std::fs::read(git_dir.join("index")) else {
            return Ok(Index { entries });
        };
        let state = match State::from_bytes(
            &data,
            filetime::FileTime::zero(),
            gix_hash::Kind::Sha1,
            Default::default(),
        ) {
            Ok((state, _)) => state,
            Err(e) => return fatal(format!("index file corrupt: {e}")),
        };
        for e in state.entries() {
            let path = e.path(&state).to_string();
            let stage = e.flags.stage_raw();
            entries.insert(
                (path, stage),
                Staged {
                    mode: e.mode.bits(),
                    id: e.id,
                    stat: e.stat,
                    stage,
                },
            );
        }
        Ok(Index { entries })
    }

    pub fn save(&self, git_dir: &Path) -> Result<()> {
        let mut state = State::new(gix_hash::Kind::Sha1);
        for ((path, stage), s) in &self.entries {
            let flags = Flags::from_bits_retain((*stage & 3) << 12);
            let mode = Mode::from_bits_retain(s.mode);
            state.dangerously_push_entry(s.stat, s.id, flags, mode, path.as_str().into());
        }
        state.sort_entries();
        let mut out = Vec::new();
        if let Err(e) = state.write_to(
            &mut out,
            gix_index::write::Options {
                extensions: gix_index::write::Extensions::None,
                skip_hash: false,
            },
        ) {
            return fatal(format!("cannot write the index: {e}"));
        }
        let sum = Sha1::digest(&out);
        out.extend_from_slice(&sum);
        let lock = git_dir.join("index.lock");
        std::fs::write(&lock, out)?;
        std::fs::rename(&lock, git_dir.join("index"))?;
        Ok(())
    }

    /// Stage-0 entries: path → (mode, id).
    pub fn files(&self) -> BTreeMap<String, (u32, ObjectId)> {
        self.entries
            .iter()
            .filter(|((_, stage), _)| *stage == 0)
            .map(|((p, _), s)| (p.clone(), (s.mode, s.id)))
            .collect()
    }

    /// Paths with conflict stages.
    pub fn conflicted(&self) -> Vec<String> {
        let mut out: Vec<String> = self
            .entries
            .keys()
            .filter(|(_, s)| *s != 0)
            .map(|(p, _)| p.clone())
            .collect();
        out.dedup();
        out
    }

    pub fn get(&self, path: &str) -> Option<&Staged> {
        self.entries.get(&(path.to_owned(), 0))
    }

    pub fn insert(&mut self, path: &str, staged: Staged) {
        for stage in 1..=3 {
            self.entries.remove(&(path.to_owned(), stage));
        }
        self.entries.insert((path.to_owned(), 0), staged);
    }

    /// Stages `id` at `path` without its work-tree file: the old stat data
    /// is kept only when it still vouches for the same blob, so a changed
    /// entry is hashed again by the next status.
    pub fn set_blob(&mut self, path: &str, mode: u32, id: ObjectId) {
        let stat = self
            .get(path)
            .filter(|e| e.id == id)
            .map(|e| e.stat)
            .unwrap_or_default();
        self.insert(
            path,
            Staged {
                mode,
                id,
                stat,
                stage: 0,
            },
        );
    }

    pub fn remove(&mut self, path: &str) -> bool {
        let mut any = false;
        for stage in 0..=3 {
            any |= self.entries.remove(&(path.to_owned(), stage)).is_some();
        }
        any
    }
}

/// The stat data git keeps for a file, from its metadata.
pub fn stat_of(meta: &crate::meta::Meta) -> Stat {
    let time = gix_index::entry::stat::Time {
        secs: meta.mtime.0 as u32,
        nsecs: meta.mtime.1,
    };
    Stat {
        mtime: time,
        ctime: time,
        dev: 0,
        ino: 0,
        uid: 0,
        gid: 0,
        size: meta.size as u32,
    }
}
