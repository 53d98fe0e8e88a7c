//! The entries of the last directory listings, kept until they are asked for once.
//!
//! `find`, globs and `ls -R` list a directory and then `lstat` every entry: one host
//! call per entry on top of the listing, whose entries already carry that metadata
//! (`readdir` describes each entry itself, as `lstat` does). An `lstat` of a listed
//! entry is answered from the listing, once; everything is forgotten when a command
//! starts or the shell changes the workspace, so an answer is never older than the
//! listing made by the same command.

use std::collections::HashMap;
use std::sync::Mutex;

use crate::computer::workspace::fs::NodeStat;

/// Entries kept at most; a bigger listing is not kept (it would cost more memory
/// than the calls it saves are worth).
const MAX_ENTRIES: usize = 65_536;

#[derive(Default)]
pub struct ListingCache {
    entries: Mutex<HashMap<String, NodeStat>>,
}

impl ListingCache {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, NodeStat>> {
        self.entries.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Keep the entries of `dir`'s listing.
    pub fn listed(&self, dir: &str, entries: &[NodeStat]) {
        let mut kept = self.lock();
        if kept.len() + entries.len() > MAX_ENTRIES {
            kept.clear();
            if entries.len() > MAX_ENTRIES {
                return;
            }
        }
        let base = dir.trim_end_matches('/');
        for entry in entries {
            kept.insert(format!("{base}/{}", entry.name), entry.clone());
        }
    }

    /// The listed metadata of `path`, once.
    pub fn take(&self, path: &str) -> Option<NodeStat> {
        let mut kept = self.lock();
        if kept.is_empty() {
            return None;
        }
        kept.remove(path)
    }

    /// Forget everything: a command starts, or the workspace changed.
    pub fn forget(&self) {
        let mut kept = self.lock();
        if !kept.is_empty() {
            kept.clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::computer::workspace::fs::NodeKind;

    fn stat(name: &str) -> NodeStat {
        NodeStat {
            name: name.into(),
            kind: NodeKind::File,
            mode: 0o644,
            size: 1,
            mtime_ns: 0,
            ino: 0,
        }
    }

    #[test]
    fn an_entry_answers_once_and_until_forgotten() {
        let cache = ListingCache::default();
        cache.listed("/d", &[stat("a"), stat("b")]);
        cache.listed("/", &[stat("d")]);
        assert_eq!(cache.take("/d/a").map(|s| s.name), Some("a".into()));
        assert!(cache.take("/d/a").is_none());
        assert!(cache.take("/d").is_some());
        cache.forget();
        assert!(cache.take("/d/b").is_none());
    }
}
