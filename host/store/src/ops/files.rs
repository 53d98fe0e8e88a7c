//! Reading and writing file contents.

use std::io::Read;

use rusqlite::Connection;

use crate::clock::now_ns;
use crate::content::{self, ChunkPiece, Patch};
use crate::error::{Errno, FsError, Result};
use crate::path::WsPath;
use crate::tree::{self, Chain, Lookup, NodeKind};
use crate::types::{EditResult, TextEdit, WriteOptions};
use crate::workspace::{Touch, Workspace, will_change};

/// Default mode of new files.
pub const DEFAULT_FILE_MODE: u32 = 0o644;

/// Where a write lands: an existing file, or a new entry in a directory.
enum Target {
    Existing(Chain),
    New { parent: Chain, name: String },
}

impl Workspace {
    /// Reads a whole file.
    pub fn read(&self, path: &str) -> Result<Vec<u8>> {
        self.read_range(path, 0, None)
    }

    /// Reads `length` bytes (or to EOF) from `offset`, clamped at EOF.
    pub fn read_range(&self, path: &str, offset: u64, length: Option<u64>) -> Result<Vec<u8>> {
        self.audited(
            "read",
            path,
            || Some(serde_json::json!({"offset": offset, "length": length})),
            || {
                let p = WsPath::parse(path)?;
                self.read_tx(|c| {
                    let chain = file_chain(c, &p)?;
                    let node = &chain.steps[chain.steps.len() - 1].node;
                    content::read_range(c, node.id, node.size, offset, length)
                })
            },
        )
    }

    /// As [`read_range`](Self::read_range), also returning the chunk pieces
    /// the bytes came from, so a journal can keep those instead of a copy
    /// (see [`read_pieces`](Self::read_pieces)).
    pub fn read_range_pieces(
        &self,
        path: &str,
        offset: u64,
        length: Option<u64>,
    ) -> Result<(Vec<u8>, Vec<ChunkPiece>)> {
        self.audited(
            "read",
            path,
            || Some(serde_json::json!({"offset": offset, "length": length})),
            || {
                let p = WsPath::parse(path)?;
                self.read_tx(|c| {
                    let chain = file_chain(c, &p)?;
                    let node = &chain.steps[chain.steps.len() - 1].node;
                    content::read_range_pieces(c, node.id, node.size, offset, length)
                })
            },
        )
    }

    /// The bytes of chunk pieces [`read_range_pieces`](Self::read_range_pieces)
    /// returned, while their chunks still exist (a journal pins them).
    pub fn read_pieces(&self, pieces: &[ChunkPiece]) -> Result<Vec<u8>> {
        self.read_tx(|c| content::read_pieces(c, pieces))
    }

    /// Streams a whole file to `sink` chunk by chunk.
    pub fn read_each(&self, path: &str, sink: &mut dyn FnMut(&[u8]) -> Result<()>) -> Result<()> {
        self.audited(
            "read",
            path,
            || None,
            || {
                let p = WsPath::parse(path)?;
                self.read_tx(|c| {
                    let chain = file_chain(c, &p)?;
                    content::for_each_chunk(c, chain.id(), sink)
                })
            },
        )
    }

    /// Writes a whole file.
    pub fn write(&self, path: &str, data: &[u8], opts: &WriteOptions) -> Result<()> {
        // Hashed once, before the transaction; not at all when too big.
        let fits = data.len() as u64 <= self.config.max_file_size;
        let content = content::Hashed::new(if fits { data } else { &[] });
        let summary = || match fits {
            true => crate::audit::summarize_content(&content),
            false => serde_json::json!({"size": data.len()}),
        };
        self.audited("write", path, || Some(serde_json::json!({"data": summary(), "mode": opts.mode, "exclusive": opts.exclusive, "create_parents": opts.create_parents})), || {
            let p = WsPath::parse(path)?;
            let shown = p.to_string();
            self.check_size(&shown, data.len() as u64)?;
            let content = &content;
            self.write_tx(|c| {
                let now = now_ns();
                match self.write_target(c, &p, opts)? {
                    Target::Existing(mut chain) => {
                        will_change(c, &chain.path(), Touch::Node, &shown)?;
                        let n = chain.steps.len();
                        tree::unshare(c, &mut chain, n - 1)?;
                        let step = &chain.steps[n - 1];
                        let mode = opts.mode.unwrap_or(step.node.mode);
                        if step.node.is_shared() {
                            // Shared with a copy: give this path a fresh node
                            // instead of cloning content we are about to replace.
                            let id = tree::insert_node(c, NodeKind::File, mode, now, None)?;
                            tree::keep_ino(c, id, step.node.ino)?;
                            content::fill_new(c, id, content, now)?;
                            tree::repoint(c, step.parent, &step.name, step.node.id, id)?;
                        } else {
                            content::replace(c, step.node.id, content, now)?;
                            if mode != step.node.mode {
                                set_mode(c, step.node.id, mode)?;
                            }
                        }
                        Ok(())
                    }
                    Target::New { mut parent, name } => {
                        will_change(c, &parent.path().join(&name), Touch::Node, &shown)?;
                        tree::unshare_all(c, &mut parent)?;
                        let mode = opts.mode.unwrap_or(DEFAULT_FILE_MODE);
                        let id = tree::insert_node(c, NodeKind::File, mode & 0o7777, now, None)?;
                        tree::link(c, parent.id(), &name, id)?;
                        content::fill_new(c, id, content, now)?;
                        tree::set_mtime(c, parent.id(), now)
                    }
                }
            })
        })
    }

    /// Writes a file from a reader without holding it in memory; returns the size.
    pub fn write_from(
        &self,
        path: &str,
        reader: &mut dyn Read,
        opts: &WriteOptions,
    ) -> Result<u64> {
        self.audited("write", path, || Some(serde_json::json!({"stream": true, "mode": opts.mode, "exclusive": opts.exclusive, "create_parents": opts.create_parents})), || {
            let p = WsPath::parse(path)?;
            let shown = p.to_string();
            let max = self.config.max_file_size;
            self.write_tx(|c| self.write_from_in(c, &p, reader, opts, max, &shown))
        })
    }

    pub(crate) fn write_from_in(
        &self,
        c: &Connection,
        p: &WsPath,
        reader: &mut dyn Read,
        opts: &WriteOptions,
        max: u64,
        shown: &str,
    ) -> Result<u64> {
        let now = now_ns();
        let (parent_id, name, mode, old) = match self.write_target(c, p, opts)? {
            Target::Existing(mut chain) => {
                will_change(c, &chain.path(), Touch::Node, shown)?;
                let n = chain.steps.len();
                tree::unshare(c, &mut chain, n - 1)?;
                let step = &chain.steps[n - 1];
                (
                    step.parent,
                    step.name.clone(),
                    opts.mode.unwrap_or(step.node.mode),
                    Some((step.node.id, step.node.nlink > 1, step.node.ino)),
                )
            }
            Target::New { mut parent, name } => {
                will_change(c, &parent.path().join(&name), Touch::Node, shown)?;
                tree::unshare_all(c, &mut parent)?;
                (
                    parent.id(),
                    name,
                    opts.mode.unwrap_or(DEFAULT_FILE_MODE),
                    None,
                )
            }
        };
        let id = tree::insert_node(c, NodeKind::File, mode & 0o7777, now, None)?;
        let size = content::fill_from_reader(c, id, reader, max, shown, now)?;
        match old {
            // Every name of a hard-linked file must see the new content:
            // it moves into the node they share.
            Some((old, true, _)) => content::adopt(c, id, old)?,
            Some((old, false, ino)) => {
                tree::keep_ino(c, id, ino)?;
                tree::repoint(c, parent_id, &name, old, id)?;
            }
            None => {
                tree::link(c, parent_id, &name, id)?;
                tree::set_mtime(c, parent_id, now)?;
            }
        }
        Ok(size)
    }

    fn write_target(&self, c: &Connection, p: &WsPath, opts: &WriteOptions) -> Result<Target> {
        let shown = p.to_string();
        if p.is_root() || p.trailing_slash() {
            return Err(FsError::new(Errno::EISDIR, shown));
        }
        if opts.create_parents {
            super::mkdir_p(c, &p.parent(), &shown)?;
        }
        // O_EXCL does not follow a symlink in the last component.
        match tree::resolve(c, p, !opts.exclusive)? {
            Lookup::Found(chain) => {
                if opts.exclusive {
                    return Err(FsError::new(Errno::EEXIST, shown));
                }
                match chain.kind() {
                    NodeKind::Directory => Err(FsError::new(Errno::EISDIR, shown)),
                    NodeKind::File => Ok(Target::Existing(chain)),
                    // Unreachable: the last symlink was followed.
                    NodeKind::Symlink => Err(FsError::new(Errno::ELOOP, shown)),
                }
            }
            Lookup::Missing { parent, name } => Ok(Target::New { parent, name }),
        }
    }

    /// Appends to a file, creating it if missing.
    pub fn append(&self, path: &str, data: &[u8]) -> Result<()> {
        self.audited(
            "append",
            path,
            || Some(serde_json::json!({"data": crate::audit::summarize_bytes(data)})),
            || {
                let p = WsPath::parse(path)?;
                let shown = p.to_string();
                self.write_tx(|c| {
                    let now = now_ns();
                    match self.write_target(c, &p, &WriteOptions::default())? {
                        Target::Existing(mut chain) => {
                            will_change(c, &chain.path(), Touch::Node, &shown)?;
                            tree::unshare_all(c, &mut chain)?;
                            let node = &chain.steps[chain.steps.len() - 1].node;
                            self.check_size(&shown, node.size.saturating_add(data.len() as u64))?;
                            content::append(c, node.id, node.size, data, now)?;
                            Ok(())
                        }
                        Target::New { mut parent, name } => {
                            self.check_size(&shown, data.len() as u64)?;
                            will_change(c, &parent.path().join(&name), Touch::Node, &shown)?;
                            tree::unshare_all(c, &mut parent)?;
                            let id =
                                tree::insert_node(c, NodeKind::File, DEFAULT_FILE_MODE, now, None)?;
                            tree::link(c, parent.id(), &name, id)?;
                            content::fill_new(c, id, &content::Hashed::new(data), now)?;
                            tree::set_mtime(c, parent.id(), now)
                        }
                    }
                })
            },
        )
    }

    /// Cuts a file to `size` bytes, or extends it with zeros.
    pub fn truncate(&self, path: &str, size: u64) -> Result<()> {
        self.audited(
            "truncate",
            path,
            || Some(serde_json::json!({"size": size})),
            || {
                let p = WsPath::parse(path)?;
                let shown = p.to_string();
                self.check_size(&shown, size)?;
                self.write_tx(|c| {
                    let mut chain = file_chain(c, &p)?;
                    will_change(c, &chain.path(), Touch::Node, &shown)?;
                    tree::unshare_all(c, &mut chain)?;
                    let node = &chain.steps[chain.steps.len() - 1].node;
                    content::truncate(c, node.id, node.size, size, now_ns())
                })
            },
        )
    }

    /// Changes a file in place, chunk by chunk (see [`Patch`]): what an
    /// open file's descriptor commits, without the whole file in memory.
    pub fn patch(&self, path: &str, change: &Patch<'_>) -> Result<()> {
        let bytes: usize = change.pages.iter().map(|(_, p)| p.len()).sum();
        self.audited(
            "patch",
            path,
            || Some(serde_json::json!({"size": change.size, "keep": change.keep, "pages": change.pages.len(), "bytes": bytes})),
            || {
                let p = WsPath::parse(path)?;
                let shown = p.to_string();
                self.check_size(&shown, change.size)?;
                self.write_tx(|c| {
                    let mut chain = file_chain(c, &p)?;
                    will_change(c, &chain.path(), Touch::Node, &shown)?;
                    tree::unshare_all(c, &mut chain)?;
                    let node = &chain.steps[chain.steps.len() - 1].node;
                    content::patch(c, node.id, node.size, change, now_ns())
                })
            },
        )
    }

    /// The largest file this workspace stores (`EFBIG` past it).
    pub fn max_file_size(&self) -> u64 {
        self.config.max_file_size
    }

    /// Applies a batch of unique, non-overlapping replacements atomically.
    /// See `computer_edit::apply` for the matching rules.
    pub fn edit(&self, path: &str, edits: &[TextEdit]) -> Result<EditResult> {
        self.audited(
            "edit",
            path,
            || Some(serde_json::json!({"edits": edits.len()})),
            || {
                let p = WsPath::parse(path)?;
                let shown = p.to_string();
                self.write_tx(|c| {
                    let mut chain = file_chain(c, &p)?;
                    will_change(c, &chain.path(), Touch::Node, &shown)?;
                    let node = chain.steps[chain.steps.len() - 1].node.clone();
                    let original = content::read_range(c, node.id, node.size, 0, None)?;
                    let batch: Vec<computer_edit::Edit> = edits
                        .iter()
                        .map(|e| computer_edit::Edit {
                            old: e.old.clone(),
                            new: e.new.clone(),
                        })
                        .collect();
                    let outcome = computer_edit::apply(&original, &batch, &shown).map_err(|e| {
                        FsError::custom(
                            Errno::EINVAL,
                            &shown,
                            format!("edit of {shown} failed: {e}"),
                        )
                    })?;
                    self.check_size(&shown, outcome.content.len() as u64)?;
                    tree::unshare_all(c, &mut chain)?;
                    let id = chain.id();
                    content::replace(c, id, &content::Hashed::new(&outcome.content), now_ns())?;
                    Ok(EditResult {
                        diff: outcome.diff,
                        applied: outcome.applied,
                        fuzzy: outcome.fuzzy,
                    })
                })
            },
        )
    }

    pub(crate) fn check_size(&self, shown: &str, size: u64) -> Result<()> {
        let max = self.config.max_file_size;
        if size > max {
            return Err(content::too_big(shown, size, max));
        }
        Ok(())
    }
}

/// Resolves a path that must be a regular file (following symlinks).
fn file_chain(c: &Connection, p: &WsPath) -> Result<Chain> {
    let chain = tree::resolve_existing(c, p, true)?;
    match chain.kind() {
        NodeKind::File => Ok(chain),
        NodeKind::Directory => Err(FsError::new(Errno::EISDIR, p.to_string())),
        NodeKind::Symlink => Err(FsError::new(Errno::ELOOP, p.to_string())),
    }
}

pub(crate) fn set_mode(c: &Connection, id: i64, mode: u32) -> Result<()> {
    c.prepare_cached("UPDATE nodes SET mode = ?2 WHERE id = ?1")?
        .execute(rusqlite::params![id, (mode & 0o7777) as i64])?;
    Ok(())
}
