//! The registry of backends a runtime runs on, and what it can say about
//! them: their descriptions and the commands each runs by name.

use std::sync::Arc;

use crate::Runtime;
use crate::backend::{Backend, BackendInfo};
use crate::error::ExecError;

impl Runtime {
    /// Registers `backend` under its name, in place of one of that name.
    pub fn register_backend(&self, backend: Arc<dyn Backend>) -> Result<(), ExecError> {
        let name = backend.info().name;
        validate_backend_name(&name)?;
        self.inner
            .backends
            .write()
            .unwrap_or_else(|p| p.into_inner())
            .insert(name, backend);
        Ok(())
    }

    /// The backend called `name`, or [`ExecError::UnknownBackend`] listing
    /// the registered ones.
    pub fn backend(&self, name: &str) -> Result<Arc<dyn Backend>, ExecError> {
        let backends = self
            .inner
            .backends
            .read()
            .unwrap_or_else(|p| p.into_inner());
        backends
            .get(name)
            .cloned()
            .ok_or_else(|| ExecError::UnknownBackend {
                name: name.to_owned(),
                available: backends.keys().cloned().collect(),
            })
    }

    /// Names of the registered backends, sorted.
    pub fn backends(&self) -> Vec<String> {
        self.inner
            .backends
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .keys()
            .cloned()
            .collect()
    }

    /// What each registered backend says of itself, sorted by name.
    pub fn backend_infos(&self) -> Vec<BackendInfo> {
        self.backends_with_infos()
            .into_iter()
            .map(|(_, info)| info)
            .collect()
    }

    /// Every registered backend with what it says of itself, sorted by name.
    pub(crate) fn backends_with_infos(&self) -> Vec<(Arc<dyn Backend>, BackendInfo)> {
        // A backend that runs commands by name runs the runtime's (the
        // built-in git, python3, sqlite3 ...), and the runner guests the
        // commands interface reaches (the shell as `sh`).
        let commands = self.inner.commands.runtime_names();
        self.all_backends()
            .into_iter()
            .map(|b| {
                let mut info = b.info();
                if let super::Commands::Listed(names) = &mut info.commands {
                    for c in &commands {
                        if !names.contains(c) {
                            names.push(c.clone());
                        }
                    }
                    names.sort();
                }
                (b, info)
            })
            .collect()
    }

    /// Every registered backend, sorted by name; the registry's lock is not
    /// held while the caller uses them (a backend may call back into it).
    pub(crate) fn all_backends(&self) -> Vec<Arc<dyn Backend>> {
        self.inner
            .backends
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .values()
            .cloned()
            .collect()
    }
}

pub(crate) fn validate_backend_name(name: &str) -> Result<(), ExecError> {
    let ok = !name.is_empty()
        && name.len() <= 64
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'));
    if ok {
        Ok(())
    } else {
        Err(ExecError::BadGuest {
            name: name.to_owned(),
            reason: "backend names are 1 to 64 characters from A-Z a-z 0-9 _ - .".into(),
        })
    }
}
