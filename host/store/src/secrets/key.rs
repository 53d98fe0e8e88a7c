//! The key secrets are encrypted with. The host holds it; the workspace
//! file never does:
//! - `COMPUTER_SECRETS_KEY` (64 hex digits), when set, is the key;
//! - else the file beside the workspace, `<workspace>.secrets-key`
//!   (32 random bytes, mode 0600, made by the first `secrets set`);
//! - an in-memory workspace makes a random key that lives as long as it.
//!
//! Guests never see either: the sandbox's environment is built by the
//! runtime (not inherited), and its files live inside the workspace.

use std::io::Write;
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

use chacha20poly1305::aead::{KeyInit, OsRng};
use chacha20poly1305::{Key, XChaCha20Poly1305};
use zeroize::Zeroizing;

use crate::error::{Errno, FsError, Result};

/// The environment variable that, when set, holds the key (hex).
pub const KEY_ENV: &str = "COMPUTER_SECRETS_KEY";

pub(crate) type SecretKey = Zeroizing<[u8; 32]>;

/// The key file of the workspace at `db`.
pub fn key_path(db: &Path) -> PathBuf {
    let mut s = db.as_os_str().to_owned();
    s.push(".secrets-key");
    PathBuf::from(s)
}

fn err(message: String) -> FsError {
    FsError::custom(Errno::EPERM, "secrets", message)
}

fn from_env() -> Result<Option<SecretKey>> {
    let Ok(hex) = std::env::var(KEY_ENV) else {
        return Ok(None);
    };
    let hex = hex.trim();
    let bad = || {
        err(format!(
            "{KEY_ENV} must be 64 hexadecimal digits (32 bytes)"
        ))
    };
    if hex.len() != 64 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(bad());
    }
    let mut key = Zeroizing::new([0u8; 32]);
    for (i, byte) in key.iter_mut().enumerate() {
        *byte = u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).map_err(|_| bad())?;
    }
    Ok(Some(key))
}

fn read_file(path: &Path) -> Result<Option<SecretKey>> {
    let meta = match std::fs::metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(err(format!("cannot read {}: {e}", path.display()))),
    };
    if meta.permissions().mode() & 0o077 != 0 {
        return Err(err(format!(
            "{} can be read by other users; make it private with: chmod 600 {}",
            path.display(),
            path.display()
        )));
    }
    let bytes = Zeroizing::new(
        std::fs::read(path).map_err(|e| err(format!("cannot read {}: {e}", path.display())))?,
    );
    let key: [u8; 32] = bytes.as_slice().try_into().map_err(|_| {
        err(format!(
            "{} is not a secrets key (32 bytes); it may be damaged",
            path.display()
        ))
    })?;
    Ok(Some(Zeroizing::new(key)))
}

/// Makes the key file, 0600, all at once: written to a private temporary
/// file and linked into place, so a concurrent maker's key wins whole.
fn create_file(path: &Path) -> Result<SecretKey> {
    let key = XChaCha20Poly1305::generate_key(&mut OsRng);
    let mut bytes = Zeroizing::new([0u8; 32]);
    bytes.copy_from_slice(key.as_slice());
    let tmp = {
        let mut s = path.as_os_str().to_owned();
        s.push(format!(".{}.tmp", std::process::id()));
        PathBuf::from(s)
    };
    let io = |e: std::io::Error| err(format!("cannot make {}: {e}", path.display()));
    let _ = std::fs::remove_file(&tmp);
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(&tmp)
        .map_err(io)?;
    f.write_all(bytes.as_slice())
        .and_then(|()| f.sync_all())
        .map_err(io)?;
    drop(f);
    let linked = std::fs::hard_link(&tmp, path);
    let _ = std::fs::remove_file(&tmp);
    match linked {
        Ok(()) => Ok(bytes),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => read_file(path)?
            .ok_or_else(|| err(format!("{} vanished while it was made", path.display()))),
        Err(e) => Err(io(e)),
    }
}

/// The key for the workspace at `db` (`None`: in memory). `create` makes
/// the key file when there is none; without it a missing file is `None`.
pub(crate) fn load(db: Option<&Path>, create: bool) -> Result<Option<SecretKey>> {
    if let Some(k) = from_env()? {
        return Ok(Some(k));
    }
    let Some(db) = db else {
        return Ok(None);
    };
    let path = key_path(db);
    match read_file(&path)? {
        Some(k) => Ok(Some(k)),
        None if create => create_file(&path).map(Some),
        None => Ok(None),
    }
}

/// A fresh random key (an in-memory workspace's).
pub(crate) fn random() -> SecretKey {
    let key = XChaCha20Poly1305::generate_key(&mut OsRng);
    let mut bytes = Zeroizing::new([0u8; 32]);
    bytes.copy_from_slice(key.as_slice());
    bytes
}

pub(crate) fn cipher(key: &SecretKey) -> XChaCha20Poly1305 {
    XChaCha20Poly1305::new(Key::from_slice(key.as_slice()))
}
