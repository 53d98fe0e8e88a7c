//! `find` (glob) and `grep` (literal or regex) over a subtree, in a
//! deterministic order: depth-first, entries sorted by name.

use globset::{Glob, GlobBuilder, GlobMatcher};
use regex::{Regex, RegexBuilder};
use rusqlite::Connection;

use crate::content;
use crate::error::{Errno, FsError, Result};
use crate::path::WsPath;
use crate::tree::{self, Node, NodeKind};
use crate::types::{FindEntry, FindPage, GrepMatch, GrepOptions, GrepPage, Page};
use crate::workspace::Workspace;

/// Bytes inspected for a NUL to decide a file is binary (as git and grep do).
const BINARY_SNIFF: usize = 8000;

/// Deepest level a walk descends to. Paths cap depth at 2048 for anything
/// created by path, but renames can nest deeper; stay off the stack limit.
const MAX_WALK_DEPTH: usize = 2048;

/// Visits every node under `dir` (not following symlinks), pre-order.
/// Recursion depth is bounded by MAX_PATH / 2 components.
/// `visit` gets the path relative to `dir` and returns whether to go on.
fn walk(
    c: &Connection,
    dir: i64,
    max_depth: usize,
    visit: &mut dyn FnMut(&str, &Node) -> Result<bool>,
) -> Result<bool> {
    walk_rec(c, dir, "", 1, max_depth, visit)
}

fn walk_rec(
    c: &Connection,
    dir: i64,
    prefix: &str,
    depth: usize,
    max_depth: usize,
    visit: &mut dyn FnMut(&str, &Node) -> Result<bool>,
) -> Result<bool> {
    for (name, node) in tree::list(c, dir, 0, None)? {
        let rel = if prefix.is_empty() {
            name
        } else {
            format!("{prefix}/{name}")
        };
        if !visit(&rel, &node)? {
            return Ok(false);
        }
        if node.kind == NodeKind::Directory
            && depth < max_depth.min(MAX_WALK_DEPTH)
            && !walk_rec(c, node.id, &rel, depth + 1, max_depth, visit)?
        {
            return Ok(false);
        }
    }
    Ok(true)
}

fn compile_glob(pattern: &str, shown: &str) -> Result<GlobMatcher> {
    GlobBuilder::new(pattern)
        .literal_separator(true)
        .backslash_escape(true)
        .build()
        .map(|g: Glob| g.compile_matcher())
        .map_err(|e| {
            FsError::custom(
                Errno::EINVAL,
                shown,
                format!("invalid argument: bad glob pattern {pattern:?}: {e}"),
            )
        })
}

/// How deep a glob can reach: unbounded with `**`, else its component count.
fn glob_depth(pattern: &str) -> usize {
    if pattern.contains("**") {
        usize::MAX
    } else {
        pattern.split('/').filter(|s| !s.is_empty()).count()
    }
}

impl Workspace {
    /// Paths under `dir` whose relative path matches the glob `pattern`
    /// (`*` and `?` stay within one component, `**` crosses them, plus
    /// `[...]` and `{a,b}`). Symlinks are listed, not followed.
    pub fn find(&self, dir: &str, pattern: &str, page: Page) -> Result<FindPage> {
        self.audited("find", dir, || Some(serde_json::json!({"pattern": pattern, "offset": page.offset, "limit": page.limit})), || {
            let p = WsPath::parse(dir)?;
            let shown = p.to_string();
            let pattern = pattern.trim_start_matches("./").trim_start_matches('/');
            if pattern.is_empty() {
                return Err(FsError::custom(
                    Errno::EINVAL,
                    &shown,
                    "invalid argument: empty glob pattern (use ** to match everything)",
                ));
            }
            let matcher = compile_glob(pattern, &shown)?;
            let max_depth = glob_depth(pattern);
            self.read_tx(|c| {
                let chain = tree::resolve_dir(c, &p)?;
                let want = page.limit.map(|l| page.offset.saturating_add(l));
                let mut seen = 0u64;
                let mut entries = Vec::new();
                let mut more = false;
                walk(c, chain.id(), max_depth, &mut |rel, node| {
                    if !matcher.is_match(rel) {
                        return Ok(true);
                    }
                    if want.is_some_and(|w| seen >= w) {
                        more = true;
                        return Ok(false);
                    }
                    if seen >= page.offset {
                        entries.push(FindEntry {
                            path: p.join_relative(rel),
                            kind: node.kind,
                        });
                    }
                    seen += 1;
                    Ok(true)
                })?;
                Ok(FindPage {
                    entries,
                    next_offset: more.then_some(seen),
                })
            })
        })
    }

    /// Lines matching `query` in the files under `root` (or in `root`
    /// itself if it is a file). Binary files are skipped and counted.
    pub fn grep(&self, root: &str, query: &str, opts: &GrepOptions) -> Result<GrepPage> {
        self.audited("grep", root, || Some(serde_json::json!({"query": crate::audit::summarize_text(query), "regex": opts.regex, "ignore_case": opts.ignore_case, "include": opts.include})), || {
            let p = WsPath::parse(root)?;
            let shown = p.to_string();
            let re = build_regex(query, opts, &shown)?;
            let include = opts
                .include
                .as_deref()
                .map(|g| compile_glob(g, &shown).map(|m| (m, g.contains('/'))))
                .transpose()?;
            let context = opts.context as usize;
            let page = opts.page;
            self.read_tx(|c| {
                let chain = tree::resolve_existing(c, &p, true)?;
                let want = page.limit.map(|l| page.offset.saturating_add(l));
                let mut state = GrepState {
                    re: &re,
                    context,
                    offset: page.offset,
                    want,
                    seen: 0,
                    matches: Vec::new(),
                    more: false,
                    binary: 0,
                };
                match chain.last() {
                    Some(step) if step.node.kind == NodeKind::File => {
                        state.scan_file(c, &shown, &step.node)?;
                    }
                    _ => {
                        walk(c, chain.id(), usize::MAX, &mut |rel, node| {
                            if node.kind != NodeKind::File {
                                return Ok(true);
                            }
                            if let Some((glob, by_path)) = &include {
                                let subject = if *by_path {
                                    rel
                                } else {
                                    rel.rsplit('/').next().unwrap_or(rel)
                                };
                                if !glob.is_match(subject) {
                                    return Ok(true);
                                }
                            }
                            state.scan_file(c, &p.join_relative(rel), node)
                        })?;
                    }
                }
                Ok(GrepPage {
                    next_offset: state.more.then_some(state.seen),
                    matches: state.matches,
                    binary_files_skipped: state.binary,
                })
            })
        })
    }
}

fn build_regex(query: &str, opts: &GrepOptions, shown: &str) -> Result<Regex> {
    if query.is_empty() {
        return Err(FsError::custom(
            Errno::EINVAL,
            shown,
            "invalid argument: empty grep query",
        ));
    }
    let pattern = if opts.regex {
        query.to_owned()
    } else {
        regex::escape(query)
    };
    RegexBuilder::new(&pattern)
        .case_insensitive(opts.ignore_case)
        .size_limit(16 << 20)
        .build()
        .map_err(|e| {
            FsError::custom(
                Errno::EINVAL,
                shown,
                format!(
                    "invalid argument: bad regular expression {query:?}: {}",
                    one_line(&e.to_string())
                ),
            )
        })
}

struct GrepState<'a> {
    re: &'a Regex,
    context: usize,
    offset: u64,
    want: Option<u64>,
    seen: u64,
    matches: Vec<GrepMatch>,
    more: bool,
    binary: u64,
}

impl GrepState<'_> {
    /// Scans one file; returns false once the page is full.
    fn scan_file(&mut self, c: &Connection, path: &str, node: &Node) -> Result<bool> {
        let data = content::read_range(c, node.id, node.size, 0, None)?;
        if data[..data.len().min(BINARY_SNIFF)].contains(&0) {
            self.binary += 1;
            return Ok(true);
        }
        let text = String::from_utf8_lossy(&data);
        let lines: Vec<&str> = text
            .split('\n')
            .map(|l| l.strip_suffix('\r').unwrap_or(l))
            .collect();
        // A trailing newline does not start another line.
        let count = if text.ends_with('\n') {
            lines.len() - 1
        } else {
            lines.len()
        };
        for (i, line) in lines[..count].iter().enumerate() {
            if !self.re.is_match(line) {
                continue;
            }
            if self.want.is_some_and(|w| self.seen >= w) {
                self.more = true;
                return Ok(false);
            }
            if self.seen >= self.offset {
                let from = i.saturating_sub(self.context);
                let to = (i + 1 + self.context).min(count);
                self.matches.push(GrepMatch {
                    path: path.to_owned(),
                    line_number: i as u64 + 1,
                    line: (*line).to_owned(),
                    before: lines[from..i].iter().map(|s| (*s).to_owned()).collect(),
                    after: lines[i + 1..to].iter().map(|s| (*s).to_owned()).collect(),
                });
            }
            self.seen += 1;
        }
        Ok(true)
    }
}

/// The regex crate's errors draw a caret diagram over several lines; keep
/// the message on one line so it reads well in a CLI or a tool result.
fn one_line(msg: &str) -> String {
    let lines: Vec<&str> = msg
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    match lines.iter().find(|l| l.starts_with("error:")) {
        Some(err) => err.trim_start_matches("error:").trim().to_owned(),
        None => lines.join(" "),
    }
}
