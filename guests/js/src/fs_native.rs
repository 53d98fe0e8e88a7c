//! `native.fs`: the WIT `computer:workspace/fs` calls as JS functions. Paths arrive
//! absolute (the JS side resolves them against `process.cwd()`). A failure throws a
//! plain `{ code, path, message }` object that `js/fs.js` turns into a Node-style error
//! (with `errno` and `syscall`), so the Error's stack is captured in JS.

use rquickjs::function::Opt;
use rquickjs::{Array, ArrayBuffer, Ctx, Object, Result, Value};

use crate::computer::workspace::fs::{self, ErrorCode, FsError, NodeKind, NodeStat, WriteOptions};
use crate::natives::{self, bytes_of, set_fn};
use crate::state::Shared;

pub fn code_name(code: ErrorCode) -> &'static str {
    match code {
        ErrorCode::Enoent => "ENOENT",
        ErrorCode::Eexist => "EEXIST",
        ErrorCode::Enotdir => "ENOTDIR",
        ErrorCode::Eisdir => "EISDIR",
        ErrorCode::Enotempty => "ENOTEMPTY",
        ErrorCode::Einval => "EINVAL",
        ErrorCode::Eloop => "ELOOP",
        ErrorCode::Erofs => "EROFS",
        ErrorCode::Eperm => "EPERM",
        ErrorCode::Efbig => "EFBIG",
        ErrorCode::Enametoolong => "ENAMETOOLONG",
        ErrorCode::Eacces => "EACCES",
        ErrorCode::Eio => "EIO",
        ErrorCode::Enospc => "ENOSPC",
        ErrorCode::Ebusy => "EBUSY",
        ErrorCode::Eilseq => "EILSEQ",
    }
}

/// Throw `err` as `{ code, path, message }`.
pub fn throw(ctx: &Ctx<'_>, err: FsError) -> rquickjs::Error {
    let thrown = (|| -> Result<Value<'_>> {
        let obj = Object::new(ctx.clone())?;
        obj.set("code", code_name(err.code))?;
        obj.set("path", err.path)?;
        obj.set("message", err.message)?;
        obj.set("fsError", true)?;
        Ok(obj.into_value())
    })();
    match thrown {
        Ok(value) => ctx.throw(value),
        Err(e) => e,
    }
}

fn check<T>(ctx: &Ctx<'_>, result: std::result::Result<T, FsError>) -> Result<T> {
    result.map_err(|e| throw(ctx, e))
}

/// Where a program expects a scratch directory (`os.tmpdir()`), and its mode.
const TMP: &str = "/tmp";
const TMP_MODE: u32 = 0o1777;

/// Run `op` on `path`; if it failed because the workspace has no `/tmp` yet (a fresh
/// workspace has none: the shell shows one it only makes on its first write there),
/// make `/tmp` and try once more, so `/tmp` exists for scripts as it does for the
/// shell and the commands it calls. `whole_tree`: whether paths below `/tmp` count,
/// or only `/tmp` itself (a failed read below a missing `/tmp` need not make it).
fn with_tmp<T>(
    path: &str,
    whole_tree: bool,
    op: impl Fn() -> std::result::Result<T, FsError>,
) -> std::result::Result<T, FsError> {
    let result = op();
    let in_tmp =
        path == TMP || (whole_tree && path.strip_prefix(TMP).is_some_and(|r| r.starts_with('/')));
    match result {
        Err(e) if matches!(e.code, ErrorCode::Enoent) && in_tmp && make_tmp() => op(),
        other => other,
    }
}

/// Make `/tmp` if the workspace lacks it; whether it was made.
fn make_tmp() -> bool {
    matches!(
        fs::lstat(TMP),
        Err(FsError {
            code: ErrorCode::Enoent,
            ..
        })
    ) && fs::mkdir(TMP, false, Some(TMP_MODE)).is_ok()
}

/// Read a whole file. The host refuses (`EFBIG`) a file larger than this run's memory
/// could still hold, so the script gets an error it can catch rather than a run that
/// dies of its memory limit halfway through reading.
pub fn read_all(path: &str) -> std::result::Result<Vec<u8>, FsError> {
    fs::read(path, None, None)
}

pub fn kind_name(kind: NodeKind) -> &'static str {
    match kind {
        NodeKind::File => "file",
        NodeKind::Directory => "directory",
        NodeKind::Symlink => "symlink",
    }
}

fn stat_object<'js>(ctx: &Ctx<'js>, st: NodeStat) -> Result<Object<'js>> {
    let obj = Object::new(ctx.clone())?;
    obj.set("kind", kind_name(st.kind))?;
    obj.set("mode", st.mode)?;
    obj.set("size", st.size as f64)?;
    obj.set("mtimeNs", st.mtime_ns as f64)?;
    obj.set("ino", st.ino as f64)?;
    Ok(obj)
}

/// Fail with a Node-style ENOENT/ENOTDIR unless `path` is a directory (for `chdir`).
pub fn require_directory(ctx: &Ctx<'_>, path: &str) -> Result<()> {
    let st = check(ctx, fs::stat(path))?;
    if st.kind != NodeKind::Directory {
        return Err(throw(
            ctx,
            FsError {
                code: ErrorCode::Enotdir,
                path: path.to_string(),
                message: format!("not a directory: {path}"),
            },
        ));
    }
    Ok(())
}

pub fn create<'js>(ctx: &Ctx<'js>, state: &Shared) -> Result<Object<'js>> {
    let obj = Object::new(ctx.clone())?;
    add_reads(&obj, state)?;
    add_mutations(&obj)?;
    add_metadata(&obj)?;
    add_links_and_attributes(&obj)?;
    Ok(obj)
}

/// `read` (a whole file), `readRange` and `readStdin`.
fn add_reads<'js>(obj: &Object<'js>, state: &Shared) -> Result<()> {
    set_fn(
        obj,
        "read",
        |ctx: Ctx<'js>, path: String| -> Result<ArrayBuffer<'js>> {
            let data = check(&ctx, read_all(&path))?;
            ArrayBuffer::new(ctx, data)
        },
    )?;
    // A byte range, for file descriptors and read streams (`length` absent: to the end).
    set_fn(
        obj,
        "readRange",
        |ctx: Ctx<'js>, path: String, offset: f64, length: Opt<f64>| -> Result<ArrayBuffer<'js>> {
            let length = length.0.map(|n| n.max(0.0) as u64);
            let data = check(&ctx, fs::read(&path, Some(offset.max(0.0) as u64), length))?;
            ArrayBuffer::new(ctx, data)
        },
    )?;
    let s = state.clone();
    set_fn(obj, "readStdin", move |ctx: Ctx<'js>| {
        ArrayBuffer::new(ctx, natives::read_stdin_all(&s))
    })?;
    Ok(())
}

/// `write`, `append`, `truncate`, `mkdir`, `rm`, `rename` and `copy`.
fn add_mutations<'js>(obj: &Object<'js>) -> Result<()> {
    set_fn(
        obj,
        "write",
        |ctx: Ctx<'js>,
         path: String,
         data: Value<'js>,
         mode: Opt<Option<u32>>,
         exclusive: Opt<bool>|
         -> Result<()> {
            let bytes = bytes_of(&ctx, &data)?;
            let options = WriteOptions {
                mode: mode.0.flatten(),
                exclusive: exclusive.0.unwrap_or(false),
                create_parents: false,
            };
            check(
                &ctx,
                with_tmp(&path, true, || fs::write(&path, &bytes, options)),
            )
        },
    )?;
    set_fn(
        obj,
        "append",
        |ctx: Ctx<'js>, path: String, data: Value<'js>| -> Result<()> {
            let bytes = bytes_of(&ctx, &data)?;
            check(&ctx, with_tmp(&path, true, || fs::append(&path, &bytes)))
        },
    )?;
    set_fn(obj, "truncate", |ctx: Ctx<'js>, path: String, size: f64| {
        check(&ctx, fs::truncate(&path, size.max(0.0) as u64))
    })?;
    set_fn(
        obj,
        "mkdir",
        |ctx: Ctx<'js>, path: String, recursive: bool, mode: Opt<Option<u32>>| {
            let mode = mode.0.flatten();
            check(
                &ctx,
                with_tmp(&path, true, || fs::mkdir(&path, recursive, mode)),
            )
        },
    )?;
    set_fn(
        obj,
        "rm",
        |ctx: Ctx<'js>, path: String, recursive: bool, force: bool| {
            check(&ctx, fs::rm(&path, recursive, force))
        },
    )?;
    set_fn(obj, "rename", |ctx: Ctx<'js>, from: String, to: String| {
        check(&ctx, with_tmp(&to, true, || fs::rename(&from, &to)))
    })?;
    set_fn(
        obj,
        "copy",
        |ctx: Ctx<'js>, from: String, to: String, recursive: bool| {
            check(
                &ctx,
                with_tmp(&to, true, || fs::copy(&from, &to, recursive)),
            )
        },
    )?;
    Ok(())
}

/// `stat`, `lstat` and `readdir`.
fn add_metadata<'js>(obj: &Object<'js>) -> Result<()> {
    set_fn(obj, "stat", |ctx: Ctx<'js>, path: String| {
        let st = check(&ctx, with_tmp(&path, false, || fs::stat(&path)))?;
        stat_object(&ctx, st)
    })?;
    set_fn(obj, "lstat", |ctx: Ctx<'js>, path: String| {
        let st = check(&ctx, with_tmp(&path, false, || fs::lstat(&path)))?;
        stat_object(&ctx, st)
    })?;
    // Entries as a flat [name, kind, name, kind, ...] array: one allocation per entry
    // fewer than objects, and readdir is hot.
    set_fn(
        obj,
        "readdir",
        |ctx: Ctx<'js>, path: String| -> Result<Array<'js>> {
            let entries = check(&ctx, with_tmp(&path, false, || fs::readdir(&path, 0, None)))?;
            let out = Array::new(ctx)?;
            for (i, e) in entries.into_iter().enumerate() {
                out.set(2 * i, e.name)?;
                out.set(2 * i + 1, kind_name(e.kind))?;
            }
            Ok(out)
        },
    )?;
    Ok(())
}

/// `symlink`, `link`, `readlink`, `realpath`, `chmod` and `setMtime`.
fn add_links_and_attributes<'js>(obj: &Object<'js>) -> Result<()> {
    set_fn(
        obj,
        "link",
        |ctx: Ctx<'js>, existing: String, new: String| check(&ctx, fs::link(&existing, &new)),
    )?;
    set_fn(
        obj,
        "symlink",
        |ctx: Ctx<'js>, target: String, path: String| {
            check(&ctx, with_tmp(&path, true, || fs::symlink(&target, &path)))
        },
    )?;
    set_fn(obj, "readlink", |ctx: Ctx<'js>, path: String| {
        check(&ctx, fs::readlink(&path))
    })?;
    set_fn(obj, "realpath", |ctx: Ctx<'js>, path: String| {
        check(&ctx, with_tmp(&path, false, || fs::realpath(&path)))
    })?;
    set_fn(obj, "chmod", |ctx: Ctx<'js>, path: String, mode: u32| {
        check(&ctx, fs::chmod(&path, mode))
    })?;
    set_fn(
        obj,
        "setMtime",
        |ctx: Ctx<'js>, path: String, mtime_ms: f64| {
            let ns = (mtime_ms.max(0.0) * 1_000_000.0) as u64;
            check(&ctx, fs::set_mtime(&path, ns))
        },
    )?;
    Ok(())
}
