//! Module components registered in the workspace ([`Workspace::modules`]):
//! the component's bytes, its configuration and the hosts it may reach,
//! under its `ws:NAME`. The
//! runtime loads them (`Runtime::register_workspace_modules`); this crate
//! only stores them and checks nothing about the bytes.

use rusqlite::{OptionalExtension, Row, params};
use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::clock::now_ns;
use crate::error::{Errno, FsError, Result};
use crate::workspace::Workspace;

/// A module component to store.
#[derive(Debug, Clone)]
pub struct NewModule<'a> {
    /// `ws:NAME`, NAME matching `[A-Za-z0-9][A-Za-z0-9._-]*`.
    pub name: &'a str,
    /// The component's bytes.
    pub component: &'a [u8],
    /// What `call-context.config` returns, in order.
    pub config: &'a [(String, String)],
    /// Hosts (`host` or `host:port`) its HTTP requests may reach.
    pub allow_hosts: &'a [String],
    /// A JSON description of its functions, for listings.
    pub functions: serde_json::Value,
}

/// A stored module component.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ModuleRecord {
    /// `ws:NAME`.
    pub name: String,
    /// The component's bytes.
    #[serde(skip)]
    pub component: Vec<u8>,
    /// Hex SHA-256 of the component.
    pub sha256: String,
    /// The component's size in bytes.
    pub size: u64,
    /// What `call-context.config` returns, in order.
    pub config: Vec<(String, String)>,
    /// Hosts its HTTP requests may reach.
    pub allow_hosts: Vec<String>,
    /// The JSON description of its functions.
    pub functions: serde_json::Value,
    /// When it was stored (ns since the epoch).
    pub added_ns: i64,
}

/// Checks `ws:NAME`.
pub fn validate_module_name(name: &str) -> Result<()> {
    let ok = name.strip_prefix("ws:").is_some_and(|bare| {
        let mut bytes = bare.bytes();
        bytes.next().is_some_and(|b| b.is_ascii_alphanumeric())
            && bytes.all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
    }) && name.len() <= 128;
    if ok {
        Ok(())
    } else {
        Err(FsError::custom(
            Errno::EINVAL,
            name,
            format!("invalid module name {name:?}: it must match ^ws:[A-Za-z0-9][A-Za-z0-9._-]*$"),
        ))
    }
}

fn corrupt(name: &str, what: &str, e: serde_json::Error) -> FsError {
    FsError::custom(
        Errno::EIO,
        name,
        format!("module {name}: stored {what} is not valid JSON: {e}"),
    )
}

fn from_row(r: &Row<'_>) -> rusqlite::Result<(ModuleRecord, String, String, String)> {
    let component: Vec<u8> = r.get(1)?;
    Ok((
        ModuleRecord {
            name: r.get(0)?,
            size: component.len() as u64,
            component,
            sha256: r.get(2)?,
            config: Vec::new(),
            allow_hosts: Vec::new(),
            functions: serde_json::Value::Null,
            added_ns: r.get(6)?,
        },
        r.get(3)?,
        r.get(4)?,
        r.get(5)?,
    ))
}

fn finish(row: (ModuleRecord, String, String, String)) -> Result<ModuleRecord> {
    let (mut m, config, allow, functions) = row;
    m.config = serde_json::from_str(&config).map_err(|e| corrupt(&m.name, "config", e))?;
    m.allow_hosts = serde_json::from_str(&allow).map_err(|e| corrupt(&m.name, "allow_hosts", e))?;
    m.functions = serde_json::from_str(&functions).map_err(|e| corrupt(&m.name, "functions", e))?;
    Ok(m)
}

const COLUMNS: &str = "name, component, sha256, config, allow_hosts, functions, added_ns";

/// The module components stored in a workspace ([`Workspace::modules`]).
#[derive(Clone, Copy)]
pub struct Modules<'a> {
    pub(crate) ws: &'a Workspace,
}

impl Modules<'_> {
    /// Stores a module component, replacing one of the same name. Returns
    /// whether one was replaced.
    pub fn add(&self, m: &NewModule<'_>) -> Result<bool> {
        validate_module_name(m.name)?;
        let sha: String = Sha256::digest(m.component)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        let config = serde_json::to_string(m.config).unwrap_or_else(|_| "[]".into());
        let allow = serde_json::to_string(m.allow_hosts).unwrap_or_else(|_| "[]".into());
        let functions = m.functions.to_string();
        self.ws.meta_tx(|c| {
            let existed = c
                .prepare_cached("SELECT 1 FROM modules WHERE name = ?1")?
                .query_row([m.name], |_| Ok(()))
                .optional()?
                .is_some();
            c.prepare_cached(
                "INSERT INTO modules (name, component, sha256, config, allow_hosts, functions, added_ns)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
                 ON CONFLICT (name) DO UPDATE SET component = excluded.component,
                   sha256 = excluded.sha256, config = excluded.config,
                   allow_hosts = excluded.allow_hosts, functions = excluded.functions,
                   added_ns = excluded.added_ns",
            )?
            .execute(params![
                m.name,
                m.component,
                sha,
                config,
                allow,
                functions,
                now_ns()
            ])?;
            Ok(existed)
        })
    }

    /// Every stored module component, by name, with its bytes.
    pub fn list(&self) -> Result<Vec<ModuleRecord>> {
        let rows = self.ws.read_tx(|c| {
            let mut stmt =
                c.prepare_cached(&format!("SELECT {COLUMNS} FROM modules ORDER BY name"))?;
            let rows = stmt
                .query_map([], from_row)?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            Ok(rows)
        })?;
        rows.into_iter().map(finish).collect()
    }

    /// One stored module component.
    pub fn get(&self, name: &str) -> Result<Option<ModuleRecord>> {
        let row = self.ws.read_tx(|c| {
            Ok(
                c.prepare_cached(&format!("SELECT {COLUMNS} FROM modules WHERE name = ?1"))?
                    .query_row([name], from_row)
                    .optional()?,
            )
        })?;
        row.map(finish).transpose()
    }

    /// Removes a module component; `ENOENT` if there is none of that name.
    pub fn remove(&self, name: &str) -> Result<()> {
        self.ws.meta_tx(|c| {
            let n = c
                .prepare_cached("DELETE FROM modules WHERE name = ?1")?
                .execute([name])?;
            if n == 0 {
                return Err(FsError::custom(
                    Errno::ENOENT,
                    name,
                    format!("no module {name} in this workspace"),
                ));
            }
            Ok(())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn new<'a>(
        name: &'a str,
        bytes: &'a [u8],
        config: &'a [(String, String)],
        hosts: &'a [String],
    ) -> NewModule<'a> {
        NewModule {
            name,
            component: bytes,
            config,
            allow_hosts: hosts,
            functions: serde_json::json!([{"name": "f"}]),
        }
    }

    #[test]
    fn add_list_get_replace_remove() {
        let ws = Workspace::in_memory().unwrap();
        assert!(ws.modules().list().unwrap().is_empty());
        let config = vec![
            ("repo".to_owned(), "o/r".to_owned()),
            ("base_url".to_owned(), "http://x".to_owned()),
        ];
        let hosts = vec!["127.0.0.1:1".to_owned()];
        assert!(
            !ws.modules()
                .add(&new("ws:gh", b"abc", &config, &hosts))
                .unwrap()
        );
        let m = ws.modules().get("ws:gh").unwrap().unwrap();
        assert_eq!(m.component, b"abc");
        assert_eq!(m.size, 3);
        assert_eq!(
            m.sha256,
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(m.config, config, "order is kept");
        assert_eq!(m.allow_hosts, hosts);
        assert_eq!(m.functions, serde_json::json!([{"name": "f"}]));

        assert!(ws.modules().add(&new("ws:gh", b"xyz", &[], &[])).unwrap());
        assert!(ws.modules().add(&new("ws:a", b"1", &[], &[])).is_ok());
        let all = ws.modules().list().unwrap();
        let names: Vec<&str> = all.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(names, ["ws:a", "ws:gh"]);
        assert_eq!(all[1].component, b"xyz");
        assert!(all[1].config.is_empty());

        ws.modules().remove("ws:gh").unwrap();
        assert!(ws.modules().get("ws:gh").unwrap().is_none());
        assert_eq!(
            ws.modules().remove("ws:gh").unwrap_err().code,
            Errno::ENOENT
        );
    }

    #[test]
    fn names_are_checked() {
        let ws = Workspace::in_memory().unwrap();
        for bad in ["gh", "ws:", "ws:-x", "ws:a b", "ws:a/b", "WS:a"] {
            let e = ws.modules().add(&new(bad, b"", &[], &[])).unwrap_err();
            assert_eq!(e.code, Errno::EINVAL, "{bad}");
            assert!(e.message.contains("^ws:"), "{}", e.message);
        }
        assert!(ws.modules().add(&new("ws:A1._-z", b"", &[], &[])).is_ok());
    }
}
