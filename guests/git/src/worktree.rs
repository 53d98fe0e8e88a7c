//! The work tree as git sees it: its files (not `.git`), what `.gitignore`
//! files, `.git/info/exclude` and `core.excludesFile` ignore (gix-ignore
//! parses, gix-glob matches, with git's precedence: deeper files over
//! shallower, the last matching line wins), and blob ids of files.

use std::path::{Path, PathBuf};

use crate::meta::Meta;

use gix_glob::Pattern;
use gix_glob::pattern::Case;
use gix_glob::wildmatch::Mode as Wild;
use gix_hash::ObjectId;

use crate::error::Result;
use crate::odb::{self, Kind};

/// Ignore patterns of one source, matched relative to `base` (`""` or `dir/`).
struct Source {
    base: String,
    patterns: Vec<Pattern>,
}

pub struct Ignores {
    /// Lowest precedence first.
    sources: Vec<Source>,
    /// `ls-files --others` without `--exclude-standard`: nothing is ignored.
    off: bool,
}

fn parse(base: &str, bytes: &[u8]) -> Source {
    Source {
        base: base.to_owned(),
        patterns: gix_ignore::parse(bytes, false).map(|(p, _, _)| p).collect(),
    }
}

impl Ignores {
    pub fn load(work_tree: &Path, git_dir: &Path, excludes_file: Option<PathBuf>) -> Ignores {
        let mut sources = Vec::new();
        if let Some(f) = excludes_file.and_then(|p| std::fs::read(p).ok()) {
            sources.push(parse("", &f));
        }
        if let Ok(f) = std::fs::read(git_dir.join("info/exclude")) {
            sources.push(parse("", &f));
        }
        let mut ig = Ignores {
            sources,
            off: false,
        };
        ig.add_dir(work_tree, "");
        ig
    }

    /// Ignores nothing, reading no ignore file.
    pub fn none() -> Ignores {
        Ignores {
            sources: Vec::new(),
            off: true,
        }
    }

    /// Forgets the last `n` sources (a directory's, when leaving it).
    pub fn pop(&mut self, n: usize) {
        let keep = self.sources.len().saturating_sub(n);
        self.sources.truncate(keep);
    }

    /// Adds `DIR/.gitignore` (`dir` is `""` or `a/b/`).
    pub fn add_dir(&mut self, work_tree: &Path, dir: &str) -> usize {
        if self.off {
            return 0;
        }
        match std::fs::read(work_tree.join(dir).join(".gitignore")) {
            Ok(bytes) => {
                self.sources.push(parse(dir, &bytes));
                1
            }
            Err(_) => 0,
        }
    }

    /// Whether repository path `path` is ignored.
    pub fn is_ignored(&self, path: &str, is_dir: bool) -> bool {
        for source in self.sources.iter().rev() {
            let Some(rel) = path.strip_prefix(source.base.as_str()) else {
                continue;
            };
            let basename_start = rel.rfind('/').map(|i| i + 1);
            for p in source.patterns.iter().rev() {
                if p.matches_repo_relative_path(
                    rel.into(),
                    basename_start,
                    Some(is_dir),
                    Case::Sensitive,
                    Wild::NO_MATCH_SLASH_LITERAL,
                ) {
                    return !p.is_negative();
                }
            }
        }
        false
    }
}

/// A file of the work tree.
pub struct WorkFile {
    pub path: String,
    pub meta: Meta,
}

/// Files under `dir` (a repository path, `""` for all), sorted, with the
/// ignored ones left out unless `with_ignored`; also the untracked
/// directories' contents.
pub fn walk(
    work_tree: &Path,
    git_dir: &Path,
    ignores: &mut Ignores,
    dir: &str,
) -> Result<Vec<WorkFile>> {
    let mut out = Vec::new();
    walk_dir(work_tree, git_dir, ignores, dir, &mut out)?;
    out.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(out)
}

fn walk_dir(
    work_tree: &Path,
    git_dir: &Path,
    ignores: &mut Ignores,
    dir: &str,
    out: &mut Vec<WorkFile>,
) -> Result<()> {
    let added = if dir.is_empty() {
        0
    } else {
        ignores.add_dir(work_tree, dir)
    };
    let Ok(names) = crate::meta::list(&work_tree.join(dir)) else {
        return Ok(());
    };
    for (name, meta) in names {
        if name == ".git" {
            continue;
        }
        let path = format!("{dir}{name}");
        if meta.is_dir() {
            if work_tree.join(&path) == git_dir {
                continue;
            }
            if ignores.is_ignored(&path, true) {
                continue;
            }
            walk_dir(work_tree, git_dir, ignores, &format!("{path}/"), out)?;
        } else if !ignores.is_ignored(&path, false) {
            out.push(WorkFile { path, meta });
        }
    }
    ignores.pop(added);
    Ok(())
}

/// The mode git records for a file: 755 when its owner may execute it
/// (inside the workspace, whose modes are real), else 644. Where modes are
/// unknown (wasi:filesystem's `/tmp`) callers keep a staged file's mode.
/// The mode git sees for a work-tree file staged with mode `staged`: its
/// own, or `staged` where modes are unknown (as with core.fileMode=false).
pub fn mode_seen(meta: &Meta, staged: u32) -> u32 {
    if meta.mode.is_none() && !meta.is_symlink() && staged != 0o120000 {
        staged
    } else {
        mode_of(meta)
    }
}

pub fn mode_of(meta: &Meta) -> u32 {
    if meta.is_symlink() {
        0o120000
    } else if meta.executable() {
        0o100755
    } else {
        0o100644
    }
}

/// The blob content git stores for a work-tree file.
pub fn content(work_tree: &Path, path: &str, meta: &Meta) -> Result<Vec<u8>> {
    let full = work_tree.join(path);
    if meta.is_symlink() {
        let target = std::fs::read_link(&full)?;
        return Ok(target.to_string_lossy().into_owned().into_bytes());
    }
    Ok(std::fs::read(full)?)
}

pub fn blob_id(work_tree: &Path, path: &str, meta: &Meta) -> Result<ObjectId> {
    Ok(odb::hash(Kind::Blob, &content(work_tree, path, meta)?))
}

/// A path as git prints it with `core.quotePath` on: in double quotes with
/// C escapes (and octal for bytes outside printable ASCII) when it has any
/// such byte, a `"` or a `\` — or, with `quote_sp` (short status), a space.
/// `core.quotePath=false` (`QUOTE_HIGH` off) leaves bytes >= 0x80 as they are.
pub fn quote_path(path: &str, quote_sp: bool) -> String {
    let high = QUOTE_HIGH.with(|q| q.get());
    let special = |b: u8| b < 0x20 || b == 0x7f || (high && b >= 0x80) || b == b'"' || b == b'\\';
    if !path.bytes().any(|b| special(b) || (quote_sp && b == b' ')) {
        return path.to_owned();
    }
    let mut out: Vec<u8> = vec![b'"'];
    for b in path.bytes() {
        match b {
            b'"' => out.extend_from_slice(b"\\\""),
            b'\\' => out.extend_from_slice(b"\\\\"),
            b'\t' => out.extend_from_slice(b"\\t"),
            b'\n' => out.extend_from_slice(b"\\n"),
            b'\r' => out.extend_from_slice(b"\\r"),
            0x07 => out.extend_from_slice(b"\\a"),
            0x08 => out.extend_from_slice(b"\\b"),
            0x0b => out.extend_from_slice(b"\\v"),
            0x0c => out.extend_from_slice(b"\\f"),
            b if b < 0x20 || b == 0x7f || (high && b >= 0x80) => {
                out.extend_from_slice(format!("\\{b:03o}").as_bytes())
            }
            b => out.push(b),
        }
    }
    out.push(b'"');
    String::from_utf8_lossy(&out).into_owned()
}

thread_local! {
    /// `core.quotePath` (true unless configured false).
    pub static QUOTE_HIGH: std::cell::Cell<bool> = const { std::cell::Cell::new(true) };
}
