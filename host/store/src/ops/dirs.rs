//! Directories: creating, listing and removing.

use rusqlite::Connection;

use crate::clock::now_ns;
use crate::error::{Errno, FsError, Result};
use crate::path::WsPath;
use crate::tree::{self, Lookup, NodeKind};
use crate::types::{MkdirOptions, Page, RmOptions, Stat};
use crate::workspace::{Touch, Workspace, will_change};

/// Default mode of new directories.
pub const DEFAULT_DIR_MODE: u32 = 0o755;

impl Workspace {
    /// Creates a directory. With `recursive`, creates missing parents and
    /// succeeds on an existing directory.
    pub fn mkdir(&self, path: &str, opts: &MkdirOptions) -> Result<()> {
        self.audited(
            "mkdir",
            path,
            || Some(serde_json::json!({"recursive": opts.recursive, "mode": opts.mode})),
            || {
                let p = WsPath::parse(path)?;
                let shown = p.to_string();
                let mode = opts.mode.unwrap_or(DEFAULT_DIR_MODE);
                if opts.recursive {
                    // Only count a revision when something is created.
                    let exists = self.read_tx(|c| match tree::resolve(c, &p, true) {
                        Ok(Lookup::Found(chain)) => match chain.kind() {
                            NodeKind::Directory => Ok(true),
                            _ => Err(FsError::new(Errno::EEXIST, &shown)),
                        },
                        Ok(Lookup::Missing { .. }) => Ok(false),
                        Err(e) if e.code == Errno::ENOENT => Ok(false),
                        Err(e) => Err(e),
                    })?;
                    if exists {
                        return Ok(());
                    }
                    return self.write_tx(|c| mkdir_p_mode(c, &p, &shown, mode, true));
                }
                self.write_tx(|c| match tree::resolve(c, &p, false)? {
                    Lookup::Found(_) => Err(FsError::new(Errno::EEXIST, &shown)),
                    Lookup::Missing { mut parent, name } => {
                        will_change(c, &parent.path().join(&name), Touch::Node, &shown)?;
                        tree::unshare_all(c, &mut parent)?;
                        create_dir(c, parent.id(), &name, mode)
                    }
                })
            },
        )
    }

    /// Lists a directory, sorted by name. Entries are not followed: a
    /// symlink is listed as a symlink.
    pub fn readdir(&self, path: &str, page: Page) -> Result<Vec<Stat>> {
        self.audited(
            "readdir",
            path,
            || Some(serde_json::json!({"offset": page.offset, "limit": page.limit})),
            || {
                let p = WsPath::parse(path)?;
                self.read_tx(|c| {
                    let chain = tree::resolve_dir(c, &p)?;
                    let rows = tree::list(c, chain.id(), page.offset, page.limit)?;
                    let salt = chain.salt();
                    Ok(rows
                        .iter()
                        .map(|(name, node)| {
                            let ino = tree::eff_ino(node.ino, salt ^ node.salt);
                            Stat::from_node(name, node, ino)
                        })
                        .collect())
                })
            },
        )
    }

    /// Removes a path. A symlink is removed itself, never its target.
    pub fn rm(&self, path: &str, opts: RmOptions) -> Result<()> {
        self.audited("rm", path, || Some(serde_json::json!({"recursive": opts.recursive, "force": opts.force})), || {
            let p = WsPath::parse(path)?;
            let shown = p.to_string();
            if p.is_root() {
                return Err(FsError::custom(
                    Errno::EPERM,
                    "/",
                    "operation not permitted: cannot remove /",
                ));
            }
            self.write_tx(|c| {
                let mut chain = match tree::resolve(c, &p, false) {
                    Ok(Lookup::Found(chain)) => chain,
                    Ok(Lookup::Missing { .. }) if opts.force => return Ok(()),
                    Err(e) if opts.force && e.code == Errno::ENOENT => return Ok(()),
                    Ok(Lookup::Missing { .. }) => return Err(FsError::new(Errno::ENOENT, &shown)),
                    Err(e) => return Err(e),
                };
                if chain.is_root() {
                    return Err(FsError::custom(
                        Errno::EPERM,
                        &shown,
                        format!("operation not permitted: cannot remove {shown}, it resolves to /"),
                    ));
                }
                if p.trailing_slash() && chain.kind() != NodeKind::Directory {
                    return Err(FsError::new(Errno::ENOTDIR, &shown));
                }
                will_change(c, &chain.path(), Touch::Subtree, &shown)?;
                let n = chain.steps.len();
                let target = chain.steps[n - 1].clone();
                if target.node.kind == NodeKind::Directory
                    && !opts.recursive
                    && tree::has_children(c, target.node.id)?
                {
                    return Err(FsError::custom(
                        Errno::ENOTEMPTY,
                        &shown,
                        format!(
                            "directory not empty: {shown} (use recursive to remove it and its contents)"
                        ),
                    ));
                }
                tree::unshare(c, &mut chain, n - 1)?;
                let parent = chain.steps[n - 1].parent;
                tree::unlink(c, parent, &target.name, target.node.id)?;
                tree::set_mtime(c, parent, now_ns())
            })
        })
    }
}

fn create_dir(c: &Connection, parent: i64, name: &str, mode: u32) -> Result<()> {
    let now = now_ns();
    let id = tree::insert_node(c, NodeKind::Directory, mode, now, None)?;
    tree::link(c, parent, name, id)?;
    tree::set_mtime(c, parent, now)
}

/// `mkdir -p` inside a transaction: creates every missing directory of `p`.
pub(crate) fn mkdir_p(c: &Connection, p: &WsPath, shown: &str) -> Result<()> {
    mkdir_p_mode(c, p, shown, DEFAULT_DIR_MODE, false)
}

/// Goes down `p` one entry at a time from the last directory reached, so
/// the cost is linear in its depth; only a symlink on the way sends it back
/// to resolving the prefix from the root.
fn mkdir_p_mode(
    c: &Connection,
    p: &WsPath,
    shown: &str,
    mode: u32,
    last_is_target: bool,
) -> Result<()> {
    let comps = p.components();
    let mut chain = tree::Chain {
        root: tree::live_root(c)?,
        steps: Vec::new(),
    };
    for (i, name) in comps.iter().enumerate() {
        let is_last = i + 1 == comps.len();
        let not_dir = |kind: NodeKind| {
            // A file in the way of the directory itself is EEXIST; a file
            // used as a parent is ENOTDIR.
            let code = if is_last && last_is_target {
                Errno::EEXIST
            } else {
                Errno::ENOTDIR
            };
            let prefix = WsPath::from_components(comps[..=i].to_vec());
            FsError::detail(code, shown, format!("{prefix} is a {}", kind.as_str()))
        };
        let found = match tree::lookup(c, chain.id(), name)? {
            Some(node) if node.kind == NodeKind::Symlink => {
                let prefix = WsPath::from_components(comps[..=i].to_vec());
                match tree::resolve(c, &prefix, true)? {
                    Lookup::Found(through) => Some(through),
                    Lookup::Missing { parent, name } => {
                        chain = parent;
                        chain = make_dir(
                            c,
                            chain,
                            &name,
                            if is_last { mode } else { DEFAULT_DIR_MODE },
                            shown,
                        )?;
                        continue;
                    }
                }
            }
            Some(node) if node.kind != NodeKind::Directory => return Err(not_dir(node.kind)),
            Some(node) => {
                let parent = chain.id();
                chain.steps.push(tree::Step {
                    parent,
                    name: name.clone(),
                    node,
                });
                continue;
            }
            None => None,
        };
        match found {
            Some(through) if through.kind() != NodeKind::Directory => {
                return Err(not_dir(through.kind()));
            }
            Some(through) => chain = through,
            None => {
                chain = make_dir(
                    c,
                    chain,
                    name,
                    if is_last { mode } else { DEFAULT_DIR_MODE },
                    shown,
                )?;
            }
        }
    }
    Ok(())
}

/// Creates `name` in the directory `parent` ends at; returns the chain to it.
fn make_dir(
    c: &Connection,
    mut parent: tree::Chain,
    name: &str,
    mode: u32,
    shown: &str,
) -> Result<tree::Chain> {
    will_change(c, &parent.path().join(name), Touch::Node, shown)?;
    tree::unshare_all(c, &mut parent)?;
    create_dir(c, parent.id(), name, mode)?;
    let node =
        tree::lookup(c, parent.id(), name)?.ok_or_else(|| FsError::new(Errno::EIO, shown))?;
    let dir = parent.id();
    parent.steps.push(tree::Step {
        parent: dir,
        name: name.to_owned(),
        node,
    });
    Ok(parent)
}
