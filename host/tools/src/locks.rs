//! Mutating tools on the same path run one at a time.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

#[derive(Default)]
pub(crate) struct PathLocks {
    locks: Mutex<HashMap<String, Arc<Mutex<()>>>>,
}

impl PathLocks {
    /// The lock for `path`; hold its guard for the duration of the mutation.
    pub fn get(&self, path: &str) -> Arc<Mutex<()>> {
        let mut map = self.locks.lock().unwrap_or_else(|p| p.into_inner());
        // Forget locks nobody holds, so the map does not grow without end.
        if map.len() > 1024 {
            map.retain(|_, l| Arc::strong_count(l) > 1);
        }
        map.entry(path.to_owned()).or_default().clone()
    }
}
