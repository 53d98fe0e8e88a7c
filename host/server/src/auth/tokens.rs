//! Bearer tokens, kept in `server.db` in the data directory: only the
//! SHA-256 of each token is stored, so a copy of the file gives no access.
//! The same file keeps the server's own request log (requests that name no
//! workspace; those that do are in the workspace's audit log).

use std::path::Path;
use std::sync::Mutex;

use base64::Engine;
use rusqlite::{Connection, OptionalExtension, params};
use serde::Serialize;
use sha2::{Digest, Sha256};

/// What a workspace-scoped token may do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct Rights {
    /// Read files, runs, approvals, the audit log, diffs, snapshots.
    pub read: bool,
    /// Change files, run code, cancel runs, snapshot, restore and undo.
    pub exec: bool,
    /// Answer approvals.
    pub approve: bool,
}

impl Rights {
    /// All three.
    pub const ALL: Rights = Rights {
        read: true,
        exec: true,
        approve: true,
    };

    /// Reads `read,exec,approve` (any subset, comma-separated).
    pub fn parse(text: &str) -> Result<Rights, String> {
        let mut r = Rights::default();
        for word in text.split(',').map(str::trim).filter(|w| !w.is_empty()) {
            match word {
                "read" => r.read = true,
                "exec" => r.exec = true,
                "approve" => r.approve = true,
                other => {
                    return Err(format!(
                        "unknown right {other:?}: give read, exec and/or approve, comma-separated"
                    ));
                }
            }
        }
        if r == Rights::default() {
            return Err("give at least one right: read, exec, approve".into());
        }
        Ok(r)
    }

    /// `read,exec,approve` as stored.
    pub fn as_text(&self) -> String {
        let mut words = Vec::new();
        if self.read {
            words.push("read");
        }
        if self.exec {
            words.push("exec");
        }
        if self.approve {
            words.push("approve");
        }
        words.join(",")
    }
}

/// Who a request comes from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Principal {
    /// The token's name (audit rows say `http:NAME`).
    pub name: String,
    /// `None`: an admin token (every workspace, tokens, settings).
    pub workspace: Option<String>,
    /// What it may do in its workspace (admins: everything).
    pub rights: Rights,
}

impl Principal {
    /// The principal of `--insecure-no-auth`.
    pub fn anonymous() -> Self {
        Principal {
            name: "anonymous".into(),
            workspace: None,
            rights: Rights::ALL,
        }
    }

    /// Whether this is an admin token.
    pub fn is_admin(&self) -> bool {
        self.workspace.is_none()
    }

    /// Whether it may act on workspace `id` at all.
    pub fn sees(&self, id: &str) -> bool {
        self.workspace.as_deref().is_none_or(|w| w == id)
    }
}

/// A token as listed (never its secret).
#[derive(Debug, Clone, Serialize)]
pub struct TokenInfo {
    /// Its unique name.
    pub name: String,
    /// Its workspace; `null` for an admin token.
    pub workspace: Option<String>,
    /// Its rights as `read,exec,approve`.
    pub rights: String,
    /// When it was made (ns since the epoch).
    pub created_ns: i64,
}

/// The token table and the server's request log.
pub struct TokenStore {
    conn: Mutex<Connection>,
}

/// Tokens start with this, so a leaked one is easy to recognise (and scan for).
pub const TOKEN_PREFIX: &str = "ctk_";

fn now_ns() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos().min(i64::MAX as u128) as i64)
}

fn hash(token: &str) -> String {
    let digest = Sha256::digest(token.as_bytes());
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// Token names: what audit rows and the CLI show.
pub fn check_name(name: &str) -> Result<(), String> {
    let ok = !name.is_empty()
        && name.len() <= 64
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '@'));
    if ok {
        Ok(())
    } else {
        Err(format!(
            "invalid token name {name:?}: 1 to 64 of letters, digits, - _ . @"
        ))
    }
}

impl TokenStore {
    /// Opens (creating) `DIR/server.db`.
    pub fn open(dir: &Path) -> anyhow::Result<TokenStore> {
        std::fs::create_dir_all(dir)?;
        let conn = Connection::open(dir.join("server.db"))?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        conn.execute_batch(
            "PRAGMA journal_mode=WAL;
             PRAGMA synchronous=NORMAL;
             CREATE TABLE IF NOT EXISTS tokens (
                name TEXT PRIMARY KEY,
                hash TEXT NOT NULL UNIQUE,
                workspace TEXT,
                rights TEXT NOT NULL,
                created_ns INTEGER NOT NULL
             );
             CREATE TABLE IF NOT EXISTS requests (
                id INTEGER PRIMARY KEY,
                time_ns INTEGER NOT NULL,
                token TEXT NOT NULL,
                method TEXT NOT NULL,
                path TEXT NOT NULL,
                status INTEGER NOT NULL,
                duration_ns INTEGER NOT NULL
             );",
        )?;
        Ok(TokenStore {
            conn: Mutex::new(conn),
        })
    }

    fn conn(&self) -> std::sync::MutexGuard<'_, Connection> {
        self.conn.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Makes a token; returns its secret, shown once.
    pub fn create(
        &self,
        name: &str,
        workspace: Option<&str>,
        rights: Rights,
    ) -> anyhow::Result<String> {
        check_name(name).map_err(anyhow::Error::msg)?;
        let mut raw = [0u8; 32];
        getrandom::fill(&mut raw).map_err(|e| anyhow::anyhow!("no randomness: {e}"))?;
        let secret = format!(
            "{TOKEN_PREFIX}{}",
            base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(raw)
        );
        let rights = if workspace.is_none() {
            Rights::ALL
        } else {
            rights
        };
        let made = self.conn().execute(
            "INSERT INTO tokens (name, hash, workspace, rights, created_ns) VALUES (?1, ?2, ?3, ?4, ?5)
             ON CONFLICT(name) DO NOTHING",
            params![name, hash(&secret), workspace, rights.as_text(), now_ns()],
        )?;
        if made == 0 {
            anyhow::bail!("a token named {name:?} exists; revoke it first or pick another name");
        }
        Ok(secret)
    }

    /// Removes a token; false if there was none of that name.
    pub fn revoke(&self, name: &str) -> anyhow::Result<bool> {
        Ok(self
            .conn()
            .execute("DELETE FROM tokens WHERE name = ?1", [name])?
            > 0)
    }

    /// Every token, by name.
    pub fn list(&self) -> anyhow::Result<Vec<TokenInfo>> {
        let conn = self.conn();
        let mut stmt =
            conn.prepare("SELECT name, workspace, rights, created_ns FROM tokens ORDER BY name")?;
        let rows = stmt.query_map([], |r| {
            Ok(TokenInfo {
                name: r.get(0)?,
                workspace: r.get(1)?,
                rights: r.get(2)?,
                created_ns: r.get(3)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Who `secret` is, if it is a token of this server. Looked up by hash
    /// on every request, so a token revoked by `computer serve token
    /// revoke` (another process) stops working at once.
    pub fn verify(&self, secret: &str) -> anyhow::Result<Option<Principal>> {
        if !secret.starts_with(TOKEN_PREFIX) {
            return Ok(None);
        }
        let conn = self.conn();
        let found = conn
            .prepare_cached("SELECT name, workspace, rights FROM tokens WHERE hash = ?1")?
            .query_row([hash(secret)], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, Option<String>>(1)?,
                    r.get::<_, String>(2)?,
                ))
            })
            .optional()?;
        Ok(found.map(|(name, workspace, rights)| Principal {
            name,
            rights: Rights::parse(&rights).unwrap_or_default(),
            workspace,
        }))
    }

    /// Records a request that names no workspace.
    pub fn log_request(&self, token: &str, method: &str, path: &str, status: u16, nanos: i64) {
        let done = self.conn().execute(
            "INSERT INTO requests (time_ns, token, method, path, status, duration_ns) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![now_ns() - nanos, token, method, path, status, nanos],
        );
        if let Err(e) = done {
            tracing::warn!("cannot record a request in server.db: {e}");
        }
    }

    /// The server's request log, newest first.
    pub fn requests(&self, offset: u64, limit: u64) -> anyhow::Result<Vec<serde_json::Value>> {
        let conn = self.conn();
        let mut stmt = conn.prepare(
            "SELECT id, time_ns, token, method, path, status, duration_ns FROM requests
             ORDER BY id DESC LIMIT ?1 OFFSET ?2",
        )?;
        let rows = stmt.query_map(params![limit as i64, offset as i64], |r| {
            Ok(serde_json::json!({
                "id": r.get::<_, i64>(0)?,
                "time_ns": r.get::<_, i64>(1)?,
                "token": r.get::<_, String>(2)?,
                "method": r.get::<_, String>(3)?,
                "path": r.get::<_, String>(4)?,
                "status": r.get::<_, i64>(5)?,
                "duration_ns": r.get::<_, i64>(6)?,
            }))
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_stored_hashed_and_verified() {
        let dir = tempfile::tempdir().unwrap();
        let store = TokenStore::open(dir.path()).unwrap();
        let secret = store
            .create("agent", Some("w1"), Rights::parse("read").unwrap())
            .unwrap();
        let p = store.verify(&secret).unwrap().unwrap();
        assert_eq!(p.workspace.as_deref(), Some("w1"));
        assert!(p.rights.read && !p.rights.exec);
        assert!(store.verify("ctk_nope").unwrap().is_none());
        let bytes = std::fs::read(dir.path().join("server.db")).unwrap();
        let text = String::from_utf8_lossy(&bytes);
        assert!(!text.contains(&secret[TOKEN_PREFIX.len()..]));
        assert!(store.create("agent", None, Rights::ALL).is_err());
        assert!(store.revoke("agent").unwrap());
        assert!(store.verify(&secret).unwrap().is_none());
    }

    #[test]
    fn rights_parse() {
        assert_eq!(
            Rights::parse("read,approve").unwrap().as_text(),
            "read,approve"
        );
        assert!(Rights::parse("root").is_err());
        assert!(Rights::parse("").is_err());
    }
}
