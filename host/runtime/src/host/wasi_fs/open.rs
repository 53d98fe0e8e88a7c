//! `open-at`: path resolution and the create/exclusive/truncate/directory
//! flags.

use std::sync::{Arc, Mutex};

use computer_store::{Errno, WriteOptions};
use wasmtime::component::Resource;
use wasmtime_wasi::filesystem::Descriptor as WasiDescriptor;
use wasmtime_wasi::p2::bindings::sync::filesystem::types::{DescriptorFlags, OpenFlags, PathFlags};

use super::errors::code;
use super::file::{Handle, OpenFile, check_file_kind, lock_file};
use super::tree::{Asker, Kind, Meta, Res, Tree};
use super::{Desc, Node, WasiFs};
use wasmtime_wasi::p2::bindings::filesystem::types::ErrorCode;

/// Whether an error is "it does not exist".
fn is_missing(e: &wasmtime_wasi::p2::FsError) -> bool {
    matches!(e.downcast_ref(), Some(ErrorCode::NoEntry))
}

impl WasiFs {
    pub(crate) fn open_at(
        &mut self,
        fd: &Resource<WasiDescriptor>,
        path_flags: PathFlags,
        path: &str,
        oflags: OpenFlags,
        flags: DescriptorFlags,
    ) -> Res<Resource<WasiDescriptor>> {
        // As wasmtime: synchronous-write flags are not offered (a commit
        // happens at sync or close, never per write).
        if flags.intersects(
            DescriptorFlags::FILE_INTEGRITY_SYNC
                | DescriptorFlags::DATA_INTEGRITY_SYNC
                | DescriptorFlags::REQUESTED_WRITE_SYNC,
        ) {
            return Err(code(ErrorCode::Unsupported));
        }
        let dir = self.dir(fd)?;
        let tree = dir.tree.clone();
        let full = dir.resolve(path)?;
        if let Some(device) = super::devices::Device::at(&tree, &full) {
            let node = Node::Device(super::devices::open(device, oflags, flags)?);
            return Ok(self.push(Desc {
                tree,
                path: full,
                node,
                anchor: None,
            }));
        }
        let follow = path_flags.contains(PathFlags::SYMLINK_FOLLOW);
        let write = flags.contains(DescriptorFlags::WRITE)
            || flags.contains(DescriptorFlags::MUTATE_DIRECTORY);
        let found = match tree.stat_for(&full, follow, Asker::Open) {
            Ok(m) => Some(m),
            Err(e) if is_missing(&e) && super::devices::is_dev_dir(&tree, &full) => {
                Some(super::devices::dev_dir_meta())
            }
            Err(e) if is_missing(&e) => None,
            Err(e) => return Err(e),
        };
        // What another descriptor wrote but did not commit is this file's
        // content too: the checks and a truncation below must see it.
        let shared = match (self.open_file(&tree, &full), &found) {
            // Another name of a hard-linked file may be open already.
            (None, Some(m)) if m.kind == Kind::File && m.nlink > 1 => {
                let other = self.open_file_by_ino(&tree, m.ino)?;
                if let Some(f) = &other {
                    self.note_open_file(&tree, &full, f);
                }
                other
            }
            (by_path, _) => by_path,
        };
        if let Some(f) = &shared {
            lock_file(f).commit()?;
        }
        let found = match (&shared, found) {
            (Some(_), _) => match tree.stat_for(&full, follow, Asker::Open) {
                Ok(m) => Some(m),
                Err(e) if is_missing(&e) => None,
                Err(e) => return Err(e),
            },
            (None, found) => found,
        };
        // "name/" names a directory (a symlink's target, then): a file
        // there is not one (open(2)'s ENOTDIR).
        if let Some(m) = &found
            && path.ends_with('/')
            && m.kind != Kind::Dir
            && !(m.kind == Kind::Symlink
                && tree.stat(&full, true).is_ok_and(|t| t.kind == Kind::Dir))
        {
            return Err(code(ErrorCode::NotDirectory));
        }
        let truncating = oflags.contains(OpenFlags::TRUNCATE);
        let node = match found {
            Some(meta) => open_existing(&tree, &full, meta, oflags, flags, write)?,
            None => create(&tree, &full, oflags, flags)?,
        };
        let node = match (node, shared) {
            (Node::File(own), Some(f)) => {
                if truncating {
                    lock_file(&f).truncated();
                }
                Node::File(Arc::new(Handle {
                    file: f,
                    readable: own.readable,
                    writable: own.writable,
                }))
            }
            (Node::File(own), None) => {
                self.note_open_file(&tree, &full, &own.file);
                Node::File(own)
            }
            (node, _) => node,
        };
        Ok(self.push(Desc {
            tree,
            path: full,
            node,
            anchor: None,
        }))
    }
}

fn open_existing(
    tree: &Tree,
    full: &str,
    meta: Meta,
    oflags: OpenFlags,
    flags: DescriptorFlags,
    write: bool,
) -> Res<Node> {
    if oflags.contains(OpenFlags::CREATE) && oflags.contains(OpenFlags::EXCLUSIVE) {
        return Err(code(ErrorCode::Exist));
    }
    if meta.kind == Kind::Dir {
        if flags.contains(DescriptorFlags::WRITE) || oflags.contains(OpenFlags::TRUNCATE) {
            return Err(code(ErrorCode::IsDirectory));
        }
        return Ok(Node::Dir);
    }
    if oflags.contains(OpenFlags::DIRECTORY) {
        return Err(code(ErrorCode::NotDirectory));
    }
    check_file_kind(meta.kind)?;
    if write || oflags.contains(OpenFlags::TRUNCATE) {
        check_writable(tree, full)?;
    }
    if oflags.contains(OpenFlags::TRUNCATE) {
        if !flags.contains(DescriptorFlags::WRITE) {
            return Err(code(ErrorCode::Access));
        }
        let store = tree.store()?;
        store.mutate("wasi.truncate", full, &[], |ws| ws.truncate(full, 0))?;
        return Ok(file(tree, full, flags, None));
    }
    Ok(file(tree, full, flags, Some(meta)))
}

fn create(tree: &Tree, full: &str, oflags: OpenFlags, flags: DescriptorFlags) -> Res<Node> {
    if !oflags.contains(OpenFlags::CREATE) {
        return Err(code(ErrorCode::NoEntry));
    }
    if oflags.contains(OpenFlags::DIRECTORY) {
        return Err(code(ErrorCode::Invalid));
    }
    let store = tree.store()?;
    let opts = WriteOptions {
        exclusive: true,
        ..WriteOptions::default()
    };
    store.mutate("wasi.create", full, &[], |ws| ws.write(full, &[], &opts))?;
    Ok(file(tree, full, flags, None))
}

fn file(tree: &Tree, full: &str, flags: DescriptorFlags, meta: Option<Meta>) -> Node {
    let read = flags.contains(DescriptorFlags::READ) || !flags.contains(DescriptorFlags::WRITE);
    let write = flags.contains(DescriptorFlags::WRITE);
    let f = OpenFile::new(tree.clone(), full.to_owned(), meta);
    Node::File(Arc::new(Handle {
        file: Arc::new(Mutex::new(f)),
        readable: read,
        writable: write,
    }))
}

/// `read-only` for a mount or a path inside a read-only subtree, checked at
/// open so a guest learns it before it writes, not at close.
fn check_writable(tree: &Tree, full: &str) -> Res<()> {
    let store = tree.store()?;
    let blocked = store.read("wasi.readonly", full, |ws| {
        let real = match ws.realpath(full) {
            Ok(r) => r,
            Err(e) if e.code == Errno::ENOENT => return Ok(false),
            Err(e) => return Err(e),
        };
        Ok(ws.readonly_paths()?.iter().any(|ro| {
            ro == "/" || real == *ro || real.starts_with(&format!("{}/", ro.trim_end_matches('/')))
        }))
    })?;
    match blocked {
        true => Err(code(ErrorCode::ReadOnly)),
        false => Ok(()),
    }
}
