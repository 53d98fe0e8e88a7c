//! The workspace's network allow-list ([`Workspace::net`]): the hosts its
//! commands (`curl`, `wget`) and module components may reach over HTTP.
//! With no entries a workspace has no network. The runtime enforces it; this
//! module stores it and checks the entries' syntax ([`AllowList`]).

mod allow_list;
mod credentials;

pub use allow_list::{AllowList, Entry, is_internal, is_internal_host};
pub use credentials::{Credential, CredentialKind, render as render_credential, secret_names};

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
                c.prepare_cached("DELETE FROM net_credentials WHERE entry = ?1")?
                    .execute([&normalized])?;
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

impl Net<'_> {
    /// Attaches a credential to requests for `entry` (which must name a
    /// host, not a wildcard, and is allowed too if it was not). `name` and
    /// `template` come from [`Credential::header`], `query` or `basic`;
    /// every secret the template names must be set. Replaces the entry's
    /// rule of the same kind and name.
    pub fn attach(
        &self,
        entry: &str,
        kind: CredentialKind,
        name: &str,
        template: &str,
    ) -> Result<Credential> {
        let parsed = parse(entry)?;
        let normalized = parsed.to_string();
        if normalized.starts_with('*') {
            return Err(FsError::custom(
                Errno::EINVAL,
                &normalized,
                format!(
                    "credentials go to one named host, not {normalized}: name the host (and port)"
                ),
            ));
        }
        let names = secret_names(template).map_err(|e| FsError::custom(Errno::EINVAL, entry, e))?;
        for n in &names {
            if !self.ws.secrets().contains(n)? {
                return Err(FsError::custom(
                    Errno::ENOENT,
                    n,
                    format!("secret {n} is not set; set it first with: computer secrets set {n}"),
                ));
            }
        }
        let rule = Credential {
            entry: normalized.clone(),
            kind,
            name: name.to_owned(),
            template: template.to_owned(),
        };
        let args =
            || Some(serde_json::json!({ "kind": kind.as_str(), "name": name, "secrets": names }));
        self.allow(&normalized)?;
        self.ws.audited("net-credential", &normalized, args, || {
            self.ws.meta_tx(|c| {
                c.prepare_cached(
                    "INSERT INTO net_credentials (entry, kind, name, template, added_ns)
                     VALUES (?1, ?2, ?3, ?4, ?5)
                     ON CONFLICT (entry, kind, name) DO UPDATE SET template = ?4, added_ns = ?5",
                )?
                .execute(params![
                    normalized,
                    kind.as_str(),
                    name,
                    template,
                    now_ns()
                ])?;
                Ok(())
            })
        })?;
        Ok(rule)
    }

    /// Every credential rule, by entry.
    pub fn credentials(&self) -> Result<Vec<Credential>> {
        self.ws.read_tx(|c| {
            let mut stmt = c.prepare_cached(
                "SELECT entry, kind, name, template FROM net_credentials ORDER BY entry, kind, name",
            )?;
            let rows = stmt
                .query_map([], |r| {
                    Ok((
                        r.get::<_, String>(0)?,
                        r.get::<_, String>(1)?,
                        r.get::<_, String>(2)?,
                        r.get::<_, String>(3)?,
                    ))
                })?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            Ok(rows
                .into_iter()
                .filter_map(|(entry, kind, name, template)| {
                    Some(Credential {
                        entry,
                        kind: CredentialKind::parse(&kind)?,
                        name,
                        template,
                    })
                })
                .collect())
        })
    }

    /// The rules for a request to `host` (as in a URI) on `port`: those
    /// whose entry names that host, with no port or this one. A redirect
    /// to another host or port gets none of another's.
    pub fn credentials_for(&self, host: &str, port: u16) -> Result<Vec<Credential>> {
        let host = host.to_ascii_lowercase();
        let with_port = format!("{host}:{port}");
        self.ws.read_tx(|c| {
            let mut stmt = c.prepare_cached(
                "SELECT entry, kind, name, template FROM net_credentials
                 WHERE entry = ?1 OR entry = ?2 ORDER BY length(entry), kind, name",
            )?;
            let rows = stmt
                .query_map(params![host, with_port], |r| {
                    Ok((
                        r.get::<_, String>(0)?,
                        r.get::<_, String>(1)?,
                        r.get::<_, String>(2)?,
                        r.get::<_, String>(3)?,
                    ))
                })?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            Ok(rows
                .into_iter()
                .filter_map(|(entry, kind, name, template)| {
                    Some(Credential {
                        entry,
                        kind: CredentialKind::parse(&kind)?,
                        name,
                        template,
                    })
                })
                .collect())
        })
    }

    /// Removes the credential rules of `entry`; how many there were.
    pub fn detach(&self, entry: &str) -> Result<usize> {
        let normalized = parse(entry)?.to_string();
        let args = || Some(serde_json::json!({ "entry": normalized }));
        self.ws.audited("net-credential-rm", &normalized, args, || {
            self.ws.meta_tx(|c| {
                Ok(
                    c.prepare_cached("DELETE FROM net_credentials WHERE entry = ?1")?
                        .execute([&normalized])?,
                )
            })
        })
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
