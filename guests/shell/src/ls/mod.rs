//! `ls`, in GNU coreutils' format.
//!
//! bashkit's own `ls` prints an abridged long format (no link count, owner, group or
//! `total`, ISO dates), never lists `.` and `..`, and rejects common flags (`-r`,
//! `-S`, `-p`, `-i`, `--color`). Agents read `ls -la` output all the time, so this
//! replaces it: the output follows GNU `ls` with its output not on a terminal (one
//! name per line unless `-C`/`-x`/`-m`, names unquoted), in the C locale (byte order),
//! with times in UTC.
//!
//! Entries come straight from the workspace (`readdir` returns every entry's metadata
//! in one host call); ownership is the virtual user's, and block counts are what ext4
//! would use (4 KiB blocks), since the workspace has neither.

use std::path::Path;
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use bashkit::{BuiltinContext, ExecResult, async_trait};

use crate::computer::workspace::fs::{self, NodeKind, NodeStat};
use crate::devices;
use crate::fs_errors;
use crate::workspace_fs::WorkspaceFs;

mod layout;
mod options;
mod render;

use options::{Deref, HELP, Hidden, Indicator, Layout, Options, Sort, parse, usage_error};
use render::{Render, shown_size};

pub struct Ls {
    pub fs: Arc<WorkspaceFs>,
}

/// One thing to print: an entry with the name to show.
#[derive(Clone)]
pub(super) struct Item {
    pub(super) name: String,
    /// Metadata shown (the link's target's when following).
    pub(super) stat: NodeStat,
    /// The absolute path, for link targets and recursion.
    pub(super) path: String,
    /// The link target, for symlinks shown as links in long format.
    pub(super) target: Option<String>,
    /// Link count (directories: 2 + subdirectories).
    pub(super) nlink: u64,
}

fn join(dir: &str, name: &str) -> String {
    if dir == "/" {
        format!("/{name}")
    } else {
        format!("{dir}/{name}")
    }
}

/// `lstat` (or `stat`) of a path, with the guest's devices, `/dev` and `/tmp`.
fn stat_path(path: &str, follow: bool) -> Result<NodeStat, fs::FsError> {
    devices::stat(path, follow)
}

/// Directory link count: 2 plus one per subdirectory, as on ext4.
fn dir_nlink(path: &str) -> u64 {
    devices::readdir(path)
        .map(|entries| {
            2 + entries
                .iter()
                .filter(|e| e.kind == NodeKind::Directory)
                .count() as u64
        })
        .unwrap_or(2)
}

fn item(name: String, path: String, stat: NodeStat, long: bool) -> Item {
    let target = (long && stat.kind == NodeKind::Symlink)
        .then(|| fs::readlink(&path).ok())
        .flatten();
    let nlink = if long && stat.kind == NodeKind::Directory {
        dir_nlink(&path)
    } else {
        1
    };
    Item {
        name,
        stat,
        path,
        target,
        nlink,
    }
}

/// Looks the operands up: the files (and directories listed as such, with
/// `-d`) to print first, and the directories to list. Missing operands are
/// reported in `err`.
fn split_operands(
    cwd: &str,
    operands: &[String],
    o: &Options,
    err: &mut String,
) -> (Vec<Item>, Vec<Item>) {
    let mut files = Vec::new();
    let mut dirs = Vec::new();
    for operand in operands {
        let path = absolute(cwd, operand);
        let lstat = match stat_path(&path, false) {
            Ok(s) => s,
            Err(e) => {
                err.push_str(&format!(
                    "ls: cannot access '{operand}': {}\n",
                    fs_errors::strerror(e.code)
                ));
                continue;
            }
        };
        let follow = lstat.kind == NodeKind::Symlink && follows_operand(o, operand);
        let stat = if follow {
            stat_path(&path, true).unwrap_or(lstat)
        } else {
            lstat
        };
        let it = item(operand.clone(), path, stat, o.layout == Layout::Long);
        if it.stat.kind == NodeKind::Directory && !o.directory {
            dirs.push(it);
        } else {
            files.push(it);
        }
    }
    (files, dirs)
}

/// Whether a symlink named on the command line is shown as its target.
fn follows_operand(o: &Options, operand: &str) -> bool {
    match o.deref {
        Deref::All | Deref::Operands => true,
        Deref::CommandLine => {
            !(o.layout == Layout::Long || o.directory || o.indicator == Indicator::Classify)
                || operand.ends_with('/')
        }
    }
}

/// The subdirectories of a listing to recurse into, named from `dir`.
fn subdirs(entries: Vec<Item>, dir: &str) -> Vec<Item> {
    entries
        .into_iter()
        .filter(|e| e.stat.kind == NodeKind::Directory && e.name != "." && e.name != "..")
        .map(|mut e| {
            e.name = join_display(dir, &e.name);
            e
        })
        .collect()
}

#[async_trait]
impl bashkit::Builtin for Ls {
    async fn execute(&self, ctx: BuiltinContext<'_>) -> bashkit::Result<ExecResult> {
        if ctx.args.iter().any(|a| a == "--help") {
            return Ok(ExecResult::ok(HELP.to_string()));
        }
        let (o, mut operands) = match parse(ctx.args, ctx.env.get("COLUMNS")) {
            Ok(parsed) => parsed,
            Err(message) => return Ok(usage_error(message)),
        };
        // Appends the script made must be visible to the listing.
        self.fs.appends().flush();
        let user = ctx
            .env
            .get("USER")
            .cloned()
            .unwrap_or_else(|| "user".to_string());
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_secs() as i64)
            .unwrap_or(0);
        let render = Render {
            o: &o,
            user: &user,
            now,
        };
        if operands.is_empty() {
            operands.push(".".to_string());
        }
        let cwd = ctx.cwd.to_string_lossy().into_owned();
        let mut out = String::new();
        let mut err = String::new();
        let (mut files, mut dirs) = split_operands(&cwd, &operands, &o, &mut err);
        let mut status = if err.is_empty() { 0 } else { 2 };
        sort_items(&mut files, &o);
        sort_items(&mut dirs, &o);
        if !files.is_empty() {
            out.push_str(&render.block(&files, false));
        }
        let headers = operands.len() > 1 || o.recursive;
        let first = files.is_empty();
        if !self.list_dirs(dirs, &render, headers, first, &mut out, &mut err) {
            status = 2;
        }
        let mut result = ExecResult::ok(out);
        result.stderr = err.into();
        result.exit_code = status;
        Ok(result)
    }
}

impl Ls {
    /// Lists `dirs` (and below them with `-R`) into `out`, with a header per
    /// directory if `headers`; a blank line before each listing unless
    /// `first` (for the first one). False if a directory could not be read
    /// (reported in `err`).
    fn list_dirs(
        &self,
        dirs: Vec<Item>,
        render: &Render<'_>,
        headers: bool,
        mut first: bool,
        out: &mut String,
        err: &mut String,
    ) -> bool {
        let o = render.o;
        let mut ok = true;
        let mut queue: std::collections::VecDeque<Item> = dirs.into();
        while let Some(dir) = queue.pop_front() {
            if !first {
                out.push('\n');
            }
            first = false;
            if headers {
                out.push_str(&format!("{}:\n", dir.name));
            }
            match self.list_dir(&dir, o) {
                Ok(mut entries) => {
                    sort_items(&mut entries, o);
                    out.push_str(&render.block(&entries, true));
                    if o.recursive {
                        // Depth first, in listing order, as GNU does.
                        for sub in subdirs(entries, &dir.name).into_iter().rev() {
                            queue.push_front(sub);
                        }
                    }
                }
                Err(e) => {
                    err.push_str(&format!(
                        "ls: cannot open directory '{}': {}\n",
                        dir.name,
                        fs_errors::strerror(e.code)
                    ));
                    ok = false;
                }
            }
        }
        ok
    }

    fn list_dir(&self, dir: &Item, o: &Options) -> Result<Vec<Item>, fs::FsError> {
        let long = o.layout == Layout::Long;
        let mut items = Vec::new();
        if o.hidden == Hidden::All {
            for (name, path) in [(".", dir.path.clone()), ("..", parent(&dir.path))] {
                if let Ok(stat) = stat_path(&path, true) {
                    items.push(item(name.to_string(), path, stat, long));
                }
            }
        }
        let entries = devices::readdir(&dir.path)?;
        for stat in entries {
            if o.hidden == Hidden::Skip && stat.name.starts_with('.') {
                continue;
            }
            let path = join(&dir.path, &stat.name);
            let stat = if o.deref == Deref::All && stat.kind == NodeKind::Symlink {
                stat_path(&path, true).unwrap_or(stat)
            } else {
                stat
            };
            items.push(item(stat.name.clone(), path, stat, long));
        }
        Ok(items)
    }
}

fn absolute(cwd: &str, operand: &str) -> String {
    let joined = bashkit::vfs_join(Path::new(cwd), operand);
    bashkit::normalize_path(&joined)
        .to_string_lossy()
        .into_owned()
}

fn parent(path: &str) -> String {
    match path.rfind('/') {
        Some(0) | None => "/".to_string(),
        Some(i) => path[..i].to_string(),
    }
}

fn join_display(dir: &str, name: &str) -> String {
    if dir.ends_with('/') {
        format!("{dir}{name}")
    } else {
        format!("{dir}/{name}")
    }
}

fn sort_items(items: &mut [Item], o: &Options) {
    match o.sort {
        Sort::None => {}
        Sort::Name => items.sort_by(|a, b| a.name.cmp(&b.name)),
        Sort::Time => items.sort_by(|a, b| {
            b.stat
                .mtime_ns
                .cmp(&a.stat.mtime_ns)
                .then_with(|| a.name.cmp(&b.name))
        }),
        Sort::Size => items.sort_by(|a, b| {
            shown_size(&b.stat)
                .cmp(&shown_size(&a.stat))
                .then_with(|| a.name.cmp(&b.name))
        }),
        Sort::Extension => items.sort_by(|a, b| {
            extension(&a.name)
                .cmp(extension(&b.name))
                .then_with(|| a.name.cmp(&b.name))
        }),
        Sort::Version => items.sort_by(|a, b| version_cmp(&a.name, &b.name)),
    }
    if o.reverse && o.sort != Sort::None {
        items.reverse();
    }
    if o.dirs_first {
        // Stable: keeps the chosen order within directories and within the rest.
        items.sort_by_key(|i| i.stat.kind != NodeKind::Directory);
    }
}

fn extension(name: &str) -> &str {
    match name.rfind('.') {
        Some(i) if i > 0 => &name[i + 1..],
        _ => "",
    }
}

/// `ls -v`: digit runs compare as numbers.
fn version_cmp(a: &str, b: &str) -> std::cmp::Ordering {
    let (mut x, mut y) = (a.as_bytes(), b.as_bytes());
    loop {
        match (x.first(), y.first()) {
            (None, None) => return a.cmp(b),
            (None, Some(_)) => return std::cmp::Ordering::Less,
            (Some(_), None) => return std::cmp::Ordering::Greater,
            (Some(c), Some(d)) if c.is_ascii_digit() && d.is_ascii_digit() => {
                let nx = x.iter().take_while(|c| c.is_ascii_digit()).count();
                let ny = y.iter().take_while(|c| c.is_ascii_digit()).count();
                let (dx, dy) = (&x[..nx], &y[..ny]);
                let tx = trim_zeros(dx);
                let ty = trim_zeros(dy);
                let ord = tx.len().cmp(&ty.len()).then_with(|| tx.cmp(ty));
                if ord != std::cmp::Ordering::Equal {
                    return ord;
                }
                x = &x[nx..];
                y = &y[ny..];
            }
            (Some(c), Some(d)) => {
                if c != d {
                    return c.cmp(d);
                }
                x = &x[1..];
                y = &y[1..];
            }
        }
    }
}

fn trim_zeros(digits: &[u8]) -> &[u8] {
    let zeros = digits.iter().take_while(|c| **c == b'0').count();
    &digits[zeros.min(digits.len().saturating_sub(1))..]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions() {
        assert!(version_cmp("a2", "a10").is_lt());
        assert!(version_cmp("a10", "a9").is_gt());
        assert!(version_cmp("b", "a").is_gt());
    }
}
