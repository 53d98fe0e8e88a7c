//! The registry of backends a runtime runs on, and what it can say about
//! them: their descriptions, and which one can run a missing command.

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
        // A backend that runs commands by name runs the runtime's (the
        // built-in git, python3, sqlite3 ...), and the runner guests the
        // commands interface reaches (the shell as `sh`).
        let commands = self.inner.commands.runtime_names();
        self.all_backends()
            .iter()
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
                info
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

    /// What to tell the caller of a run on `from` that exited 127 with
    /// `stderr`: which of the `offered` backends can run the missing
    /// command, or that none can.
    pub fn not_found_hint(&self, from: &str, stderr: &str, offered: &[String]) -> String {
        let missing = missing_command(stderr);
        let what = missing
            .as_deref()
            .map_or("the command".to_owned(), |m| format!("`{m}`"));
        let infos = self.backend_infos();
        let can = infos.iter().find(|i| {
            i.name != from
                && offered.contains(&i.name)
                && missing.as_deref().is_some_and(|m| i.commands.can_run(m))
        });
        match can {
            Some(i) => format!(
                "exit 127: {what} is not available on the `{from}` backend; run it on the `{}` backend ({})",
                i.name, i.description
            ),
            None => format!(
                "exit 127: {what} is not available on the `{from}` backend, and no backend offered here can run it \
                 (a wasm32-wasip2 build of a program becomes a command of the shell with `computer commands add NAME PATH.wasm`)"
            ),
        }
    }
}

/// The command a shell said it could not find (`bash: NAME: command not
/// found`, `sh: 1: NAME: not found`), if it said so.
pub fn missing_command(stderr: &str) -> Option<String> {
    stderr.lines().rev().find_map(|line| {
        let head = line
            .strip_suffix(": command not found")
            .or_else(|| line.strip_suffix(": not found"))?;
        let name = head.rsplit(": ").next()?.trim();
        (!name.is_empty()).then(|| name.to_owned())
    })
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

#[cfg(test)]
mod tests {
    use super::missing_command;

    #[test]
    fn finds_the_missing_command_in_shell_messages() {
        assert_eq!(
            missing_command("bash: python3: command not found\n").as_deref(),
            Some("python3")
        );
        assert_eq!(
            missing_command("x\nsh: 1: gcc: not found").as_deref(),
            Some("gcc")
        );
        assert_eq!(missing_command("all fine"), None);
    }
}
