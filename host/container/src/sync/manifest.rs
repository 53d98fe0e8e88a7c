//! What the host copy holds, as of the last sync: for every entry its kind,
//! its metadata on both sides, and (for files) its content hash. Kept in
//! files next to the copy (see `manifest_file`), never in the workspace
//! database.

use std::collections::{BTreeMap, HashSet};
use std::ops::RangeBounds;

use serde::{Deserialize, Serialize};

/// Bumped when the format changes: an older manifest is discarded (and the
/// copy rebuilt).
pub(crate) const VERSION: u32 = 2;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Kind {
    File,
    Dir,
    Symlink,
}

/// Metadata that tells whether an entry changed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Meta {
    /// Permission bits.
    pub mode: u32,
    pub size: u64,
    pub mtime_ns: u64,
    pub ino: u64,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Entry {
    pub kind: Kind,
    /// The workspace node as last synced.
    pub ws: Meta,
    /// The host entry as last synced.
    pub host: Meta,
    /// sha256 (hex) of a file's content.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hash: Option<String>,
    /// A symlink's target as written on the host.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
}

/// The entries, keyed by path relative to the copy's root (`a/b`), so a
/// parent sorts before its children. Remembers which keys changed since
/// the manifest was last saved, so saving costs what changed.
#[derive(Debug, Clone, Default)]
pub(crate) struct Entries {
    map: BTreeMap<String, Entry>,
    dirty: HashSet<String>,
}

impl Entries {
    pub fn get(&self, key: &str) -> Option<&Entry> {
        self.map.get(key)
    }

    /// Counts as a change of `key`.
    pub fn get_mut(&mut self, key: &str) -> Option<&mut Entry> {
        let e = self.map.get_mut(key)?;
        self.dirty.insert(key.to_owned());
        Some(e)
    }

    pub fn insert(&mut self, key: String, entry: Entry) {
        self.dirty.insert(key.clone());
        self.map.insert(key, entry);
    }

    pub fn remove(&mut self, key: &str) -> Option<Entry> {
        let e = self.map.remove(key)?;
        self.dirty.insert(key.to_owned());
        Some(e)
    }

    pub fn contains_key(&self, key: &str) -> bool {
        self.map.contains_key(key)
    }

    pub fn keys(&self) -> impl Iterator<Item = &String> {
        self.map.keys()
    }

    pub fn len(&self) -> usize {
        self.map.len()
    }

    pub fn range<R: RangeBounds<String>>(
        &self,
        range: R,
    ) -> impl Iterator<Item = (&String, &Entry)> {
        self.map.range(range)
    }

    /// The keys changed since the last save, and forgets them.
    pub(super) fn take_dirty(&mut self) -> HashSet<String> {
        std::mem::take(&mut self.dirty)
    }

    /// Applies a saved change without counting it as a new one.
    pub(super) fn restore(&mut self, key: String, entry: Option<Entry>) {
        match entry {
            Some(e) => self.map.insert(key, e),
            None => self.map.remove(&key),
        };
    }
}

impl Serialize for Entries {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.map.serialize(s)
    }
}

impl<'de> Deserialize<'de> for Entries {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(Entries {
            map: BTreeMap::deserialize(d)?,
            dirty: HashSet::new(),
        })
    }
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub(crate) struct Manifest {
    pub version: u32,
    /// The workspace file's identity (device:inode).
    pub workspace: String,
    /// The workspace revision the copy matches; `None`: unknown, compare
    /// every entry.
    pub rev: Option<u64>,
    pub entries: Entries,
    /// Which snapshot the change log on disk continues (`manifest_file`).
    #[serde(default)]
    pub generation: u64,
    /// Lines in that log; `None`: no usable log, the next save writes a
    /// snapshot.
    #[serde(skip)]
    pub log_lines: Option<usize>,
}

impl Manifest {
    pub fn new(workspace: String) -> Self {
        Manifest {
            version: VERSION,
            workspace,
            ..Default::default()
        }
    }

    /// The entries of `key`'s subtree (itself excluded), in order.
    pub fn subtree<'m>(&'m self, key: &str) -> impl Iterator<Item = (&'m String, &'m Entry)> + 'm {
        let (lo, hi) = subtree_range(key);
        self.entries.range(lo..hi)
    }

    /// Keys of `key`'s subtree (itself excluded), in order.
    pub fn subtree_keys(&self, key: &str) -> Vec<String> {
        let (lo, hi) = subtree_range(key);
        self.entries.range(lo..hi).map(|(k, _)| k.clone()).collect()
    }

    /// Removes `key` and its subtree.
    pub fn remove_tree(&mut self, key: &str) {
        for k in self.subtree_keys(key) {
            self.entries.remove(&k);
        }
        self.entries.remove(key);
    }

    /// Moves the entries of `from`'s subtree (and `from`) under `to`.
    pub fn rekey_tree(&mut self, from: &str, to: &str) {
        let mut moved = Vec::new();
        if let Some(e) = self.entries.remove(from) {
            moved.push((to.to_owned(), e));
        }
        for k in self.subtree_keys(from) {
            if let Some(e) = self.entries.remove(&k) {
                moved.push((format!("{to}{}", &k[from.len()..]), e));
            }
        }
        for (k, e) in moved {
            self.entries.insert(k, e);
        }
    }
}

/// The key range of the entries strictly below `key`: `key/` up to `key0`
/// (`0` is the byte after `/`).
pub(crate) fn subtree_range(key: &str) -> (String, String) {
    (format!("{key}/"), format!("{key}0"))
}

/// `prefix/name`, or `name` at the root.
pub(crate) fn join(prefix: &str, name: &str) -> String {
    if prefix.is_empty() {
        name.to_owned()
    } else {
        format!("{prefix}/{name}")
    }
}

/// The workspace path of a key.
pub(crate) fn ws_path(key: &str) -> String {
    format!("/{key}")
}

/// True if `key` is `ancestor` or lies below it.
pub(crate) fn is_within(key: &str, ancestor: &str) -> bool {
    key == ancestor
        || (key.len() > ancestor.len()
            && key.starts_with(ancestor)
            && key.as_bytes()[ancestor.len()] == b'/')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry() -> Entry {
        Entry {
            kind: Kind::File,
            ws: Meta::default(),
            host: Meta::default(),
            hash: None,
            target: None,
        }
    }

    #[test]
    fn subtrees_do_not_include_siblings_that_share_a_prefix() {
        let mut m = Manifest::new("x".into());
        for k in ["a", "a-b", "a.c", "a/b", "a/b/c", "a0", "ab", "b"] {
            m.entries.insert(k.into(), entry());
        }
        assert_eq!(m.subtree_keys("a"), vec!["a/b", "a/b/c"]);
        m.rekey_tree("a", "z/y");
        let keys: Vec<&str> = m.entries.keys().map(String::as_str).collect();
        assert_eq!(
            keys,
            vec!["a-b", "a.c", "a0", "ab", "b", "z/y", "z/y/b", "z/y/b/c"]
        );
        m.remove_tree("z/y");
        assert_eq!(m.entries.len(), 5);
        assert!(is_within("a/b", "a") && is_within("a", "a") && !is_within("ab", "a"));
    }
}
