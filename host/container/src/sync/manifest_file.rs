//! The manifest on disk: a snapshot (`manifest.json`) and a change log
//! (`manifest.log`, JSON lines) of what changed since the snapshot, so a
//! sync that changed one entry appends one line instead of rewriting an
//! entry for every file in the workspace.
//!
//! The log starts with the generation of the snapshot it continues; a
//! save appends the changed entries and then a `commit` line, and a load
//! applies only batches that end in one (a torn last batch is dropped).
//! Once the log has as many lines as the snapshot has entries (at least
//! `MIN_LOG_LINES`), the next save writes a new snapshot with the next
//! generation and starts a new log: rewriting costs O(entries) once per
//! O(entries) changes. A crash between the two leaves a log of the old
//! generation, which the load ignores.

use std::io::{BufRead, BufReader, Write};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::manifest::{Entry, Manifest, VERSION};
use crate::error::ContainerError;

/// The log is not compacted below this many lines.
const MIN_LOG_LINES: usize = 1024;

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Line {
    /// First line: the snapshot generation the log continues.
    Generation(u64),
    Set(String, Entry),
    Del(String),
    /// Ends a save's batch.
    Commit {
        rev: Option<u64>,
    },
}

/// The change log next to the snapshot at `path`.
pub(crate) fn log_path(path: &Path) -> PathBuf {
    path.with_extension("log")
}

/// Identifies the files' current contents (size, mtime, inode of each), so
/// a manifest cached in memory is reused only while nobody else wrote them.
pub(crate) type Stamp = [Option<(u64, i128, u64)>; 2];

pub(crate) fn stamp(path: &Path) -> Stamp {
    let one = |p: &Path| {
        let m = std::fs::metadata(p).ok()?;
        Some((
            m.len(),
            m.mtime() as i128 * 1_000_000_000 + m.mtime_nsec() as i128,
            m.ino(),
        ))
    };
    [one(path), one(&log_path(path))]
}

impl Manifest {
    /// The manifest at `path` (with its log applied) if it belongs to this
    /// workspace and format; `None` when there is none or it cannot be used.
    pub fn load(path: &Path, workspace: &str) -> Option<Self> {
        let bytes = std::fs::read(path).ok()?;
        let mut m: Manifest = match serde_json::from_slice(&bytes) {
            Ok(m) => m,
            Err(e) => {
                tracing::warn!("ignoring unreadable sync manifest {}: {e}", path.display());
                return None;
            }
        };
        if m.version != VERSION || m.workspace != workspace {
            return None;
        }
        m.log_lines = m.replay(&log_path(path));
        m.entries.take_dirty();
        Some(m)
    }

    /// Applies the committed batches of the log at `log`. The lines a save
    /// may append after; `None` when there is no log for this snapshot or
    /// its tail is torn (the next save writes a snapshot).
    fn replay(&mut self, log: &Path) -> Option<usize> {
        let file = std::fs::File::open(log).ok()?;
        let mut lines = BufReader::new(file).lines();
        let first = lines.next()?.ok()?;
        match serde_json::from_str(&first) {
            Ok(Line::Generation(g)) if g == self.generation => {}
            _ => return None, // left by a save that crashed while compacting
        }
        let mut read = 1;
        let mut batch = Vec::new();
        for line in lines {
            let Ok(Ok(line)) = line.map(|l| serde_json::from_str::<Line>(&l)) else {
                return None;
            };
            read += 1;
            match line {
                Line::Set(k, e) => batch.push((k, Some(e))),
                Line::Del(k) => batch.push((k, None)),
                Line::Commit { rev } => {
                    for (k, e) in batch.drain(..) {
                        self.entries.restore(k, e);
                    }
                    self.rev = rev;
                }
                Line::Generation(_) => return None,
            }
        }
        batch.is_empty().then_some(read)
    }

    /// Records the manifest: the changes since the last save appended to
    /// the log, or a new snapshot when the log has grown as large as one.
    pub fn save(&mut self, path: &Path) -> Result<(), ContainerError> {
        let dirty = self.entries.take_dirty();
        let limit = self.entries.len().max(MIN_LOG_LINES);
        let appended = match self.log_lines {
            Some(n) if n + dirty.len() < limit => self.append(path, &dirty),
            _ => Err(std::io::Error::other("snapshot due")),
        };
        match appended {
            Ok(lines) => {
                self.log_lines = self.log_lines.map(|n| n + lines);
                Ok(())
            }
            Err(_) => self.compact(path),
        }
    }

    fn append(
        &self,
        path: &Path,
        dirty: &std::collections::HashSet<String>,
    ) -> std::io::Result<usize> {
        let mut buf = Vec::new();
        for key in dirty {
            let line = match self.entries.get(key) {
                Some(e) => Line::Set(key.clone(), e.clone()),
                None => Line::Del(key.clone()),
            };
            serde_json::to_writer(&mut buf, &line)?;
            buf.push(b'\n');
        }
        serde_json::to_writer(&mut buf, &Line::Commit { rev: self.rev })?;
        buf.push(b'\n');
        let mut f = std::fs::OpenOptions::new()
            .append(true)
            .open(log_path(path))?;
        f.write_all(&buf)?;
        f.sync_data()?;
        Ok(dirty.len() + 1)
    }

    /// Writes a snapshot of the next generation, then an empty log for it,
    /// each atomically (temporary file, then rename).
    fn compact(&mut self, path: &Path) -> Result<(), ContainerError> {
        self.generation += 1;
        let snapshot =
            serde_json::to_vec(self).map_err(|e| ContainerError::sync(path.display(), e))?;
        write_atomically(path, &snapshot)?;
        let mut header = serde_json::to_vec(&Line::Generation(self.generation))
            .map_err(|e| ContainerError::sync(path.display(), e))?;
        header.push(b'\n');
        write_atomically(&log_path(path), &header)?;
        self.log_lines = Some(1);
        Ok(())
    }
}

fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), ContainerError> {
    let tmp = path.with_extension("tmp");
    let write = || -> std::io::Result<()> {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_data()?;
        std::fs::rename(&tmp, path)
    };
    write().map_err(|e| ContainerError::sync(path.display(), e))
}

#[cfg(test)]
mod tests {
    use super::super::manifest::{Kind, Meta};
    use super::*;

    fn entry(size: u64) -> Entry {
        Entry {
            kind: Kind::File,
            ws: Meta {
                size,
                ..Meta::default()
            },
            host: Meta::default(),
            hash: None,
            target: None,
        }
    }

    fn keys(m: &Manifest) -> Vec<(String, u64)> {
        m.entries
            .range::<std::ops::RangeFull>(..)
            .map(|(k, e)| (k.clone(), e.ws.size))
            .collect()
    }

    fn log_len(path: &Path) -> usize {
        std::fs::read_to_string(log_path(path))
            .unwrap()
            .lines()
            .count()
    }

    #[test]
    fn saves_append_what_changed_and_loads_replay_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("manifest.json");
        let mut m = Manifest::new("ws".into());
        for i in 0..2000 {
            m.entries.insert(format!("f{i:04}"), entry(i));
        }
        m.rev = Some(7);
        m.save(&path).unwrap();
        let snapshot_len = std::fs::metadata(&path).unwrap().len();
        assert_eq!(log_len(&path), 1);

        m.entries.insert("f0001".into(), entry(99));
        m.entries.remove("f0002");
        m.rev = Some(8);
        m.save(&path).unwrap();
        // Two changes and a commit, appended; the snapshot untouched.
        assert_eq!(log_len(&path), 4);
        assert_eq!(std::fs::metadata(&path).unwrap().len(), snapshot_len);

        let loaded = Manifest::load(&path, "ws").unwrap();
        assert_eq!(keys(&loaded), keys(&m));
        assert_eq!(loaded.rev, Some(8));
        assert_eq!(loaded.log_lines, Some(4));
        assert!(Manifest::load(&path, "another workspace").is_none());
    }

    #[test]
    fn a_torn_batch_is_dropped_and_the_next_save_writes_a_snapshot() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("manifest.json");
        let mut m = Manifest::new("ws".into());
        m.entries.insert("a".into(), entry(1));
        m.rev = Some(1);
        m.save(&path).unwrap();
        m.entries.insert("b".into(), entry(2));
        m.rev = Some(2);
        m.save(&path).unwrap();
        // A save that crashed mid-batch: a change without its commit.
        let mut log = std::fs::OpenOptions::new()
            .append(true)
            .open(log_path(&path))
            .unwrap();
        log.write_all(b"{\"set\":[\"c\",").unwrap();

        let mut loaded = Manifest::load(&path, "ws").unwrap();
        assert_eq!(keys(&loaded), vec![("a".into(), 1), ("b".into(), 2)]);
        assert_eq!((loaded.rev, loaded.log_lines), (Some(2), None));
        loaded.save(&path).unwrap();
        assert_eq!(log_len(&path), 1, "a fresh log after a new snapshot");
        let again = Manifest::load(&path, "ws").unwrap();
        assert_eq!(keys(&again), keys(&loaded));
    }

    #[test]
    fn a_log_left_from_an_older_snapshot_is_ignored() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("manifest.json");
        let mut m = Manifest::new("ws".into());
        m.entries.insert("a".into(), entry(1));
        m.save(&path).unwrap();
        m.entries.insert("a".into(), entry(2));
        m.save(&path).unwrap();
        let stale_log = std::fs::read(log_path(&path)).unwrap();
        // Compaction wrote the snapshot, then crashed before the new log.
        m.log_lines = None;
        m.entries.insert("a".into(), entry(3));
        m.save(&path).unwrap();
        std::fs::write(log_path(&path), stale_log).unwrap();

        let loaded = Manifest::load(&path, "ws").unwrap();
        assert_eq!(keys(&loaded), vec![("a".into(), 3)]);
        assert_eq!(loaded.log_lines, None);
    }

    #[test]
    fn the_log_is_folded_into_a_snapshot_once_it_is_as_large() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("manifest.json");
        let mut m = Manifest::new("ws".into());
        m.entries.insert("a".into(), entry(0));
        m.save(&path).unwrap();
        let generation = m.generation;
        for i in 0..MIN_LOG_LINES as u64 {
            m.entries.insert("a".into(), entry(i));
            m.save(&path).unwrap();
        }
        // Two lines a save: a snapshot about every MIN_LOG_LINES / 2 saves.
        assert_eq!(m.generation, generation + 2);
        assert!(log_len(&path) < MIN_LOG_LINES);
        let loaded = Manifest::load(&path, "ws").unwrap();
        assert_eq!(keys(&loaded), keys(&m));
    }

    /// What a new process pays to load the manifest of a 10,000-file copy
    /// (run with `--ignored --nocapture`; a measurement, not a check).
    #[test]
    #[ignore]
    fn load_cost() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("manifest.json");
        let mut m = Manifest::new("ws".into());
        for i in 0..10_000 {
            let mut e = entry(i);
            e.hash = Some("ab".repeat(32));
            m.entries.insert(format!("d{}/f{i}.txt", i % 100), e);
        }
        m.save(&path).unwrap();
        let t = std::time::Instant::now();
        let loaded = Manifest::load(&path, "ws").unwrap();
        let took = t.elapsed();
        assert_eq!(loaded.entries.len(), 10_000);
        let t = std::time::Instant::now();
        m.entries.insert("d0/f0.txt".into(), entry(1));
        m.save(&path).unwrap();
        println!(
            "load of 10,000 entries: {took:?}; a one-entry save: {:?}",
            t.elapsed()
        );
    }
}
