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
use crate::devices::Device;
use crate::fs_errors;
use crate::workspace_fs::WorkspaceFs;

/// Width for `-C`, `-x` and `-m` when `COLUMNS` is unset (GNU's default).
const DEFAULT_WIDTH: usize = 80;
/// GNU shows the year instead of the time for files older than this (or in the future).
const SIX_MONTHS_SECS: i64 = 31_556_952 / 2;
/// The size GNU reports for a directory on ext4.
const DIR_SIZE: u64 = 4096;

pub struct Ls {
    pub fs: Arc<WorkspaceFs>,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Sort {
    Name,
    Time,
    Size,
    Extension,
    Version,
    None,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Layout {
    OnePerLine,
    Columns,
    Across,
    Commas,
    Long,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Hidden {
    /// Names starting with `.` are skipped.
    Skip,
    /// `-A`: shown, but not `.` and `..`.
    AlmostAll,
    /// `-a`: shown, with `.` and `..`.
    All,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Indicator {
    None,
    /// `-p`: `/` after directories.
    Slash,
    /// `-F`: `/`, `@`, `*` and `|`.
    Classify,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Deref {
    /// Follow symlinks named on the command line unless listing long, `-d` or `-F`.
    CommandLine,
    /// `-H`: follow symlinks named on the command line.
    Operands,
    /// `-L`: follow every symlink.
    All,
}

#[derive(Debug)]
struct Options {
    layout: Layout,
    hidden: Hidden,
    sort: Sort,
    reverse: bool,
    recursive: bool,
    directory: bool,
    indicator: Indicator,
    deref: Deref,
    human: Human,
    inode: bool,
    blocks: bool,
    show_owner: bool,
    show_group: bool,
    numeric_ids: bool,
    full_time: bool,
    dirs_first: bool,
    width: usize,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Human {
    No,
    /// `-h`: powers of 1024.
    Binary,
    /// `--si`: powers of 1000.
    Si,
}

/// One thing to print: an entry with the name to show.
#[derive(Clone)]
struct Item {
    name: String,
    /// Metadata shown (the link's target's when following).
    stat: NodeStat,
    /// The absolute path, for link targets and recursion.
    path: String,
    /// The link target, for symlinks shown as links in long format.
    target: Option<String>,
    /// Link count (directories: 2 + subdirectories).
    nlink: u64,
}

fn usage_error(message: String) -> ExecResult {
    ExecResult::err(
        format!("ls: {message}\nTry 'ls --help' for more information.\n"),
        2,
    )
}

fn parse(args: &[String], env_columns: Option<&String>) -> Result<(Options, Vec<String>), String> {
    let mut o = Options {
        layout: Layout::OnePerLine,
        hidden: Hidden::Skip,
        sort: Sort::Name,
        reverse: false,
        recursive: false,
        directory: false,
        indicator: Indicator::None,
        deref: Deref::CommandLine,
        human: Human::No,
        inode: false,
        blocks: false,
        show_owner: true,
        show_group: true,
        numeric_ids: false,
        full_time: false,
        dirs_first: false,
        width: env_columns
            .and_then(|c| c.parse().ok())
            .filter(|w: &usize| *w > 0)
            .unwrap_or(DEFAULT_WIDTH),
    };
    let mut operands = Vec::new();
    let mut options_done = false;
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        if options_done || arg == "-" || !arg.starts_with('-') {
            operands.push(arg.clone());
            continue;
        }
        if arg == "--" {
            options_done = true;
            continue;
        }
        if let Some(long) = arg.strip_prefix("--") {
            long_option(&mut o, long)?;
            continue;
        }
        for (i, c) in arg[1..].char_indices() {
            // `-w COLS` and `-T COLS` take a value: the rest of the word, or the next.
            if c == 'w' || c == 'T' {
                let rest = &arg[1 + i + 1..];
                let value = if rest.is_empty() {
                    args.next()
                        .cloned()
                        .ok_or_else(|| format!("option requires an argument -- '{c}'"))?
                } else {
                    rest.to_string()
                };
                if c == 'w' {
                    long_option(&mut o, &format!("width={value}"))?;
                }
                break;
            }
            short_option(&mut o, c)?;
        }
    }
    Ok((o, operands))
}

fn short_option(o: &mut Options, c: char) -> Result<(), String> {
    match c {
        'l' => o.layout = Layout::Long,
        'g' => {
            o.layout = Layout::Long;
            o.show_owner = false;
        }
        'o' => {
            o.layout = Layout::Long;
            o.show_group = false;
        }
        'n' => {
            o.layout = Layout::Long;
            o.numeric_ids = true;
        }
        'G' => o.show_group = false,
        '1' => o.layout = Layout::OnePerLine,
        'C' => o.layout = Layout::Columns,
        'x' => o.layout = Layout::Across,
        'm' => o.layout = Layout::Commas,
        'a' => o.hidden = Hidden::All,
        'A' => o.hidden = Hidden::AlmostAll,
        'f' => {
            o.hidden = Hidden::All;
            o.sort = Sort::None;
        }
        't' => o.sort = Sort::Time,
        'S' => o.sort = Sort::Size,
        'X' => o.sort = Sort::Extension,
        'v' => o.sort = Sort::Version,
        'U' => o.sort = Sort::None,
        // Access and change times are not kept: the modification time stands in.
        'c' | 'u' => {}
        'r' => o.reverse = true,
        'R' => o.recursive = true,
        'd' => o.directory = true,
        'F' => o.indicator = Indicator::Classify,
        'p' => o.indicator = Indicator::Slash,
        'L' => o.deref = Deref::All,
        'H' => o.deref = Deref::Operands,
        'h' => o.human = Human::Binary,
        'i' => o.inode = true,
        's' => o.blocks = true,
        // Quoting and control-character styles: names are printed as they are.
        'N' | 'q' | 'b' | 'Q' | 'B' | 'k' => {}
        other => return Err(format!("invalid option -- '{other}'")),
    }
    Ok(())
}

fn long_option(o: &mut Options, long: &str) -> Result<(), String> {
    let (name, value) = match long.split_once('=') {
        Some((n, v)) => (n, Some(v)),
        None => (long, None),
    };
    match (name, value) {
        ("all", None) => o.hidden = Hidden::All,
        ("almost-all", None) => o.hidden = Hidden::AlmostAll,
        ("directory", None) => o.directory = true,
        ("recursive", None) => o.recursive = true,
        ("reverse", None) => o.reverse = true,
        ("human-readable", None) => o.human = Human::Binary,
        ("si", None) => o.human = Human::Si,
        ("inode", None) => o.inode = true,
        ("size", None) => o.blocks = true,
        ("numeric-uid-gid", None) => {
            o.layout = Layout::Long;
            o.numeric_ids = true;
        }
        ("no-group", None) => o.show_group = false,
        ("classify", None | Some("always" | "yes" | "force")) => o.indicator = Indicator::Classify,
        ("classify", Some("never" | "no" | "none" | "auto" | "tty" | "if-tty")) => {}
        ("indicator-style", Some("none")) => o.indicator = Indicator::None,
        ("indicator-style", Some("slash")) => o.indicator = Indicator::Slash,
        ("indicator-style", Some("classify" | "file-type")) => o.indicator = Indicator::Classify,
        ("dereference", None) => o.deref = Deref::All,
        ("dereference-command-line", None) => o.deref = Deref::Operands,
        ("group-directories-first", None) => o.dirs_first = true,
        ("full-time", None) => {
            o.layout = Layout::Long;
            o.full_time = true;
        }
        ("sort", Some("none")) => o.sort = Sort::None,
        ("sort", Some("name")) => o.sort = Sort::Name,
        ("sort", Some("time")) => o.sort = Sort::Time,
        ("sort", Some("size")) => o.sort = Sort::Size,
        ("sort", Some("extension")) => o.sort = Sort::Extension,
        ("sort", Some("version")) => o.sort = Sort::Version,
        ("format", Some("long" | "verbose")) => o.layout = Layout::Long,
        ("format", Some("single-column")) => o.layout = Layout::OnePerLine,
        ("format", Some("vertical")) => o.layout = Layout::Columns,
        ("format", Some("across" | "horizontal")) => o.layout = Layout::Across,
        ("format", Some("commas")) => o.layout = Layout::Commas,
        ("width", Some(w)) => {
            o.width = w
                .parse()
                .map_err(|_| format!("invalid line width: '{w}'"))?;
            if o.width == 0 {
                o.width = usize::MAX;
            }
        }
        ("time-style", Some("full-iso")) => o.full_time = true,
        ("tabsize", Some(_)) => {}
        // Colors only go to terminals; quoting and time choices print as GNU does here.
        ("color" | "colour", _)
        | ("time-style", Some(_))
        | ("time", Some(_))
        | ("quoting-style", Some(_))
        | ("literal" | "show-control-chars" | "hide-control-chars" | "escape", None)
        | ("quote-name", None) => {}
        _ => return Err(format!("unrecognized option '--{long}'")),
    }
    Ok(())
}

fn join(dir: &str, name: &str) -> String {
    if dir == "/" {
        format!("/{name}")
    } else {
        format!("{dir}/{name}")
    }
}

fn device_stat(name: &str) -> NodeStat {
    NodeStat {
        name: name.to_string(),
        kind: NodeKind::File,
        mode: 0o666,
        size: 0,
        mtime_ns: 0,
        ino: 0,
    }
}

/// `lstat` (or `stat`) through the host, with the guest's devices.
fn stat_path(path: &str, follow: bool) -> Result<NodeStat, fs::FsError> {
    if let Some(_device) = Device::at(path) {
        return Ok(device_stat(path.rsplit('/').next().unwrap_or(path)));
    }
    if follow {
        fs::stat(path)
    } else {
        fs::lstat(path)
    }
}

/// Directory link count: 2 plus one per subdirectory, as on ext4.
fn dir_nlink(path: &str) -> u64 {
    fs::readdir(path, 0, None)
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
        let mut files = Vec::new();
        let mut dirs = Vec::new();
        for operand in &operands {
            let path = absolute(&cwd, operand);
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
            let follow = lstat.kind == NodeKind::Symlink
                && match o.deref {
                    Deref::All | Deref::Operands => true,
                    Deref::CommandLine => {
                        !(o.layout == Layout::Long
                            || o.directory
                            || o.indicator == Indicator::Classify)
                            || operand.ends_with('/')
                    }
                };
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
        let mut status = if err.is_empty() { 0 } else { 2 };
        sort_items(&mut files, &o);
        sort_items(&mut dirs, &o);
        if !files.is_empty() {
            out.push_str(&render.block(&files, false));
        }
        let headers = operands.len() > 1 || o.recursive;
        let mut first = files.is_empty();
        let mut queue: std::collections::VecDeque<Item> = dirs.into();
        while let Some(dir) = queue.pop_front() {
            if !first {
                out.push('\n');
            }
            first = false;
            if headers {
                out.push_str(&format!("{}:\n", dir.name));
            }
            match self.list_dir(&dir, &o) {
                Ok(mut entries) => {
                    sort_items(&mut entries, &o);
                    out.push_str(&render.block(&entries, true));
                    if o.recursive {
                        let subdirs: Vec<Item> = entries
                            .into_iter()
                            .filter(|e| {
                                e.stat.kind == NodeKind::Directory
                                    && e.name != "."
                                    && e.name != ".."
                            })
                            .map(|mut e| {
                                e.name = join_display(&dir.name, &e.name);
                                e
                            })
                            .collect();
                        // Depth first, in listing order, as GNU does.
                        for sub in subdirs.into_iter().rev() {
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
                    status = 2;
                }
            }
        }
        let mut result = ExecResult::ok(out);
        result.stderr = err.into();
        result.exit_code = status;
        Ok(result)
    }
}

impl Ls {
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
        let entries = if dir.path == "/dev" {
            dev_entries()
        } else {
            fs::readdir(&dir.path, 0, None)?
        };
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

/// `/dev` as the workspace has it, with the guest's devices merged in.
fn dev_entries() -> Vec<NodeStat> {
    let mut entries: Vec<NodeStat> = fs::readdir("/dev", 0, None)
        .unwrap_or_default()
        .into_iter()
        .filter(|e| Device::at(&join("/dev", &e.name)).is_none())
        .collect();
    for name in ["null", "random", "urandom", "zero"] {
        entries.push(device_stat(name));
    }
    entries.sort_by(|a, b| a.name.cmp(&b.name));
    entries
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

/// The size `ls -l` shows.
fn shown_size(stat: &NodeStat) -> u64 {
    match stat.kind {
        NodeKind::Directory => DIR_SIZE,
        _ => stat.size,
    }
}

/// Allocated 1 KiB blocks, as ext4 with 4 KiB blocks would report.
fn blocks_kib(stat: &NodeStat) -> u64 {
    match stat.kind {
        NodeKind::Directory => 4,
        NodeKind::Symlink => 0,
        NodeKind::File => stat.size.div_ceil(4096) * 4,
    }
}

struct Render<'a> {
    o: &'a Options,
    user: &'a str,
    now: i64,
}

impl Render<'_> {
    /// The listing of `items`: `total` (for a directory in long or `-s` format) and the
    /// entries in the chosen layout.
    fn block(&self, items: &[Item], is_dir: bool) -> String {
        let mut out = String::new();
        if is_dir && (self.o.layout == Layout::Long || self.o.blocks) {
            let total: u64 = items.iter().map(|i| blocks_kib(&i.stat)).sum();
            out.push_str(&format!("total {}\n", self.blocks(total)));
        }
        if items.is_empty() {
            return out;
        }
        match self.o.layout {
            Layout::Long => out.push_str(&self.long(items)),
            Layout::OnePerLine => {
                let inode_w = self.inode_width(items);
                let blocks_w = self.blocks_width(items);
                for i in items {
                    out.push_str(&self.prefix(i, inode_w, blocks_w));
                    out.push_str(&self.name(i));
                    out.push('\n');
                }
            }
            Layout::Commas => {
                let names: Vec<String> = items
                    .iter()
                    .map(|i| format!("{}{}", self.prefix(i, 0, 0), self.name(i)))
                    .collect();
                out.push_str(&commas(&names, self.o.width));
            }
            Layout::Columns | Layout::Across => {
                let inode_w = self.inode_width(items);
                let blocks_w = self.blocks_width(items);
                let names: Vec<String> = items
                    .iter()
                    .map(|i| format!("{}{}", self.prefix(i, inode_w, blocks_w), self.name(i)))
                    .collect();
                out.push_str(&columns(
                    &names,
                    self.o.width,
                    self.o.layout == Layout::Across,
                ));
            }
        }
        out
    }

    fn inode_width(&self, items: &[Item]) -> usize {
        if !self.o.inode {
            return 0;
        }
        items
            .iter()
            .map(|i| i.stat.ino.to_string().len())
            .max()
            .unwrap_or(0)
    }

    fn blocks_width(&self, items: &[Item]) -> usize {
        if !self.o.blocks {
            return 0;
        }
        items
            .iter()
            .map(|i| self.blocks(blocks_kib(&i.stat)).len())
            .max()
            .unwrap_or(0)
    }

    /// `-i` and `-s` columns before the name.
    fn prefix(&self, item: &Item, inode_w: usize, blocks_w: usize) -> String {
        let mut p = String::new();
        if self.o.inode {
            p.push_str(&format!("{:>inode_w$} ", item.stat.ino));
        }
        if self.o.blocks {
            p.push_str(&format!(
                "{:>blocks_w$} ",
                self.blocks(blocks_kib(&item.stat))
            ));
        }
        p
    }

    fn blocks(&self, kib: u64) -> String {
        match self.o.human {
            Human::No => kib.to_string(),
            Human::Binary => human(kib * 1024, 1024),
            Human::Si => human(kib * 1024, 1000),
        }
    }

    fn name(&self, item: &Item) -> String {
        let suffix = match (self.o.indicator, item.stat.kind) {
            (Indicator::None, _) => "",
            (_, NodeKind::Directory) => "/",
            (Indicator::Slash, _) => "",
            (Indicator::Classify, NodeKind::Symlink) if item.target.is_none() => "@",
            (Indicator::Classify, NodeKind::Symlink) => "",
            (Indicator::Classify, NodeKind::File) if item.stat.mode & 0o111 != 0 => "*",
            (Indicator::Classify, NodeKind::File) => "",
        };
        format!("{}{suffix}", item.name)
    }

    fn long(&self, items: &[Item]) -> String {
        let owner = if self.o.numeric_ids {
            "1000".to_string()
        } else {
            self.user.to_string()
        };
        let sizes: Vec<String> = items.iter().map(|i| self.size(&i.stat)).collect();
        let size_w = sizes.iter().map(String::len).max().unwrap_or(0);
        let nlink_w = items
            .iter()
            .map(|i| i.nlink.to_string().len())
            .max()
            .unwrap_or(0);
        let inode_w = self.inode_width(items);
        let blocks_w = self.blocks_width(items);
        let mut out = String::new();
        for (item, size) in items.iter().zip(&sizes) {
            out.push_str(&self.prefix(item, inode_w, blocks_w));
            out.push_str(&mode_string(&item.stat));
            out.push_str(&format!(" {:>nlink_w$}", item.nlink));
            if self.o.show_owner {
                out.push_str(&format!(" {owner}"));
            }
            if self.o.show_group {
                out.push_str(&format!(" {owner}"));
            }
            out.push_str(&format!(" {size:>size_w$} "));
            out.push_str(&self.time(item.stat.mtime_ns));
            out.push(' ');
            out.push_str(&self.name(item));
            if let Some(target) = &item.target {
                out.push_str(" -> ");
                out.push_str(target);
            }
            out.push('\n');
        }
        out
    }

    fn size(&self, stat: &NodeStat) -> String {
        let bytes = shown_size(stat);
        match self.o.human {
            Human::No => bytes.to_string(),
            Human::Binary => human(bytes, 1024),
            Human::Si => human(bytes, 1000),
        }
    }

    fn time(&self, mtime_ns: u64) -> String {
        let secs = (mtime_ns / 1_000_000_000) as i64;
        let (y, mo, d, h, mi, s) = civil(secs);
        if self.o.full_time {
            return format!(
                "{y:04}-{mo:02}-{d:02} {h:02}:{mi:02}:{s:02}.{:09} +0000",
                mtime_ns % 1_000_000_000
            );
        }
        let month = MONTHS[(mo - 1) as usize];
        let age = self.now - secs;
        if (0..SIX_MONTHS_SECS).contains(&age) || (age < 0 && age > -3600) {
            format!("{month} {d:>2} {h:02}:{mi:02}")
        } else {
            format!("{month} {d:>2}  {y}")
        }
    }
}

const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];

/// UTC calendar fields of a Unix time (Howard Hinnant's days-to-civil).
fn civil(secs: i64) -> (i64, u32, u32, u32, u32, u32) {
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (
        y,
        m,
        d,
        (rem / 3600) as u32,
        (rem % 3600 / 60) as u32,
        (rem % 60) as u32,
    )
}

fn mode_string(stat: &NodeStat) -> String {
    let kind = match stat.kind {
        NodeKind::Directory => 'd',
        NodeKind::Symlink => 'l',
        NodeKind::File => '-',
    };
    let m = stat.mode;
    let bit = |mask: u32, c: char| if m & mask != 0 { c } else { '-' };
    let special = |exec: bool, set: bool, lower: char, upper: char| match (exec, set) {
        (true, true) => lower,
        (false, true) => upper,
        (true, false) => 'x',
        (false, false) => '-',
    };
    let mut s = String::with_capacity(10);
    s.push(kind);
    s.push(bit(0o400, 'r'));
    s.push(bit(0o200, 'w'));
    s.push(special(m & 0o100 != 0, m & 0o4000 != 0, 's', 'S'));
    s.push(bit(0o040, 'r'));
    s.push(bit(0o020, 'w'));
    s.push(special(m & 0o010 != 0, m & 0o2000 != 0, 's', 'S'));
    s.push(bit(0o004, 'r'));
    s.push(bit(0o002, 'w'));
    s.push(special(m & 0o001 != 0, m & 0o1000 != 0, 't', 'T'));
    s
}

/// GNU `-h`: one decimal below 10 (rounded up), whole numbers above.
fn human(bytes: u64, base: u64) -> String {
    const UNITS: [&str; 8] = ["K", "M", "G", "T", "P", "E", "Z", "Y"];
    if bytes < base {
        return bytes.to_string();
    }
    let mut value = bytes as f64;
    let mut unit = 0;
    value /= base as f64;
    while value >= base as f64 && unit + 1 < UNITS.len() {
        value /= base as f64;
        unit += 1;
    }
    let suffix = if base == 1000 && unit == 0 {
        "k"
    } else {
        UNITS[unit]
    };
    if value < 10.0 {
        let tenths = (value * 10.0).ceil() / 10.0;
        if tenths >= 10.0 {
            format!("{}{suffix}", tenths.ceil() as u64)
        } else {
            format!("{tenths:.1}{suffix}")
        }
    } else {
        format!("{}{suffix}", value.ceil() as u64)
    }
}

/// `-m`, as GNU's `print_with_separator`: ", " between names, a new line when the
/// next name would not fit.
fn commas(names: &[String], width: usize) -> String {
    let mut out = String::new();
    let mut pos = 0usize;
    for (i, name) in names.iter().enumerate() {
        let len = name.chars().count();
        if i > 0 {
            out.push(',');
            if pos + len + 2 < width {
                pos += 2;
                out.push(' ');
            } else {
                pos = 0;
                out.push('\n');
            }
        }
        out.push_str(name);
        pos += len;
    }
    out.push('\n');
    out
}

/// Pad from column `from` to `to` as GNU `ls` does off a terminal: with tabs (every 8
/// columns) where a tab fits, spaces otherwise.
fn indent(out: &mut String, mut from: usize, to: usize) {
    while from < to {
        if to / TAB_SIZE > (from + 1) / TAB_SIZE {
            out.push('\t');
            from += TAB_SIZE - from % TAB_SIZE;
        } else {
            out.push(' ');
            from += 1;
        }
    }
}

/// Tab stops GNU `ls` assumes.
const TAB_SIZE: usize = 8;
/// The narrowest column: one character and two spaces.
const MIN_COLUMN_WIDTH: usize = 3;

/// `-C` (down columns) and `-x` (across), as GNU's `calculate_columns`: the most
/// columns whose line stays shorter than `width`, each column as wide as its longest
/// name plus two spaces (none after the last).
fn columns(names: &[String], width: usize, across: bool) -> String {
    let n = names.len();
    let lens: Vec<usize> = names.iter().map(|s| s.chars().count()).collect();
    let max_cols = (width / MIN_COLUMN_WIDTH).clamp(1, n.max(1));
    // For i + 1 columns: the column widths, and whether the line still fits.
    let mut layouts: Vec<(Vec<usize>, usize, bool)> = (0..max_cols)
        .map(|i| {
            (
                vec![MIN_COLUMN_WIDTH; i + 1],
                (i + 1) * MIN_COLUMN_WIDTH,
                true,
            )
        })
        .collect();
    for (file, len) in lens.iter().enumerate() {
        for (i, (widths, line_len, valid)) in layouts.iter_mut().enumerate() {
            if !*valid {
                continue;
            }
            let cols = i + 1;
            let idx = if across {
                file % cols
            } else {
                file / n.div_ceil(cols)
            };
            let real = len + if idx == i { 0 } else { 2 };
            if widths[idx] < real {
                *line_len += real - widths[idx];
                widths[idx] = real;
                *valid = *line_len < width;
            }
        }
    }
    let cols = (1..=max_cols)
        .rev()
        .find(|c| *c == 1 || layouts[c - 1].2)
        .unwrap_or(1);
    let widths = &layouts[cols - 1].0;
    let mut out = String::new();
    if across {
        let mut pos = 0;
        for (file, name) in names.iter().enumerate() {
            let col = file % cols;
            if file > 0 {
                if col == 0 {
                    out.push('\n');
                    pos = 0;
                } else {
                    let prev = col - 1;
                    indent(&mut out, pos + lens[file - 1], pos + widths[prev]);
                    pos += widths[prev];
                }
            }
            out.push_str(name);
        }
        out.push('\n');
        return out;
    }
    let rows = n.div_ceil(cols);
    for row in 0..rows {
        let mut pos = 0;
        let mut file = row;
        let mut col = 0;
        loop {
            out.push_str(&names[file]);
            let column_width = widths[col];
            col += 1;
            let len = lens[file];
            file += rows;
            if file >= n {
                break;
            }
            indent(&mut out, pos + len, pos + column_width);
            pos += column_width;
        }
        out.push('\n');
    }
    out
}

const HELP: &str = "Usage: ls [OPTION]... [FILE]...
List information about the FILEs (the current directory by default).
Entries are sorted by name (byte order) unless -t, -S, -X, -v or -U is given.

  -a, --all                  do not ignore entries starting with .
  -A, --almost-all           do not list implied . and ..
  -C                         list entries by columns
  -d, --directory            list directories themselves, not their contents
  -F, --classify             append indicator (one of */@) to entries
  -f                         do not sort, enable -a
      --full-time            like -l --time-style=full-iso
  -g                         like -l, but do not list owner
      --group-directories-first  group directories before files
  -G, --no-group             in a long listing, don't print group names
  -h, --human-readable       with -l and -s, print sizes like 1K 234M 2G
      --si                   likewise, but use powers of 1000 not 1024
  -H, --dereference-command-line  follow symbolic links listed on the command line
  -i, --inode                print the index number of each file
  -l                         use a long listing format
  -L, --dereference          show information for the file references rather than the link
  -m                         fill width with a comma separated list of entries
  -n, --numeric-uid-gid      like -l, but list numeric user and group IDs
  -o                         like -l, but do not list group information
  -p                         append / indicator to directories
  -r, --reverse              reverse order while sorting
  -R, --recursive            list subdirectories recursively
  -s, --size                 print the allocated size of each file, in blocks
  -S                         sort by file size, largest first
      --sort=WORD            sort by WORD: none, name, size, time, version, extension
  -t                         sort by time, newest first
  -U                         do not sort; list entries in directory order
  -v                         natural sort of (version) numbers within text
  -w, --width=COLS           set output width to COLS
  -x                         list entries by lines instead of by columns
  -X                         sort alphabetically by entry extension
  -1                         list one file per line
";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calendar() {
        assert_eq!(civil(0), (1970, 1, 1, 0, 0, 0));
        assert_eq!(civil(951_782_400), (2000, 2, 29, 0, 0, 0));
        assert_eq!(civil(1_700_000_000), (2023, 11, 14, 22, 13, 20));
    }

    #[test]
    fn human_sizes() {
        assert_eq!(human(512, 1024), "512");
        assert_eq!(human(1024, 1024), "1.0K");
        assert_eq!(human(1536, 1024), "1.5K");
        assert_eq!(human(4096, 1024), "4.0K");
        assert_eq!(human(10 * 1024 + 1, 1024), "11K");
        assert_eq!(human(104_857_613, 1024), "101M");
    }

    #[test]
    fn versions() {
        assert!(version_cmp("a2", "a10").is_lt());
        assert!(version_cmp("a10", "a9").is_gt());
        assert!(version_cmp("b", "a").is_gt());
    }

    #[test]
    fn options() {
        let args: Vec<String> = ["-la", "--sort=size", "x"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let (o, ops) = parse(&args, None).expect("valid");
        assert_eq!(o.layout, Layout::Long);
        assert_eq!(o.hidden, Hidden::All);
        assert_eq!(o.sort, Sort::Size);
        assert_eq!(ops, vec!["x".to_string()]);
        assert!(parse(&["-Z".to_string()], None).is_err());
    }

    #[test]
    fn column_layout() {
        let names: Vec<String> = ["a", "bb", "ccc", "d"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        // As GNU `ls -C -w 8` / `-x -w 9` print them.
        assert_eq!(columns(&names, 80, false), "a  bb  ccc  d\n");
        assert_eq!(columns(&names, 8, false), "a   ccc\nbb  d\n");
        assert_eq!(columns(&names, 9, true), "a    bb\nccc  d\n");
        let mut out = String::new();
        indent(&mut out, 5, 9);
        assert_eq!(out, "\t ");
        assert_eq!(commas(&names, 20), "a, bb, ccc, d\n");
    }
}
