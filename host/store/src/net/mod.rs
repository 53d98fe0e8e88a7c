//! The workspace's network allow-list ([`Workspace::net`]): the hosts its
//! commands (`curl`, `wget`) and module components may reach over HTTP.
//! With no entries a workspace has no network. The runtime enforces it; this
//! module stores it and checks the entries' syntax ([`AllowList`]).

mod allow_list;

pub use allow_list::{AllowList, Entry, is_internal, is_internal_host};

use rusqlite::{OptionalExtension, params};
use serde::Serialize;

use crate::clock::now_ns;
use crate::error::{Errno, FsError, Result};
use crate::workspace::Workspace;

/// One entry of the allow-list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NetRule {
    /// `host`, `host:port`, `*.domain` or `*`, normalized (lowercase).
    pub entry: String,
    /// When it was allowed (ns since the epoch).
    pub added_ns: i64,
}

/// The allow-list of a workspace ([`Workspace::net`]).
#[derive(Clone, Copy)]
pub struct Net<'a> {
    pub(crate) ws: &'a Workspace,
}

fn parse(raw: &str) -> Result<Entry> {
    Entry::parse(raw).map_err(|e| FsError::custom(Errno::EINVAL, raw, e))
}

impl Net<'_> {
    /// Allows `entry` (`host`, `host:port`, `*.example.com`, `*`). Returns
    /// the normalized entry and whether it is new; `EINVAL` explains a bad
    /// entry.
    pub fn allow(&self, entry: &str) -> Result<(String, bool)> {
        let normalized = parse(entry)?.to_string();
        let args = || Some(serde_json::json!({ "entry": normalized }));
        self.ws.audited("net-allow", &normalized, args, || {
            self.ws.meta_tx(|c| {
                let n = c
                    .prepare_cached(
                        "INSERT INTO net_allow (entry, added_ns) VALUES (?1, ?2)
                         ON CONFLICT (entry) DO NOTHING",
                    )?
                    .execute(params![normalized, now_ns()])?;
                Ok((normalized.clone(), n == 1))
            })
        })
    }

    /// Removes `entry` (written as it was allowed, in any case); `ENOENT`
    /// if it is not in the list.
    pub fn deny(&self, entry: &str) -> Result<String> {
        let normalized = parse(entry)?.to_string();
        let args = || Some(serde_json::json!({ "entry": normalized }));
        self.ws.audited("net-deny", &normalized, args, || {
            self.ws.meta_tx(|c| {
                let n = c
                    .prepare_cached("DELETE FROM net_allow WHERE entry = ?1")?
                    .execute([&normalized])?;
                if n == 0 {
                    return Err(FsError::custom(
                        Errno::ENOENT,
                        &normalized,
                        format!("{normalized} is not in the workspace's network allow-list"),
                    ));
                }
                Ok(normalized.clone())
            })
        })
    }

    /// Every entry, in the order allowed.
    pub fn list(&self) -> Result<Vec<NetRule>> {
        self.ws.read_tx(|c| {
            let mut stmt =
                c.prepare_cached("SELECT entry, added_ns FROM net_allow ORDER BY added_ns, entry")?;
            let rows = stmt
                .query_map([], |r| {
                    Ok(NetRule {
                        entry: r.get(0)?,
                        added_ns: r.get(1)?,
                    })
                })?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            Ok(rows)
        })
    }

    /// Whether `entry` is in the list (as written, normalized).
    pub fn contains(&self, entry: &str) -> Result<bool> {
        let normalized = parse(entry)?.to_string();
        self.ws.read_tx(|c| {
            Ok(
                c.prepare_cached("SELECT 1 FROM net_allow WHERE entry = ?1")?
                    .query_row([&normalized], |_| Ok(()))
                    .optional()?
                    .is_some(),
            )
        })
    }

    /// The list as a matcher. A stored entry that no longer parses (written
    /// by a newer version) is skipped with a warning rather than widening
    /// or failing every request.
    pub fn allow_list(&self) -> Result<AllowList> {
        let entries = self
            .list()?
            .into_iter()
            .filter_map(|r| match Entry::parse(&r.entry) {
                Ok(e) => Some(e),
                Err(e) => {
                    tracing::warn!("skipping a stored network allow-list entry: {e}");
                    None
                }
            })
            .collect();
        Ok(AllowList::from_entries(entries))
    }
}

#[cfg(test)]
mod tests {
    use crate::Workspace;

    #[test]
    fn allow_list_deny() {
        let ws = Workspace::in_memory().unwrap();
        assert!(ws.net().list().unwrap().is_empty());
        assert!(ws.net().allow_list().unwrap().is_empty());
        assert_eq!(
            ws.net().allow("API.Example.com").unwrap(),
            ("api.example.com".to_owned(), true)
        );
        assert!(!ws.net().allow("api.example.com").unwrap().1);
        ws.net().allow("127.0.0.1:8080").unwrap();
        let entries: Vec<String> = ws
            .net()
            .list()
            .unwrap()
            .into_iter()
            .map(|r| r.entry)
            .collect();
        assert_eq!(entries, ["api.example.com", "127.0.0.1:8080"]);
        let list = ws.net().allow_list().unwrap();
        assert!(list.allows("api.example.com", 443));
        assert!(list.allows("127.0.0.1", 8080));
        assert!(!list.allows("127.0.0.1", 8081));
        assert!(ws.net().contains("api.example.COM").unwrap());
        ws.net().deny("api.example.com").unwrap();
        let e = ws.net().deny("api.example.com").unwrap_err();
        assert_eq!(e.code, crate::Errno::ENOENT, "{e}");
        assert!(
            !ws.net()
                .allow_list()
                .unwrap()
                .allows("api.example.com", 443)
        );
    }

    #[test]
    fn bad_entries_are_refused() {
        let ws = Workspace::in_memory().unwrap();
        for bad in ["https://x.com", "x.com:0", "", "a b"] {
            let e = ws.net().allow(bad).unwrap_err();
            assert_eq!(e.code, crate::Errno::EINVAL);
            assert!(e.message.contains("invalid allowed host"), "{e}");
        }
        assert!(ws.net().list().unwrap().is_empty());
    }
}
