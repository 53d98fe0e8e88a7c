//! bashkit's `FileSystem` over the workspace: every call goes to the host through
//! `computer:workspace/fs`, so the shell, the JavaScript backend and other runs see
//! the same files at once.
//!
//! Almost nothing is cached: the workspace can change under the script (other runs,
//! tools), and a cache could go stale. A directory listing's entries answer the next
//! `lstat` of each, once, within the command that listed it (see `listing_cache`).
//! The one thing held back is a burst of appends to one file (see `appends`), which
//! bashkit produces 4 KiB at a time when a streaming command writes into a redirected
//! file; it is written before any other operation.
//!
//! Symlinks: the host follows them in every call but `lstat`, `readlink`, `rm`,
//! `rename` and `symlink`, so reads and writes through links just work here. bashkit
//! still puts its `FollowFs` on top, which needs `stat` to describe the link itself
//! (see `stat`); it then resolves links only where this layer reports one, or after
//! an error.
//!
//! The device files, `/dev` and `/tmp` come from `devices`: `/tmp` always appears to
//! exist (an empty, world-writable directory), and is created in the workspace by the
//! first write below it (`with_tmp`), so `mktemp` works everywhere while an unused
//! `/tmp` leaves nothing behind.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use bashkit::{DirEntry, FileSystem, FileSystemExt, FileType, Metadata, async_trait};

use crate::appends::Appends;
use crate::computer::workspace::fs::{self, ErrorCode, FsError, NodeKind, NodeStat, WriteOptions};
use crate::devices::{self, Device, TMP, TMP_MODE};
use crate::fs_errors;
use crate::listing_cache::ListingCache;

/// Bytes asked for per `fs.read`: big files are read in ranges, so no single host call
/// (and no single copy across the component boundary) is larger than this.
const READ_CHUNK: u64 = 4 << 20;
/// The smallest range tried when the host refuses a range as too big (`efbig`).
const MIN_READ_CHUNK: u64 = 64 << 10;

/// The size a directory reports to bashkit.
const DIR_SIZE: u64 = 4096;

pub struct WorkspaceFs {
    appends: Appends,
    listings: ListingCache,
    device_reads: Mutex<DeviceReads>,
}

/// Whole reads of an endless device, tracked across command starts: an input
/// redirection is read before its command starts, so a read since the last start
/// that is followed by a start was that command's stdin.
#[derive(Default)]
struct DeviceReads {
    since_last_start: bool,
    stdin_of_current: bool,
}

impl WorkspaceFs {
    pub fn new() -> WorkspaceFs {
        WorkspaceFs {
            appends: Appends::default(),
            listings: ListingCache::default(),
            device_reads: Mutex::default(),
        }
    }

    fn device_reads(&self) -> std::sync::MutexGuard<'_, DeviceReads> {
        self.device_reads.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A command starts (bashkit's `before_tool` hook): see `appends` and
    /// `DeviceReads`.
    pub fn command_starts(&self) {
        self.appends.command_starts();
        self.listings.forget();
        let mut reads = self.device_reads();
        reads.stdin_of_current = std::mem::take(&mut reads.since_last_start);
    }

    /// Whether the command that just started has, as its stdin, the bounded whole
    /// read of an endless device (`< /dev/zero`): running out of it is not its end.
    pub fn stdin_is_device_prefix(&self) -> bool {
        self.device_reads().stdin_of_current
    }

    /// The held-back appends, for the run to flush on a timer and at its end.
    pub fn appends(&self) -> &Appends {
        &self.appends
    }

    /// Before any other operation: write held-back appends, so the operation sees
    /// them and happens after them.
    fn settle(&self) {
        self.appends.flush();
    }

    /// Before a change to the workspace: listed metadata may no longer hold.
    fn changing(&self) {
        self.listings.forget();
        self.settle();
    }
}

type Result<T> = bashkit::Result<T>;

/// The path as the WIT `fs` wants it: an absolute UTF-8 string without `.` or `..`.
fn wit_path(path: &Path) -> Result<String> {
    let normalized = bashkit::normalize_path(path);
    match normalized.to_str() {
        Some(s) if s.starts_with('/') => Ok(s.to_string()),
        _ => Err(fs_errors::from_code(ErrorCode::Einval)),
    }
}

fn is_under_tmp(path: &str) -> bool {
    path.strip_prefix(TMP)
        .is_some_and(|rest| rest.starts_with('/'))
}

fn to_time(ns: u64) -> SystemTime {
    UNIX_EPOCH + Duration::from_nanos(ns)
}

pub(crate) fn metadata(stat: &NodeStat) -> Metadata {
    let file_type = match stat.kind {
        NodeKind::File => FileType::File,
        NodeKind::Directory => FileType::Directory,
        NodeKind::Symlink => FileType::Symlink,
    };
    // A directory has the size of its first block, as on ext4, so `[[ -s dir ]]`
    // (bashkit's `[[` tests the size) holds as in bash.
    let size = match stat.kind {
        NodeKind::Directory => stat.size.max(DIR_SIZE),
        _ => stat.size,
    };
    Metadata {
        file_type,
        size,
        mode: stat.mode,
        modified: to_time(stat.mtime_ns),
        created: to_time(stat.mtime_ns),
    }
}

/// Run a mutation of `path`; if it failed because a directory the guest makes up
/// (`/tmp`, or `/usr/bin` and `/bin` of the command stubs) does not exist in the
/// workspace yet, create it for real and try once more. (`mkdir -p /usr/bin` sees
/// the made-up one and does nothing, so the first write below it lands here.)
pub(crate) fn with_tmp<T>(
    path: &str,
    op: impl Fn() -> std::result::Result<T, FsError>,
) -> Result<T> {
    match op() {
        Err(e) if fs_errors::is_not_found(&e) && is_under_tmp(path) && create_tmp() => {
            op().map_err(fs_errors::convert)
        }
        Err(e) if fs_errors::is_not_found(&e) && create_bin_dir(path) => {
            op().map_err(fs_errors::convert)
        }
        other => other.map_err(fs_errors::convert),
    }
}

/// Create the made-up stub directory `path` is directly in, if the workspace lacks
/// it; whether it was created.
fn create_bin_dir(path: &str) -> bool {
    let parent = match path.rsplit_once('/') {
        Some(("", _)) | None => return false,
        Some((parent, _)) => parent,
    };
    crate::bin_stubs::is_dir(parent)
        && matches!(fs::lstat(parent), Err(e) if fs_errors::is_not_found(&e))
        && fs::mkdir(parent, true, None).is_ok()
}

/// Create `/tmp` if it is missing; whether it was created.
fn create_tmp() -> bool {
    match fs::lstat(TMP) {
        Err(e) if fs_errors::is_not_found(&e) => fs::mkdir(TMP, false, Some(TMP_MODE)).is_ok(),
        _ => false,
    }
}

/// Whether `path` is a command stub the workspace does not shadow.
fn is_stub(path: &str) -> bool {
    crate::bin_stubs::command_at(path).is_some()
        && matches!(fs::lstat(path), Err(e) if fs_errors::is_not_found(&e))
}

/// Read a whole file in ranges of at most `READ_CHUNK` bytes.
fn read_all(path: &str) -> Result<Vec<u8>> {
    let mut chunk = READ_CHUNK;
    let first = loop {
        match fs::read(path, Some(0), Some(chunk)) {
            Ok(bytes) => break bytes,
            Err(e) if e.code == ErrorCode::Efbig && chunk > MIN_READ_CHUNK => chunk /= 2,
            Err(e) => return Err(fs_errors::convert(e)),
        }
    };
    if (first.len() as u64) < chunk {
        return Ok(first);
    }
    // A big file: size the buffer once, then append the following ranges. The file
    // may change meanwhile; reading goes on to the first short range either way.
    let size = fs::stat(path).map(|s| s.size).unwrap_or(0);
    let mut out = Vec::new();
    out.try_reserve_exact(size.max(first.len() as u64) as usize)
        .map_err(|_| fs_errors::out_of_memory())?;
    out.extend_from_slice(&first);
    drop(first);
    loop {
        let bytes =
            fs::read(path, Some(out.len() as u64), Some(chunk)).map_err(fs_errors::convert)?;
        let short = (bytes.len() as u64) < chunk;
        out.extend_from_slice(&bytes);
        if short {
            return Ok(out);
        }
    }
}

/// A respelled `[[ ]]` test (`cond_tests`) is asked as an `-e`: true is a file
/// that exists, false one that does not.
fn cond_answer(answer: bool) -> Result<Metadata> {
    if !answer {
        return Err(fs_errors::from_code(ErrorCode::Enoent));
    }
    Ok(metadata(&NodeStat {
        name: String::new(),
        kind: NodeKind::File,
        mode: 0o644,
        size: 0,
        mtime_ns: 0,
        ino: 0,
    }))
}

#[async_trait]
impl FileSystemExt for WorkspaceFs {
    fn backend_kind(&self) -> &'static str {
        "computer-workspace"
    }
}

#[async_trait]
impl FileSystem for WorkspaceFs {
    async fn read_file(&self, path: &Path) -> Result<Vec<u8>> {
        let p = wit_path(path)?;
        if let Some(device) = Device::at(&p) {
            if device.is_endless() {
                self.device_reads().since_last_start = true;
            }
            return Ok(device.read());
        }
        self.settle();
        match read_all(&p) {
            Err(_) if is_stub(&p) => {
                let name = crate::bin_stubs::command_at(&p).unwrap_or_default();
                Ok(crate::bin_stubs::content(name))
            }
            other => other,
        }
    }

    async fn write_file(&self, path: &Path, content: &[u8]) -> Result<()> {
        let p = wit_path(path)?;
        if Device::at(&p).is_some() {
            return Ok(());
        }
        self.changing();
        let options = WriteOptions {
            mode: None,
            exclusive: false,
            create_parents: false,
        };
        with_tmp(&p, || fs::write(&p, content, options))
    }

    async fn append_file(&self, path: &Path, content: &[u8]) -> Result<()> {
        let p = wit_path(path)?;
        if Device::at(&p).is_some() {
            return Ok(());
        }
        self.listings.forget();
        self.appends.append(&p, content)
    }

    async fn mkdir(&self, path: &Path, recursive: bool) -> Result<()> {
        let p = wit_path(path)?;
        self.changing();
        if p == TMP {
            return fs::mkdir(&p, recursive, Some(TMP_MODE)).map_err(fs_errors::convert);
        }
        with_tmp(&p, || fs::mkdir(&p, recursive, None))
    }

    async fn remove(&self, path: &Path, recursive: bool) -> Result<()> {
        let p = wit_path(path)?;
        self.changing();
        fs::rm(&p, recursive, false).map_err(fs_errors::convert)
    }

    // `stat` does not follow a symlink at the end: bashkit's layers above (`MountableFs`,
    // then `FollowFs`, which resolves links) expect inner layers to answer `lstat`
    // through `stat`, and `MountableFs` forwards nothing else.
    async fn stat(&self, path: &Path) -> Result<Metadata> {
        self.lstat(path).await
    }

    async fn lstat(&self, path: &Path) -> Result<Metadata> {
        let p = wit_path(path)?;
        if let Some(answer) = crate::cond_tests::answer(&p) {
            return cond_answer(answer);
        }
        if let Some(answer) = self.appends.lstat(&p) {
            return answer;
        }
        if let Some(listed) = self.listings.take(&p) {
            return Ok(metadata(&listed));
        }
        self.settle();
        devices::stat(&p, false)
            .map(|s| metadata(&s))
            .map_err(fs_errors::convert)
    }

    async fn read_dir(&self, path: &Path) -> Result<Vec<DirEntry>> {
        let p = wit_path(path)?;
        self.settle();
        let entries = devices::readdir(&p).map_err(fs_errors::convert)?;
        if !devices::is_virtual(&p) && !crate::bin_stubs::is_dir(&p) {
            self.listings.listed(&p, &entries);
        }
        Ok(entries
            .iter()
            .map(|s| DirEntry {
                name: s.name.clone(),
                metadata: metadata(s),
            })
            .collect())
    }

    async fn exists(&self, path: &Path) -> Result<bool> {
        let p = wit_path(path)?;
        if let Some(answer) = crate::cond_tests::answer(&p) {
            return Ok(answer);
        }
        if devices::is_virtual(&p) {
            return Ok(true);
        }
        self.settle();
        match devices::stat(&p, false) {
            Ok(_) => Ok(true),
            Err(e) if matches!(e.code, ErrorCode::Enoent | ErrorCode::Enotdir) => Ok(false),
            Err(e) => Err(fs_errors::convert(e)),
        }
    }

    async fn rename(&self, from: &Path, to: &Path) -> Result<()> {
        let (from, to) = (wit_path(from)?, wit_path(to)?);
        self.changing();
        with_tmp(&to, || fs::rename(&from, &to))
    }

    async fn copy(&self, from: &Path, to: &Path) -> Result<()> {
        let (from, to) = (wit_path(from)?, wit_path(to)?);
        if let Some(device) = Device::at(&from) {
            return self.write_file(Path::new(&to), &device.read()).await;
        }
        if Device::at(&to).is_some() {
            return Ok(());
        }
        self.changing();
        with_tmp(&to, || fs::copy(&from, &to, false))
    }

    async fn symlink(&self, target: &Path, link: &Path) -> Result<()> {
        let link = wit_path(link)?;
        // The target is stored verbatim (it may be relative, or dangle).
        let target = target
            .to_str()
            .ok_or_else(|| fs_errors::from_code(ErrorCode::Einval))?;
        self.changing();
        with_tmp(&link, || fs::symlink(target, &link))
    }

    async fn read_link(&self, path: &Path) -> Result<PathBuf> {
        let p = wit_path(path)?;
        self.settle();
        fs::readlink(&p)
            .map(PathBuf::from)
            .map_err(fs_errors::convert)
    }

    async fn chmod(&self, path: &Path, mode: u32) -> Result<()> {
        let p = wit_path(path)?;
        if Device::at(&p).is_some() {
            return Ok(());
        }
        self.changing();
        fs::chmod(&p, mode).map_err(fs_errors::convert)
    }

    async fn set_modified_time(&self, path: &Path, time: SystemTime) -> Result<()> {
        let p = wit_path(path)?;
        if Device::at(&p).is_some() {
            return Ok(());
        }
        self.changing();
        let ns = time
            .duration_since(UNIX_EPOCH)
            .map(|d| u64::try_from(d.as_nanos()).unwrap_or(u64::MAX))
            .unwrap_or(0);
        fs::set_mtime(&p, ns).map_err(fs_errors::convert)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tmp_paths() {
        assert!(is_under_tmp("/tmp/x"));
        assert!(!is_under_tmp("/tmp"));
        assert!(!is_under_tmp("/tmpx/y"));
    }
}
