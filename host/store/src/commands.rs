//! Command components registered in the workspace ([`Workspace::commands`]):
//! a `wasi:cli/command` program's bytes under the name scripts call it by,
//! with a description and the host directories it is given read-only. The
//! runtime runs them (`computer_runtime`'s command registry); this crate
//! only stores them and checks nothing about the bytes.

use rusqlite::{OptionalExtension, Row, params};
use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::clock::now_ns;
use crate::error::{Errno, FsError, Result};
use crate::workspace::Workspace;

/// The longest command name.
const MAX_COMMAND_NAME: usize = 64;

/// A command component to store.
#[derive(Debug, Clone)]
pub struct NewCommand<'a> {
    /// What scripts type, matching `[A-Za-z0-9_][A-Za-z0-9._+-]*`.
    pub name: &'a str,
    /// The component's bytes.
    pub component: &'a [u8],
    /// One line on what it does, for listings (and models).
    pub description: &'a str,
    /// `(guest path, host directory)` pairs mounted read-only for it.
    pub mounts: &'a [(String, String)],
}

/// A stored command, without its bytes ([`Commands::component`] has them).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CommandInfo {
    /// What scripts type.
    pub name: String,
    /// Hex SHA-256 of the component.
    pub sha256: String,
    /// The component's size in bytes.
    pub size: u64,
    /// What it does.
    pub description: String,
    /// `(guest path, host directory)` pairs mounted read-only for it.
    pub mounts: Vec<(String, String)>,
    /// When it was stored (ns since the epoch).
    pub added_ns: i64,
}

/// Checks a command name: one word a shell can type, no path.
pub fn validate_command_name(name: &str) -> Result<()> {
    let mut bytes = name.bytes();
    let ok = bytes
        .next()
        .is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_')
        && bytes.all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-' | b'+'))
        && name.len() <= MAX_COMMAND_NAME;
    if ok {
        Ok(())
    } else {
        Err(FsError::custom(
            Errno::EINVAL,
            name,
            format!(
                "invalid command name {name:?}: it must match ^[A-Za-z0-9_][A-Za-z0-9._+-]*$ \
                 and be at most {MAX_COMMAND_NAME} bytes"
            ),
        ))
    }
}

fn info_from_row(r: &Row<'_>) -> rusqlite::Result<(CommandInfo, String)> {
    Ok((
        CommandInfo {
            name: r.get(0)?,
            sha256: r.get(1)?,
            size: r.get::<_, i64>(2)? as u64,
            description: r.get(3)?,
            mounts: Vec::new(),
            added_ns: r.get(5)?,
        },
        r.get(4)?,
    ))
}

fn finish((mut info, mounts): (CommandInfo, String)) -> Result<CommandInfo> {
    info.mounts = serde_json::from_str(&mounts).map_err(|e| {
        FsError::custom(
            Errno::EIO,
            &info.name,
            format!(
                "command {}: stored mounts are not valid JSON: {e}",
                info.name
            ),
        )
    })?;
    Ok(info)
}

const INFO_COLUMNS: &str = "name, sha256, length(component), description, mounts, added_ns";

/// The command components stored in a workspace ([`Workspace::commands`]).
#[derive(Clone, Copy)]
pub struct Commands<'a> {
    pub(crate) ws: &'a Workspace,
}

impl Commands<'_> {
    /// Stores a command component, replacing one of the same name. Returns
    /// whether one was replaced.
    pub fn add(&self, c: &NewCommand<'_>) -> Result<bool> {
        validate_command_name(c.name)?;
        let sha: String = Sha256::digest(c.component)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        let mounts = serde_json::to_string(c.mounts).unwrap_or_else(|_| "[]".into());
        self.ws.meta_tx(|conn| {
            let existed = conn
                .prepare_cached("SELECT 1 FROM commands WHERE name = ?1")?
                .query_row([c.name], |_| Ok(()))
                .optional()?
                .is_some();
            conn.prepare_cached(
                "INSERT INTO commands (name, component, sha256, description, mounts, added_ns)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)
                 ON CONFLICT (name) DO UPDATE SET component = excluded.component,
                   sha256 = excluded.sha256, description = excluded.description,
                   mounts = excluded.mounts, added_ns = excluded.added_ns",
            )?
            .execute(params![
                c.name,
                c.component,
                sha,
                c.description,
                mounts,
                now_ns()
            ])?;
            Ok(existed)
        })
    }

    /// Every stored command, by name, without the bytes.
    pub fn list(&self) -> Result<Vec<CommandInfo>> {
        let rows = self.ws.read_tx(|conn| {
            let mut stmt = conn.prepare_cached(&format!(
                "SELECT {INFO_COLUMNS} FROM commands ORDER BY name"
            ))?;
            let rows = stmt
                .query_map([], info_from_row)?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            Ok(rows)
        })?;
        rows.into_iter().map(finish).collect()
    }

    /// One stored command, without the bytes.
    pub fn get(&self, name: &str) -> Result<Option<CommandInfo>> {
        let row = self.ws.read_tx(|conn| {
            Ok(conn
                .prepare_cached(&format!(
                    "SELECT {INFO_COLUMNS} FROM commands WHERE name = ?1"
                ))?
                .query_row([name], info_from_row)
                .optional()?)
        })?;
        row.map(finish).transpose()
    }

    /// The bytes of a stored command's component.
    pub fn component(&self, name: &str) -> Result<Option<Vec<u8>>> {
        self.ws.read_tx(|conn| {
            Ok(conn
                .prepare_cached("SELECT component FROM commands WHERE name = ?1")?
                .query_row([name], |r| r.get(0))
                .optional()?)
        })
    }

    /// Removes a command; `ENOENT` if there is none of that name.
    pub fn remove(&self, name: &str) -> Result<()> {
        self.ws.meta_tx(|conn| {
            let n = conn
                .prepare_cached("DELETE FROM commands WHERE name = ?1")?
                .execute([name])?;
            if n == 0 {
                return Err(FsError::custom(
                    Errno::ENOENT,
                    name,
                    format!("no command {name} in this workspace"),
                ));
            }
            Ok(())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn new<'a>(name: &'a str, bytes: &'a [u8], mounts: &'a [(String, String)]) -> NewCommand<'a> {
        NewCommand {
            name,
            component: bytes,
            description: "searches",
            mounts,
        }
    }

    #[test]
    fn add_list_get_replace_remove() {
        let ws = Workspace::in_memory().unwrap();
        assert!(ws.commands().list().unwrap().is_empty());
        let mounts = vec![("/usr/lib/x".to_owned(), "/opt/x".to_owned())];
        assert!(!ws.commands().add(&new("rg", b"abc", &mounts)).unwrap());
        let c = ws.commands().get("rg").unwrap().unwrap();
        assert_eq!(c.size, 3);
        assert_eq!(
            c.sha256,
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(c.mounts, mounts);
        assert_eq!(c.description, "searches");
        assert_eq!(ws.commands().component("rg").unwrap().unwrap(), b"abc");

        assert!(ws.commands().add(&new("rg", b"wxyz", &[])).unwrap());
        ws.commands().add(&new("a.b-c+", b"1", &[])).unwrap();
        let all = ws.commands().list().unwrap();
        let names: Vec<&str> = all.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["a.b-c+", "rg"]);
        assert_eq!(all[1].size, 4);
        assert!(all[1].mounts.is_empty());

        ws.commands().remove("rg").unwrap();
        assert!(ws.commands().get("rg").unwrap().is_none());
        assert!(ws.commands().component("rg").unwrap().is_none());
        assert_eq!(ws.commands().remove("rg").unwrap_err().code, Errno::ENOENT);
    }

    #[test]
    fn names_must_be_one_word() {
        for bad in ["", "a/b", "-x", ".x", "a b", "ä", &"x".repeat(65)] {
            let err = Workspace::in_memory()
                .unwrap()
                .commands()
                .add(&new(bad, b"", &[]))
                .unwrap_err();
            assert_eq!(err.code, Errno::EINVAL, "{bad:?}");
        }
        validate_command_name("python3").unwrap();
        validate_command_name("_x").unwrap();
    }
}
