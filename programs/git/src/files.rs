//! What git asks of files that wasi:filesystem cannot answer: permission
//! bits (computer:workspace/fs has them), and the user (process).

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::ffi::{CStr, c_char, c_int, c_uint};
use std::path::{Component, Path, PathBuf};

use crate::computer::workspace::{fs, process};

thread_local! {
    static UMASK: Cell<u32> = const { Cell::new(0o022) };
    /// Permission bits and kinds of the entries of directories read whole
    /// (one `fs.readdir` instead of one `fs.lstat` a file: git `lstat`s
    /// in index order, a directory at a time). A name this process
    /// changes (created, removed, renamed, chmod) is dropped from its
    /// directory's map and asked for by itself after that; everything is
    /// forgotten when a child (hook, editor, subcommand) has run.
    static MODES: RefCell<HashMap<String, Listing>> = RefCell::new(HashMap::new());
}

/// A directory's entries: name -> (permission bits, is a symlink).
type Listing = HashMap<String, (u32, bool)>;

fn split(path: &str) -> (&str, &str) {
    match path.rfind('/') {
        Some(0) => ("/", &path[1..]),
        Some(i) => (&path[..i], &path[i + 1..]),
        None => ("/", path),
    }
}

/// The mode of `path` from its directory's listing, reading the listing
/// the first time; `None` when the listing does not say (a name changed
/// since, a symlink to follow, an unreadable directory).
fn cached_mode(path: &str, follow: bool) -> Option<u32> {
    let (dir, name) = split(path);
    MODES.with_borrow_mut(|all| {
        if !all.contains_key(dir) {
            let listing = fs::readdir(dir, 0, None).ok()?;
            let entries = listing
                .into_iter()
                .map(|e| (e.name, (e.mode, matches!(e.kind, fs::NodeKind::Symlink))))
                .collect();
            all.insert(dir.to_owned(), entries);
        }
        match all.get(dir)?.get(name) {
            Some((_, true)) if follow => None,
            Some((mode, _)) => Some(*mode),
            None => None,
        }
    })
}

/// `path` (as C names it) changes: its directory's listing no longer
/// speaks for it.
#[unsafe(no_mangle)]
pub extern "C" fn computer_git_forget(path: *const c_char) {
    if let Some(path) = absolute(path) {
        let (dir, name) = split(&path);
        MODES.with_borrow_mut(|all| {
            if let Some(entries) = all.get_mut(dir) {
                entries.remove(name);
            }
            // A directory's own listing goes with it (rename, rmdir).
            all.retain(|d, _| !(d == &path || d.starts_with(&format!("{path}/"))));
        });
    }
}

/// A child ran: it may have changed anything.
#[unsafe(no_mangle)]
pub extern "C" fn computer_git_forget_all() {
    MODES.with_borrow_mut(HashMap::clear);
}

/// `path` as the workspace names it: absolute, without `.` and `..`.
fn absolute(path: *const c_char) -> Option<String> {
    let raw = unsafe { CStr::from_ptr(path) }.to_str().ok()?;
    let joined = if raw.starts_with('/') {
        PathBuf::from(raw)
    } else {
        std::env::current_dir().ok()?.join(raw)
    };
    let mut out = PathBuf::from("/");
    for part in Path::new(&joined).components() {
        match part {
            Component::Normal(p) => out.push(p),
            Component::ParentDir => {
                out.pop();
            }
            _ => {}
        }
    }
    out.to_str().map(str::to_owned)
}

/// The permission bits of `path` (following a final symlink when
/// `follow`); 0 on success.
#[unsafe(no_mangle)]
pub extern "C" fn computer_git_mode(
    path: *const c_char,
    follow: c_int,
    mode: *mut c_uint,
) -> c_int {
    let Some(path) = absolute(path) else {
        return -1;
    };
    if let Some(m) = cached_mode(&path, follow != 0) {
        unsafe { *mode = m };
        return 0;
    }
    let stat = if follow != 0 {
        fs::stat(&path)
    } else {
        fs::lstat(&path)
    };
    match stat {
        Ok(s) => {
            unsafe { *mode = s.mode };
            0
        }
        Err(_) => -1,
    }
}

#[unsafe(no_mangle)]
pub extern "C" fn computer_git_chmod(path: *const c_char, mode: c_uint) -> c_int {
    computer_git_forget(path);
    let Some(path) = absolute(path) else {
        return -1;
    };
    match fs::chmod(&path, mode & 0o7777) {
        Ok(()) => 0,
        Err(_) => -1,
    }
}

#[unsafe(no_mangle)]
pub extern "C" fn computer_git_umask_value() -> c_uint {
    UMASK.get()
}

#[unsafe(no_mangle)]
pub extern "C" fn computer_git_umask(mask: c_uint) -> c_uint {
    UMASK.replace(mask & 0o777)
}

/// The process's identity for getuid, getpwuid and getpid; the strings
/// stay valid for the life of the program.
#[repr(C)]
pub struct Identity {
    pub pid: c_int,
    pub ppid: c_int,
    pub uid: c_uint,
    pub gid: c_uint,
    pub user: *const c_char,
    pub group: *const c_char,
}

#[unsafe(no_mangle)]
pub extern "C" fn computer_git_identity() -> *const Identity {
    thread_local! {
        static IDENTITY: &'static Identity = {
            let id = process::get_identity();
            let leak = |s: String| -> *const c_char {
                std::ffi::CString::new(s).unwrap_or_default().into_raw()
            };
            Box::leak(Box::new(Identity {
                pid: id.pid as c_int,
                ppid: id.ppid as c_int,
                uid: id.uid,
                gid: id.gid,
                user: leak(id.user),
                group: leak(id.group),
            }))
        };
    }
    IDENTITY.with(|i| *i as *const Identity)
}

/// Points standard descriptor `fd` at standard stream `stdio` (when >= 0)
/// or at the open file with inode `ino`; 0 on success.
#[unsafe(no_mangle)]
pub extern "C" fn computer_git_redirect(fd: c_int, stdio: c_int, ino: u64) -> c_int {
    let target = if stdio >= 0 {
        process::StdioTarget::Stdio(stdio as u32)
    } else {
        process::StdioTarget::File(ino)
    };
    match process::redirect_stdio(fd as u32, target) {
        Ok(()) => 0,
        Err(_) => -1,
    }
}
