//! Secrets ([`Workspace::secrets`]): values the host attaches to outgoing
//! requests (`net::credentials`) and that no guest ever sees. Each is
//! encrypted at rest with XChaCha20-Poly1305 (a random 24-byte nonce per
//! value, the name as associated data, so a value cannot be moved to
//! another name) under a key the host holds (`key.rs`); the plaintext is
//! never written to the workspace file. Nothing here prints a value: the
//! only way out is [`Secrets::reveal`], which the runtime's HTTP client
//! calls when it sends a request.

mod key;

pub(crate) use key::SecretKey;
pub use key::{KEY_ENV, key_path};

use chacha20poly1305::XNonce;
use chacha20poly1305::aead::{Aead, AeadCore, OsRng, Payload};
use rusqlite::{OptionalExtension, params};
use serde::Serialize;
use zeroize::Zeroizing;

use crate::clock::now_ns;
use crate::error::{Errno, FsError, Result};
use crate::workspace::Workspace;

/// The longest value (bytes).
pub const MAX_SECRET: usize = 64 * 1024;

/// A secret as `secrets ls` shows it: never its value.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SecretInfo {
    /// Its name.
    pub name: String,
    /// When it was last set (ns since the epoch).
    pub updated_ns: i64,
}

/// The secrets of a workspace ([`Workspace::secrets`]).
#[derive(Clone, Copy)]
pub struct Secrets<'a> {
    pub(crate) ws: &'a Workspace,
}

/// Checks a secret's name: a letter or `_`, then letters, digits and `_`
/// (at most 128), as an environment variable's.
pub fn validate_secret_name(name: &str) -> std::result::Result<(), String> {
    let ok = !name.is_empty()
        && name.len() <= 128
        && name
            .bytes()
            .next()
            .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_')
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
    if ok {
        Ok(())
    } else {
        Err(format!(
            "invalid secret name {name:?}: use letters, digits and _ (not first a digit), at most 128"
        ))
    }
}

fn check_name(name: &str) -> Result<()> {
    validate_secret_name(name).map_err(|e| FsError::custom(Errno::EINVAL, name, e))
}

/// Why a value cannot be a secret; says nothing of the value itself.
fn check_value(name: &str, value: &[u8]) -> Result<()> {
    let why = if value.is_empty() {
        "the value is empty"
    } else if value.len() > MAX_SECRET {
        "the value is longer than 64 KiB"
    } else if value.iter().any(|&b| b == b'\r' || b == b'\n' || b == 0) {
        "the value holds a line break or NUL byte (it could not be sent in a header)"
    } else {
        return Ok(());
    };
    Err(FsError::custom(
        Errno::EINVAL,
        name,
        format!("secret {name} not set: {why}"),
    ))
}

fn crypto_err(name: &str) -> FsError {
    FsError::custom(
        Errno::EPERM,
        name,
        format!(
            "secret {name} cannot be decrypted with this host's key ({} or the key file beside the workspace); set it again",
            KEY_ENV
        ),
    )
}

impl Secrets<'_> {
    /// Stores `value` under `name` (replacing any), encrypted. Returns
    /// whether the name is new.
    pub fn set(&self, name: &str, value: &[u8]) -> Result<bool> {
        check_name(name)?;
        check_value(name, value)?;
        let key = self.ws.secrets_key(true)?;
        let nonce = chacha20poly1305::XChaCha20Poly1305::generate_nonce(&mut OsRng);
        let sealed = key::cipher(&key)
            .encrypt(
                &nonce,
                Payload {
                    msg: value,
                    aad: name.as_bytes(),
                },
            )
            .map_err(|_| crypto_err(name))?;
        self.ws.audited("secret-set", name, || None, || {
            self.ws.meta_tx(|c| {
                let existed = c
                    .prepare_cached("SELECT 1 FROM secrets WHERE name = ?1")?
                    .query_row([name], |_| Ok(()))
                    .optional()?
                    .is_some();
                c.prepare_cached(
                    "INSERT INTO secrets (name, nonce, ciphertext, updated_ns) VALUES (?1, ?2, ?3, ?4)
                     ON CONFLICT (name) DO UPDATE SET nonce = ?2, ciphertext = ?3, updated_ns = ?4",
                )?
                .execute(params![name, nonce.as_slice(), sealed, now_ns()])?;
                Ok(!existed)
            })
        })
    }

    /// Every secret's name, sorted.
    pub fn list(&self) -> Result<Vec<SecretInfo>> {
        self.ws.read_tx(|c| {
            let mut stmt =
                c.prepare_cached("SELECT name, updated_ns FROM secrets ORDER BY name")?;
            let rows = stmt
                .query_map([], |r| {
                    Ok(SecretInfo {
                        name: r.get(0)?,
                        updated_ns: r.get(1)?,
                    })
                })?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            Ok(rows)
        })
    }

    /// Whether `name` is set.
    pub fn contains(&self, name: &str) -> Result<bool> {
        self.ws.read_tx(|c| {
            Ok(c.prepare_cached("SELECT 1 FROM secrets WHERE name = ?1")?
                .query_row([name], |_| Ok(()))
                .optional()?
                .is_some())
        })
    }

    /// Removes `name`; `ENOENT` if it is not set.
    pub fn remove(&self, name: &str) -> Result<()> {
        check_name(name)?;
        self.ws.audited(
            "secret-rm",
            name,
            || None,
            || {
                self.ws.meta_tx(|c| {
                    let n = c
                        .prepare_cached("DELETE FROM secrets WHERE name = ?1")?
                        .execute([name])?;
                    if n == 0 {
                        return Err(FsError::custom(
                            Errno::ENOENT,
                            name,
                            format!("no secret named {name} (computer secrets ls)"),
                        ));
                    }
                    Ok(())
                })
            },
        )
    }

    /// The value of `name`, for the host's HTTP client only; wiped from
    /// memory when dropped. `ENOENT` if it is not set.
    pub fn reveal(&self, name: &str) -> Result<Zeroizing<Vec<u8>>> {
        let row: Option<(Vec<u8>, Vec<u8>)> = self.ws.read_tx(|c| {
            Ok(
                c.prepare_cached("SELECT nonce, ciphertext FROM secrets WHERE name = ?1")?
                    .query_row([name], |r| Ok((r.get(0)?, r.get(1)?)))
                    .optional()?,
            )
        })?;
        let Some((nonce, sealed)) = row else {
            return Err(FsError::custom(
                Errno::ENOENT,
                name,
                format!("secret {name} is not set (computer secrets set {name})"),
            ));
        };
        if nonce.len() != 24 {
            return Err(crypto_err(name));
        }
        let key = self.ws.secrets_key(false)?;
        key::cipher(&key)
            .decrypt(
                XNonce::from_slice(&nonce),
                Payload {
                    msg: &sealed,
                    aad: name.as_bytes(),
                },
            )
            .map(Zeroizing::new)
            .map_err(|_| crypto_err(name))
    }
}

impl Workspace {
    /// The workspace's secrets.
    pub fn secrets(&self) -> Secrets<'_> {
        Secrets { ws: self }
    }

    /// The key, loaded once (made when `create` and there is none).
    pub(crate) fn secrets_key(&self, create: bool) -> Result<SecretKey> {
        let mut slot = self.secrets_key.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(k) = slot.as_ref() {
            return Ok(k.clone());
        }
        let loaded = match self.location() {
            None => Some(key::load(None, false)?.unwrap_or_else(key::random)),
            Some(path) => key::load(Some(path), create)?,
        };
        let Some(k) = loaded else {
            return Err(FsError::custom(
                Errno::EPERM,
                "secrets",
                format!(
                    "no secrets key: neither {KEY_ENV} nor {} exists",
                    key_path(self.location().expect("a file workspace")).display()
                ),
            ));
        };
        *slot = Some(k.clone());
        Ok(k)
    }
}

#[cfg(test)]
mod tests;
