//! `computer:workspace/fs` for guests, on top of the workspace store.

use computer_store as store;

use crate::bindings::fs::{
    self, EditResult, ErrorCode, FindEntry, FsError, GrepMatch, GrepOptions, NodeKind, NodeStat,
    TextEdit, WriteOptions,
};
use crate::state::RunState;

type FsResult<T> = wasmtime::Result<Result<T, FsError>>;

fn code(e: store::Errno) -> ErrorCode {
    use store::Errno as E;
    match e {
        E::ENOENT => ErrorCode::Enoent,
        E::EEXIST => ErrorCode::Eexist,
        E::ENOTDIR => ErrorCode::Enotdir,
        E::EISDIR => ErrorCode::Eisdir,
        E::ENOTEMPTY => ErrorCode::Enotempty,
        E::EINVAL => ErrorCode::Einval,
        E::ELOOP => ErrorCode::Eloop,
        E::EROFS => ErrorCode::Erofs,
        E::EPERM => ErrorCode::Eperm,
        E::EFBIG => ErrorCode::Efbig,
        E::ENAMETOOLONG => ErrorCode::Enametoolong,
        E::EIO => ErrorCode::Eio,
    }
}

fn err(e: store::FsError) -> FsError {
    FsError {
        code: code(e.code),
        path: e.path,
        message: e.message,
    }
}

/// Store errors are the guest's to handle; nothing here traps.
fn wrap<T>(r: store::Result<T>) -> FsResult<T> {
    Ok(r.map_err(err))
}

fn kind(k: store::NodeKind) -> NodeKind {
    match k {
        store::NodeKind::File => NodeKind::File,
        store::NodeKind::Directory => NodeKind::Directory,
        store::NodeKind::Symlink => NodeKind::Symlink,
    }
}

fn stat(s: store::Stat) -> NodeStat {
    NodeStat {
        name: s.name,
        kind: kind(s.kind),
        mode: s.mode,
        size: s.size,
        mtime_ns: s.mtime_ns,
        ino: s.ino,
    }
}

fn page(offset: u32, limit: Option<u32>) -> store::Page {
    store::Page::new(offset as u64, limit.map(u64::from))
}

impl fs::Host for RunState {
    fn read(
        &mut self,
        path: String,
        offset: Option<u64>,
        length: Option<u64>,
    ) -> FsResult<Vec<u8>> {
        wrap(
            self.workspace
                .read_range(&path, offset.unwrap_or(0), length),
        )
    }

    fn write(&mut self, path: String, data: Vec<u8>, options: WriteOptions) -> FsResult<()> {
        let opts = store::WriteOptions {
            mode: options.mode,
            exclusive: options.exclusive,
            create_parents: options.create_parents,
        };
        wrap(self.workspace.write(&path, &data, &opts))
    }

    fn append(&mut self, path: String, data: Vec<u8>) -> FsResult<()> {
        wrap(self.workspace.append(&path, &data))
    }

    fn truncate(&mut self, path: String, size: u64) -> FsResult<()> {
        wrap(self.workspace.truncate(&path, size))
    }

    fn mkdir(&mut self, path: String, recursive: bool, mode: Option<u32>) -> FsResult<()> {
        wrap(
            self.workspace
                .mkdir(&path, &store::MkdirOptions { recursive, mode }),
        )
    }

    fn rm(&mut self, path: String, recursive: bool, force: bool) -> FsResult<()> {
        wrap(
            self.workspace
                .rm(&path, store::RmOptions { recursive, force }),
        )
    }

    fn rename(&mut self, from: String, to: String) -> FsResult<()> {
        wrap(self.workspace.rename(&from, &to))
    }

    fn copy(&mut self, from: String, to: String, recursive: bool) -> FsResult<()> {
        wrap(self.workspace.copy(&from, &to, recursive))
    }

    fn stat(&mut self, path: String) -> FsResult<NodeStat> {
        wrap(self.workspace.stat(&path).map(stat))
    }

    fn lstat(&mut self, path: String) -> FsResult<NodeStat> {
        wrap(self.workspace.lstat(&path).map(stat))
    }

    fn readdir(
        &mut self,
        path: String,
        offset: u32,
        limit: Option<u32>,
    ) -> FsResult<Vec<NodeStat>> {
        wrap(
            self.workspace
                .readdir(&path, page(offset, limit))
                .map(|v| v.into_iter().map(stat).collect()),
        )
    }

    fn symlink(&mut self, target: String, path: String) -> FsResult<()> {
        wrap(self.workspace.symlink(&target, &path))
    }

    fn readlink(&mut self, path: String) -> FsResult<String> {
        wrap(self.workspace.readlink(&path))
    }

    fn chmod(&mut self, path: String, mode: u32) -> FsResult<()> {
        wrap(self.workspace.chmod(&path, mode))
    }

    fn set_mtime(&mut self, path: String, mtime_ns: u64) -> FsResult<()> {
        wrap(self.workspace.set_mtime(&path, mtime_ns))
    }

    fn realpath(&mut self, path: String) -> FsResult<String> {
        wrap(self.workspace.realpath(&path))
    }

    fn find(
        &mut self,
        dir: String,
        pattern: String,
        offset: u32,
        limit: Option<u32>,
    ) -> FsResult<Vec<FindEntry>> {
        wrap(
            self.workspace
                .find(&dir, &pattern, page(offset, limit))
                .map(|p| {
                    p.entries
                        .into_iter()
                        .map(|e| FindEntry {
                            path: e.path,
                            kind: kind(e.kind),
                        })
                        .collect()
                }),
        )
    }

    fn grep(
        &mut self,
        dir: String,
        query: String,
        options: GrepOptions,
    ) -> FsResult<Vec<GrepMatch>> {
        let opts = store::GrepOptions {
            regex: options.regex,
            ignore_case: options.ignore_case,
            context: options.context,
            include: options.include,
            page: page(options.offset, options.limit),
        };
        wrap(self.workspace.grep(&dir, &query, &opts).map(|p| {
            p.matches
                .into_iter()
                .map(|m| GrepMatch {
                    path: m.path,
                    line_number: m.line_number.min(u32::MAX as u64) as u32,
                    line: m.line,
                    before: m.before,
                    after: m.after,
                })
                .collect()
        }))
    }

    fn edit(&mut self, path: String, edits: Vec<TextEdit>) -> FsResult<EditResult> {
        let batch: Vec<store::TextEdit> = edits
            .into_iter()
            .map(|e| store::TextEdit {
                old: e.old,
                new: e.new,
            })
            .collect();
        wrap(self.workspace.edit(&path, &batch).map(|r| EditResult {
            diff: r.diff,
            applied: r.applied as u32,
        }))
    }

    fn rev(&mut self) -> FsResult<u64> {
        wrap(self.workspace.rev())
    }
}
