//! Pull: apply what the container changed in the host copy to the workspace.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use computer_store::{Errno, FsError, MkdirOptions, RmOptions, WriteOptions};

use super::host::{
    Found, HashingReader, Lookup, ScanOut, Scanned, hash_file, scan, scan_dirty, target_to_ws,
};
use super::manifest::{Entry, Kind, is_within, ws_path};
use super::watch::Dirty;
use super::{Syncer, is_fatal};
use crate::error::ContainerError;

/// State of one pull.
struct Pass {
    /// Host inode → manifest key, to recognize renames.
    by_ino: HashMap<u64, String>,
    /// Subtrees dealt with as a whole (restored or failed): not looked at again.
    settled: HashSet<String>,
    /// Successful workspace mutations (each bumps the revision once).
    writes: u64,
}

impl Pass {
    fn is_settled(&self, key: &str) -> bool {
        if self.settled.is_empty() {
            return false;
        }
        let mut k = key;
        loop {
            if self.settled.contains(k) {
                return true;
            }
            match k.rfind('/') {
                Some(i) => k = &k[..i],
                None => return false,
            }
        }
    }
}

/// The host copy as the pull sees it: what the scan found, and single
/// lookups of what it did not look at.
struct View<'a> {
    now: &'a BTreeMap<String, Scanned>,
    /// `None`: the scan saw the whole copy.
    changes: Option<&'a Dirty>,
    lookup: Lookup<'a>,
}

impl View<'_> {
    fn get(&mut self, key: &str) -> Option<Scanned> {
        if let Some(n) = self.now.get(key) {
            return Some(*n);
        }
        match self.changes {
            Some(d) if !d.covers(key) => match self.lookup.entry(key) {
                Ok(Found::Entry(n)) => Some(n),
                _ => None,
            },
            _ => None,
        }
    }
}

/// How a workspace change went.
enum Applied {
    Done,
    /// Refused; the subtree was dealt with (restored or reported).
    Settled,
}

fn to_ws_kind_mismatch(path: &str) -> FsError {
    FsError::custom(
        Errno::EEXIST,
        path,
        format!("{path}: the workspace holds something else there"),
    )
}

impl Syncer<'_> {
    /// Applies the copy's changes to the workspace. `rev_at_push` is the
    /// workspace revision the copy matched before the command ran: if
    /// nothing but this pull changed the workspace since, the manifest
    /// records the new revision and the next push costs nothing; otherwise
    /// it keeps `rev_at_push`, and the next push visits what changed since.
    ///
    /// `changes`: the only entries that may have changed (from the
    /// watcher); `None` scans the whole copy. Returns the entries to look
    /// at again next time: those that could not be synced, so they are
    /// reported again.
    pub fn pull(
        &mut self,
        rev_at_push: Option<u64>,
        changes: Option<&Dirty>,
    ) -> Result<Dirty, ContainerError> {
        let r0 = self.ws.rev()?;
        let changes = changes.filter(|d| !d.is_everything());
        let ScanOut {
            entries: now,
            skipped,
            mut retry,
        } = match changes {
            None => scan(self.root),
            Some(d) => scan_dirty(self.root, d),
        };
        self.report.skipped.extend(skipped);
        // A new name of a hard-linked file: its other names are not known
        // (and a write through them raises no event for this one), so the
        // next pull scans everything, which lists them all for rechecking.
        if changes.is_some() && self.new_hard_link(&now) {
            retry.mark_tree("");
        }
        let mut pass = Pass {
            // Built when the first new object shows up.
            by_ino: HashMap::new(),
            settled: HashSet::new(),
            writes: 0,
        };
        self.apply_present(&now, changes, &mut pass)?;

        // What the container removed.
        // (Renames have moved their entries in the manifest by now.)
        self.apply_removed(&now, changes, &mut pass)?;

        let r1 = self.ws.rev()?;
        self.manifest.rev = match rev_at_push {
            Some(p) if p == r0 && r1 == r0 + pass.writes => Some(r1),
            // Someone else changed the workspace meanwhile. The copy still
            // holds revision `p` plus this pull's writes, so the next push
            // visits what the change log names since `p` (this pull's own
            // writes among them, which compare equal).
            other => other,
        };
        // Refused changes stay on the host: report them again next time.
        for key in pass.settled {
            retry.mark_tree(&key);
        }
        Ok(retry)
    }

    /// Whether the scan found a new name of a hard-linked file.
    fn new_hard_link(&self, now: &BTreeMap<String, Scanned>) -> bool {
        now.iter().any(|(k, n)| {
            n.kind != Kind::Dir
                && n.links > 1
                && self
                    .manifest
                    .entries
                    .get(k)
                    .is_none_or(|e| e.host.ino != n.meta.ino)
        })
    }

    /// Applies what the copy holds now: updates, renames and creations.
    fn apply_present(
        &mut self,
        now: &BTreeMap<String, Scanned>,
        changes: Option<&Dirty>,
        pass: &mut Pass,
    ) -> Result<(), ContainerError> {
        let mut view = View {
            now,
            changes,
            lookup: Lookup::new(self.root),
        };

        // Parents sort before their children, so every entry's parent is
        // in the workspace when the entry is applied.
        for (key, node) in now {
            if pass.is_settled(key) {
                continue;
            }
            let same_object = self
                .manifest
                .entries
                .get(key)
                .is_some_and(|e| e.kind == node.kind && e.host.ino == node.meta.ino);
            if same_object {
                self.update(key, node, pass)?;
                continue;
            }
            if pass.by_ino.is_empty() {
                // A rename's source was looked at too (its name went away),
                // so with a change list only those entries can be one.
                pass.by_ino = self
                    .looked_at(changes)
                    .iter()
                    .filter_map(|k| Some((self.manifest.entries.get(k)?.host.ino, k.clone())))
                    .collect();
            }
            if let Some(src) = self.rename_source(key, node, &mut view, pass) {
                match self.rename(&src, key, pass)? {
                    Some(Applied::Done) => {
                        self.update(key, node, pass)?;
                        continue;
                    }
                    Some(Applied::Settled) => continue,
                    None => {} // could not rename: copy it instead
                }
            }
            self.create(key, node, pass)?;
        }
        Ok(())
    }

    /// Removes from the workspace what the container removed.
    fn apply_removed(
        &mut self,
        now: &BTreeMap<String, Scanned>,
        changes: Option<&Dirty>,
        pass: &mut Pass,
    ) -> Result<(), ContainerError> {
        let gone: Vec<String> = self
            .looked_at(changes)
            .into_iter()
            .filter(|k| !now.contains_key(k))
            .collect();
        for key in gone {
            if !self.manifest.entries.contains_key(&key) || pass.is_settled(&key) {
                continue;
            }
            let rm = RmOptions {
                recursive: true,
                force: true,
            };
            match self.ws.rm(&ws_path(&key), rm) {
                Ok(()) => {
                    pass.writes += 1;
                    self.manifest.remove_tree(&key);
                    self.report.pulled += 1;
                }
                Err(e) => self.refused(&key, e, pass)?,
            }
        }
        Ok(())
    }

    /// The manifest entries a scan of `changes` looks at (all of them
    /// without a change list): only those can have gone or been renamed.
    fn looked_at(&self, changes: Option<&Dirty>) -> Vec<String> {
        let Some(d) = changes else {
            return self.manifest.entries.keys().cloned().collect();
        };
        let mut keys = BTreeSet::new();
        for p in &d.paths {
            if self.manifest.entries.contains_key(p) {
                keys.insert(p.clone());
            }
        }
        for t in &d.trees {
            if self.manifest.entries.contains_key(t) {
                keys.insert(t.clone());
            }
            keys.extend(self.manifest.subtree_keys(t));
        }
        keys.into_iter().collect()
    }

    /// A manifest entry that `key` was renamed from: same inode and kind,
    /// and no longer at its old path.
    fn rename_source(
        &self,
        key: &str,
        node: &Scanned,
        view: &mut View<'_>,
        pass: &Pass,
    ) -> Option<String> {
        let src = pass.by_ino.get(&node.meta.ino)?;
        let entry = self.manifest.entries.get(src)?;
        let still_there = view
            .get(src)
            .is_some_and(|n| n.kind == node.kind && n.meta.ino == node.meta.ino);
        let ok = src != key
            && !is_within(key, src)
            && entry.kind == node.kind
            && entry.host.ino == node.meta.ino
            && !still_there
            && !pass.is_settled(src);
        // An inode number is reused as soon as it is freed: also ask for
        // evidence that this is the same object. A rename keeps a file's
        // size and mtime; a moved directory keeps its children.
        let same = match node.kind {
            Kind::File | Kind::Symlink => {
                node.meta.size == entry.host.size && node.meta.mtime_ns == entry.host.mtime_ns
            }
            Kind::Dir => {
                node.meta.mtime_ns == entry.host.mtime_ns
                    || self.manifest.subtree(src).any(|(child, e)| {
                        let moved = format!("{key}{}", &child[src.len()..]);
                        view.get(&moved).is_some_and(|n| n.meta.ino == e.host.ino)
                    })
            }
        };
        (ok && same).then(|| src.clone())
    }

    /// Records a refused change. A read-only subtree's host copy is put
    /// back as the workspace has it, so the container sees the truth next
    /// time; anything else stays on the host and is reported again.
    fn refused(&mut self, key: &str, e: FsError, pass: &mut Pass) -> Result<(), ContainerError> {
        if is_fatal(&e) {
            return Err(e.into());
        }
        self.report
            .skipped
            .push(format!("{}: not synced back: {}", ws_path(key), e.message));
        if e.code == Errno::EROFS {
            self.restore(key)?;
            self.reindex(key, pass);
        }
        pass.settled.insert(key.to_owned());
        Ok(())
    }

    fn reindex(&self, key: &str, pass: &mut Pass) {
        if let Some(e) = self.manifest.entries.get(key) {
            pass.by_ino.insert(e.host.ino, key.to_owned());
        }
        for k in self.manifest.subtree_keys(key) {
            if let Some(e) = self.manifest.entries.get(&k) {
                pass.by_ino.insert(e.host.ino, k);
            }
        }
    }

    /// Removes from the workspace what the manifest says is at `key` (the
    /// container replaced it with something else).
    fn clear(&mut self, key: &str, pass: &mut Pass) -> Result<Option<Applied>, ContainerError> {
        if !self.manifest.entries.contains_key(key) {
            return Ok(None);
        }
        let rm = RmOptions {
            recursive: true,
            force: true,
        };
        match self.ws.rm(&ws_path(key), rm) {
            Ok(()) => {
                pass.writes += 1;
                self.manifest.remove_tree(key);
                Ok(None)
            }
            Err(e) => {
                self.refused(key, e, pass)?;
                Ok(Some(Applied::Settled))
            }
        }
    }

    fn rename(
        &mut self,
        src: &str,
        key: &str,
        pass: &mut Pass,
    ) -> Result<Option<Applied>, ContainerError> {
        if let Some(done) = self.clear(key, pass)? {
            return Ok(Some(done));
        }
        match self.ws.rename(&ws_path(src), &ws_path(key)) {
            Ok(()) => {
                pass.writes += 1;
                self.manifest.rekey_tree(src, key);
                self.reindex(key, pass);
                if let Ok(st) = self.ws.lstat(&ws_path(key))
                    && let Some(e) = self.manifest.entries.get_mut(key)
                {
                    e.ws.ino = st.ino;
                    e.ws.mtime_ns = st.mtime_ns;
                }
                self.report.pulled += 1;
                Ok(Some(Applied::Done))
            }
            // A move out of (or into) a read-only subtree: copy it instead;
            // the removal of the source is then refused on its own.
            Err(e) if is_fatal(&e) => Err(e.into()),
            Err(_) => Ok(None),
        }
    }

    /// Applies changes to an entry that is the same object as last synced.
    fn update(&mut self, key: &str, node: &Scanned, pass: &mut Pass) -> Result<(), ContainerError> {
        let Some(entry) = self.manifest.entries.get(key) else {
            return Ok(());
        };
        // The common case, untouched: nothing to read or write.
        let moved = node.meta.size != entry.host.size || node.meta.mtime_ns != entry.host.mtime_ns;
        if node.meta.mode == entry.host.mode && (node.kind == Kind::Dir || !moved) {
            if node.kind == Kind::Dir
                && node.meta.mtime_ns != entry.host.mtime_ns
                && let Some(e) = self.manifest.entries.get_mut(key)
            {
                e.host = node.meta;
            }
            return Ok(());
        }
        let entry = entry.clone();
        let path = ws_path(key);
        let mut changed = false;
        let mut hash = entry.hash.clone();
        let mut target = entry.target.clone();
        let result: Result<(), FsError> = (|| {
            match node.kind {
                Kind::File => {
                    if moved {
                        let differs = node.meta.size != entry.host.size || {
                            let h = hash_file(self.root, key).map_err(|e| host_read(&path, e))?;
                            let differs = Some(&h) != entry.hash.as_ref();
                            hash = Some(h);
                            differs
                        };
                        if differs {
                            hash = Some(self.write_file(key, node.meta.mode)?);
                            pass.writes += 1;
                            changed = true;
                        }
                    }
                    if !changed && node.meta.mode != entry.host.mode {
                        self.ws.chmod(&path, node.meta.mode)?;
                        pass.writes += 1;
                        changed = true;
                    }
                }
                Kind::Dir => {
                    if node.meta.mode != entry.host.mode {
                        self.ws.chmod(&path, node.meta.mode)?;
                        pass.writes += 1;
                        changed = true;
                    }
                }
                Kind::Symlink => {
                    if moved {
                        let t = self.read_target(key)?;
                        if Some(&t) != entry.target.as_ref() {
                            self.ws.rm(&path, RmOptions::default())?;
                            pass.writes += 1;
                            self.ws.symlink(&target_to_ws(&t, self.mount), &path)?;
                            pass.writes += 1;
                            changed = true;
                        }
                        target = Some(t);
                    }
                }
            }
            Ok(())
        })();
        if let Err(e) = result {
            return self.refused(key, e, pass);
        }
        let ws = if changed {
            self.report.pulled += 1;
            match self.ws.lstat(&path) {
                Ok(st) => super::push::ws_meta(&st),
                Err(_) => entry.ws,
            }
        } else {
            entry.ws
        };
        self.manifest.entries.insert(
            key.to_owned(),
            Entry {
                kind: node.kind,
                ws,
                host: node.meta,
                hash,
                target,
            },
        );
        Ok(())
    }

    /// Creates the new host entry `key` in the workspace.
    fn create(&mut self, key: &str, node: &Scanned, pass: &mut Pass) -> Result<(), ContainerError> {
        if self.clear(key, pass)?.is_some() {
            return Ok(());
        }
        let path = ws_path(key);
        let mut hash = None;
        let mut target = None;
        let result: Result<(), FsError> = (|| {
            match node.kind {
                Kind::File => {
                    hash = Some(self.write_file(key, node.meta.mode)?);
                }
                Kind::Dir => {
                    let opts = MkdirOptions {
                        recursive: false,
                        mode: Some(node.meta.mode),
                    };
                    match self.ws.mkdir(&path, &opts) {
                        Ok(()) => {}
                        Err(e) if e.code == Errno::EEXIST => {
                            // Made by someone else meanwhile: fine if a directory.
                            let st = self.ws.lstat(&path)?;
                            if st.kind != computer_store::NodeKind::Directory {
                                return Err(to_ws_kind_mismatch(&path));
                            }
                            self.ws.chmod(&path, node.meta.mode)?;
                        }
                        Err(e) => return Err(e),
                    }
                }
                Kind::Symlink => {
                    let t = self.read_target(key)?;
                    self.ws.symlink(&target_to_ws(&t, self.mount), &path)?;
                    target = Some(t);
                }
            }
            pass.writes += 1;
            Ok(())
        })();
        if let Err(e) = result {
            return self.refused(key, e, pass);
        }
        let ws = match self.ws.lstat(&path) {
            Ok(st) => super::push::ws_meta(&st),
            Err(e) if is_fatal(&e) => return Err(e.into()),
            Err(_) => Default::default(),
        };
        self.manifest.entries.insert(
            key.to_owned(),
            Entry {
                kind: node.kind,
                ws,
                host: node.meta,
                hash,
                target,
            },
        );
        pass.by_ino.insert(node.meta.ino, key.to_owned());
        self.report.pulled += 1;
        Ok(())
    }

    /// Streams the host file `key` into the workspace; returns its hash.
    fn write_file(&self, key: &str, mode: u32) -> Result<String, FsError> {
        let path = ws_path(key);
        let file = self.root.open(key).map_err(|e| host_read(&path, e))?;
        let mut file = file.into_std();
        let mut reader = HashingReader::new(&mut file);
        let opts = WriteOptions {
            mode: Some(mode),
            exclusive: false,
            create_parents: false,
        };
        self.ws.write_from(&path, &mut reader, &opts)?;
        Ok(reader.hex())
    }

    fn read_target(&self, key: &str) -> Result<String, FsError> {
        let path = ws_path(key);
        let t = self
            .root
            .read_link_contents(key)
            .map_err(|e| host_read(&path, e))?;
        t.into_os_string().into_string().map_err(|_| {
            FsError::custom(
                Errno::EINVAL,
                &path,
                format!("{path}: the symlink's target is not UTF-8"),
            )
        })
    }
}

/// A host copy entry that cannot be read: reported, not fatal.
fn host_read(path: &str, e: std::io::Error) -> FsError {
    FsError::custom(
        Errno::EPERM,
        path,
        format!("{path}: cannot read the container's copy ({e})"),
    )
}
