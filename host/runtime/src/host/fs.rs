//! `computer:workspace/fs` for guests, on top of the workspace store.

use computer_store as store;

use crate::bindings::fs::{
    self, EditResult, FindEntry, FsError, GrepMatch, GrepOptions, NodeKind, NodeStat, TextEdit,
    WriteOptions,
};
use crate::durable::calls as durable_calls;
use crate::run::state::RunState;

type FsResult<T> = wasmtime::Result<Result<T, FsError>>;

fn edit_result(r: store::EditResult) -> EditResult {
    EditResult {
        diff: r.diff,
        applied: r.applied as u32,
    }
}

/// The journal row of a committed edit, built from the store's result.
fn edit_ok() -> store::ResultEncoder {
    Box::new(|out: &dyn std::any::Any| {
        let r = out
            .downcast_ref::<store::EditResult>()
            .expect("the edit transaction returns an EditResult")
            .clone();
        durable_calls::encode(&Ok::<EditResult, FsError>(edit_result(r)))
    })
}

fn batch_args(batch: &[store::TextEdit]) -> Vec<(&str, &str)> {
    batch
        .iter()
        .map(|e| (e.old.as_str(), e.new.as_str()))
        .collect()
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

fn too_large_to_read(path: &str, memory_limit: usize) -> FsError {
    FsError {
        code: fs::ErrorCode::Efbig,
        path: path.to_owned(),
        message: format!(
            "file too large to read whole: {path}: it needs more than the run's memory \
             limit ({} MiB) leaves; read it in ranges (offset and length) or raise the limit",
            memory_limit >> 20
        ),
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
        // Never more than the guest could still take in: a read of a 1.5 GiB
        // file under a 256 MiB limit fails with EFBIG before the host holds it.
        let room = self.limiter.room().max(1) as u64;
        let bounded = Some(length.unwrap_or(u64::MAX).min(room + 1));
        let read = self.fs_read_bytes("read", &(&path, offset, length), |ws| {
            Ok(ws.read_range_pieces(&path, offset.unwrap_or(0), bounded)?)
        })?;
        Ok(read.and_then(|data| {
            if data.len() as u64 > room {
                return Err(too_large_to_read(&path, self.limiter.max_memory));
            }
            Ok(data)
        }))
    }

    fn write(&mut self, path: String, data: Vec<u8>, options: WriteOptions) -> FsResult<()> {
        let opts = store::WriteOptions {
            mode: options.mode,
            exclusive: options.exclusive,
            create_parents: options.create_parents,
        };
        self.fs_mutate(
            "write",
            &(&path, &options),
            &data,
            durable_calls::unit_ok(),
            |ws| Ok(ws.write(&path, &data, &opts)?),
        )
    }

    fn append(&mut self, path: String, data: Vec<u8>) -> FsResult<()> {
        self.fs_mutate("append", &path, &data, durable_calls::unit_ok(), |ws| {
            Ok(ws.append(&path, &data)?)
        })
    }

    fn truncate(&mut self, path: String, size: u64) -> FsResult<()> {
        self.fs_mutate(
            "truncate",
            &(&path, size),
            &[],
            durable_calls::unit_ok(),
            |ws| Ok(ws.truncate(&path, size)?),
        )
    }

    fn mkdir(&mut self, path: String, recursive: bool, mode: Option<u32>) -> FsResult<()> {
        self.fs_mutate(
            "mkdir",
            &(&path, recursive, mode),
            &[],
            durable_calls::unit_ok(),
            |ws| Ok(ws.mkdir(&path, &store::MkdirOptions { recursive, mode })?),
        )
    }

    fn rm(&mut self, path: String, recursive: bool, force: bool) -> FsResult<()> {
        self.fs_mutate(
            "rm",
            &(&path, recursive, force),
            &[],
            durable_calls::unit_ok(),
            |ws| Ok(ws.rm(&path, store::RmOptions { recursive, force })?),
        )
    }

    fn rename(&mut self, from: String, to: String) -> FsResult<()> {
        self.fs_mutate(
            "rename",
            &(&from, &to),
            &[],
            durable_calls::unit_ok(),
            |ws| Ok(ws.rename(&from, &to)?),
        )
    }

    fn copy(&mut self, from: String, to: String, recursive: bool) -> FsResult<()> {
        self.fs_mutate(
            "copy",
            &(&from, &to, recursive),
            &[],
            durable_calls::unit_ok(),
            |ws| Ok(ws.copy(&from, &to, recursive)?),
        )
    }

    fn stat(&mut self, path: String) -> FsResult<NodeStat> {
        self.fs_read("stat", &path, |ws| Ok(stat(ws.stat(&path)?)))
    }

    fn lstat(&mut self, path: String) -> FsResult<NodeStat> {
        self.fs_read("lstat", &path, |ws| Ok(stat(ws.lstat(&path)?)))
    }

    fn readdir(
        &mut self,
        path: String,
        offset: u32,
        limit: Option<u32>,
    ) -> FsResult<Vec<NodeStat>> {
        self.fs_read("readdir", &(&path, offset, limit), |ws| {
            let entries = ws.readdir(&path, page(offset, limit))?;
            Ok(entries.into_iter().map(stat).collect())
        })
    }

    fn symlink(&mut self, target: String, path: String) -> FsResult<()> {
        self.fs_mutate(
            "symlink",
            &(&target, &path),
            &[],
            durable_calls::unit_ok(),
            |ws| Ok(ws.symlink(&target, &path)?),
        )
    }

    fn link(&mut self, existing: String, new: String) -> FsResult<()> {
        self.fs_mutate(
            "link",
            &(&existing, &new),
            &[],
            durable_calls::unit_ok(),
            |ws| Ok(ws.link(&existing, &new)?),
        )
    }

    fn readlink(&mut self, path: String) -> FsResult<String> {
        self.fs_read("readlink", &path, |ws| Ok(ws.readlink(&path)?))
    }

    fn chmod(&mut self, path: String, mode: u32) -> FsResult<()> {
        self.fs_mutate(
            "chmod",
            &(&path, mode),
            &[],
            durable_calls::unit_ok(),
            |ws| Ok(ws.chmod(&path, mode)?),
        )
    }

    fn set_mtime(&mut self, path: String, mtime_ns: u64) -> FsResult<()> {
        self.fs_mutate(
            "set-mtime",
            &(&path, mtime_ns),
            &[],
            durable_calls::unit_ok(),
            |ws| Ok(ws.set_mtime(&path, mtime_ns)?),
        )
    }

    fn realpath(&mut self, path: String) -> FsResult<String> {
        self.fs_read("realpath", &path, |ws| Ok(ws.realpath(&path)?))
    }

    fn find(
        &mut self,
        dir: String,
        pattern: String,
        offset: u32,
        limit: Option<u32>,
    ) -> FsResult<Vec<FindEntry>> {
        self.fs_read("find", &(&dir, &pattern, offset, limit), |ws| {
            let found = ws.find(&dir, &pattern, page(offset, limit))?;
            Ok(found
                .entries
                .into_iter()
                .map(|e| FindEntry {
                    path: e.path,
                    kind: kind(e.kind),
                })
                .collect())
        })
    }

    fn grep(
        &mut self,
        dir: String,
        query: String,
        options: GrepOptions,
    ) -> FsResult<Vec<GrepMatch>> {
        let args = (&dir, &query, &options);
        let hash_args = crate::durable::calls::encode(&args);
        let opts = store::GrepOptions {
            regex: options.regex,
            ignore_case: options.ignore_case,
            context: options.context,
            include: options.include,
            page: page(options.offset, options.limit),
        };
        self.fs_read("grep", &hash_args, |ws| {
            let found = ws.grep(&dir, &query, &opts)?;
            Ok(found
                .matches
                .into_iter()
                .map(|m| GrepMatch {
                    path: m.path,
                    line_number: m.line_number.min(u32::MAX as u64) as u32,
                    line: m.line,
                    before: m.before,
                    after: m.after,
                })
                .collect())
        })
    }

    fn edit(&mut self, path: String, edits: Vec<TextEdit>) -> FsResult<EditResult> {
        let batch: Vec<store::TextEdit> = edits
            .into_iter()
            .map(|e| store::TextEdit {
                old: e.old,
                new: e.new,
            })
            .collect();
        let hash_args = durable_calls::encode(&(&path, &batch_args(&batch)));
        self.fs_mutate("edit", &hash_args, &[], edit_ok(), |ws| {
            Ok(edit_result(ws.edit(&path, &batch)?))
        })
    }

    fn rev(&mut self) -> FsResult<u64> {
        self.fs_read("rev", &(), |ws| Ok(ws.rev()?))
    }
}
