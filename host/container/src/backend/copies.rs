//! The synced copies: their change watches and manifests, kept between
//! execs.

use std::sync::atomic::Ordering;
use std::time::Instant;

use super::ContainerBackend;
use crate::error::ContainerError;
use crate::state::WsState;
use crate::sync::{Manifest, Watcher, manifest_stamp};

impl ContainerBackend {
    /// Most copies one backend keeps a change watch on (each is an inotify
    /// instance; the kernel allows 128 per user by default).
    const MAX_WATCHERS: usize = 32;

    pub(super) fn take_watcher(&self, root: &std::path::Path) -> Option<Watcher> {
        self.inner
            .watchers
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .remove(root)
    }

    pub(super) fn put_watcher(&self, root: &std::path::Path, w: Watcher) {
        let mut map = self
            .inner
            .watchers
            .lock()
            .unwrap_or_else(|p| p.into_inner());
        if map.len() < Self::MAX_WATCHERS {
            map.insert(root.to_path_buf(), w);
        }
    }

    /// A change watch on every directory of the copy, or `None` (then
    /// the pull scans the whole copy): on the first exec of a copy in this
    /// backend (a one-shot process would pay for the watches and never
    /// use them), when inotify is not available, when a watch cannot be
    /// added (`max_user_watches`; then this copy is not tried again by
    /// this backend), or with `COMPUTER_CONTAINER_WATCH=0`.
    pub(super) fn start_watcher(
        &self,
        path: &std::path::Path,
        root: &cap_std::fs::Dir,
    ) -> Option<Watcher> {
        if std::env::var_os("COMPUTER_CONTAINER_WATCH").is_some_and(|v| v == "0") {
            return None;
        }
        let full = self
            .inner
            .watchers
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .len()
            >= Self::MAX_WATCHERS;
        {
            let mut copies = self.inner.copies.lock().unwrap_or_else(|p| p.into_inner());
            match copies.get(path) {
                Some(true) if !full => {}
                Some(_) => return None,
                None => {
                    copies.insert(path.to_path_buf(), true);
                    return None;
                }
            }
        }
        let t = Instant::now();
        match Watcher::start(root) {
            Ok(w) => {
                tracing::debug!(
                    "watching {} directories of the copy (set up in {:?})",
                    w.watches(),
                    t.elapsed()
                );
                Some(w)
            }
            Err(e) => {
                tracing::warn!(
                    "no change watch on {} ({e}): its pulls scan the whole copy",
                    path.display()
                );
                self.inner
                    .copies
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .insert(path.to_path_buf(), false);
                None
            }
        }
    }

    /// Makes the next pull of this backend act as if the change watch's
    /// event queue overflowed during the command: it scans the whole copy
    /// (and the watch is set up again). For tests of that fallback.
    #[doc(hidden)]
    pub fn break_change_watch(&self) {
        self.inner.break_watch.store(true, Ordering::SeqCst);
    }

    /// The manifest for this copy; a missing or foreign one means the copy
    /// is rebuilt from scratch.
    pub(super) fn load_manifest(
        &self,
        st: &WsState,
        file_id: &str,
        root: &cap_std::fs::Dir,
    ) -> Result<Manifest, ContainerError> {
        let stamp = manifest_stamp(&st.manifest);
        {
            let mut cache = self
                .inner
                .manifests
                .lock()
                .unwrap_or_else(|p| p.into_inner());
            if let Some((s, m)) = cache.remove(&st.manifest)
                && s == stamp
                && m.workspace == file_id
            {
                return Ok(m);
            }
        }
        if let Some(m) = Manifest::load(&st.manifest, file_id) {
            return Ok(m);
        }
        // Unknown contents: start over.
        let entries = root
            .entries()
            .map_err(|e| ContainerError::sync(st.root.display(), e))?;
        for entry in entries.flatten() {
            let name = entry.file_name();
            let gone = match entry.file_type() {
                Ok(ft) if ft.is_dir() => root.remove_dir_all(&name),
                _ => root.remove_file(&name),
            };
            gone.map_err(|e| ContainerError::sync(st.root.display(), e))?;
        }
        Ok(Manifest::new(file_id.to_owned()))
    }

    pub(super) fn save_manifest(
        &self,
        st: &WsState,
        m: &mut Manifest,
    ) -> Result<(), ContainerError> {
        m.save(&st.manifest)
    }

    /// Keeps the manifest in memory for the next exec, valid while its
    /// files stay as they are now.
    pub(super) fn keep_manifest(&self, st: &WsState, m: Manifest) {
        self.inner
            .manifests
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(st.manifest.clone(), (manifest_stamp(&st.manifest), m));
    }
}
