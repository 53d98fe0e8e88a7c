//! Comparing two files and writing the result (a header line in a directory
//! comparison, then the differences in the chosen format).

use std::path::Path;
use std::time::SystemTime;

use super::Run;
use super::compare::{self, Change};
use super::lines::{self, Text};
use super::options::{Format, Ignore};
use super::render::{self, Marked};
use super::side_by_side;

/// One side of a comparison: the name shown, and where the bytes come from.
pub struct Side<'a> {
    pub name: &'a str,
    /// `None` for `-`, the standard input; for `-N`, a missing file is empty.
    pub path: Option<&'a Path>,
    pub missing: bool,
}

/// GNU looks for a NUL in the first buffer it reads to call a file binary.
const BINARY_PROBE: usize = 4096;

fn looks_binary(bytes: &[u8]) -> bool {
    bytes[..bytes.len().min(BINARY_PROBE)].contains(&0)
}

impl Run {
    async fn load(&mut self, side: &Side<'_>) -> Option<(Vec<u8>, SystemTime)> {
        if side.missing {
            return Some((Vec::new(), SystemTime::UNIX_EPOCH));
        }
        let Some(path) = side.path else {
            return Some((self.stdin.clone(), SystemTime::now()));
        };
        let read = async {
            let mtime = self.fs.stat(path).await?.modified;
            Ok::<_, bashkit::Error>((self.fs.read_file(path).await?, mtime))
        };
        match read.await {
            Ok(loaded) => Some(loaded),
            Err(e) => {
                self.trouble(side.name, &e);
                None
            }
        }
    }

    /// Compare two files; `in_tree` adds the `diff -r a/x b/x` line GNU writes
    /// before each differing pair inside directories.
    pub async fn files(&mut self, old: Side<'_>, new: Side<'_>, in_tree: bool) {
        let Some((a, mtime_a)) = self.load(&old).await else {
            return;
        };
        let Some((b, mtime_b)) = self.load(&new).await else {
            return;
        };
        let (n0, n1) = (old.name, new.name);
        if a == b {
            if self.opts.report_identical {
                let line = format!("Files {n0} and {n1} are identical\n");
                self.out.extend_from_slice(line.as_bytes());
            }
            return;
        }
        if !self.opts.text && (looks_binary(&a) || looks_binary(&b)) {
            let line = if self.opts.brief {
                format!("Files {n0} and {n1} differ\n")
            } else {
                format!("Binary files {n0} and {n1} differ\n")
            };
            self.out.extend_from_slice(line.as_bytes());
            self.differ();
            return;
        }
        let (ta, tb) = (Text::split(&a), Text::split(&b));
        let context = match self.opts.format {
            Format::Normal | Format::SideBySide => 0,
            Format::Unified(n) | Format::Context(n) => n,
        };
        let marked = marked_changes(&ta, &tb, &self.opts.ignore, context);
        if marked.iter().all(|m| m.ignorable) {
            return;
        }
        self.differ();
        if self.opts.brief {
            let line = format!("Files {n0} and {n1} differ\n");
            self.out.extend_from_slice(line.as_bytes());
            return;
        }
        if in_tree {
            let mut line = String::from("diff");
            for s in &self.opts.switches {
                line.push(' ');
                line.push_str(s);
            }
            line.push_str(&format!(" {n0} {n1}\n"));
            self.out.extend_from_slice(line.as_bytes());
        }
        self.write(&ta, &tb, &marked, [(n0, mtime_a), (n1, mtime_b)]);
    }

    fn write(&mut self, a: &Text, b: &Text, marked: &[Marked], heads: [(&str, SystemTime); 2]) {
        let mut out = std::mem::take(&mut self.out);
        match self.opts.format {
            Format::Normal => render::normal(&mut out, a, b, marked),
            Format::SideBySide => {
                let layout = side_by_side::Layout {
                    width: self.opts.width,
                    suppress_common: self.opts.suppress_common,
                    left_column: self.opts.left_column,
                };
                side_by_side::render(&mut out, a, b, marked, &layout);
            }
            Format::Unified(n) => {
                self.header(&mut out, heads, ["---", "+++"]);
                render::unified(&mut out, a, b, &render::hunks(marked, n), n);
            }
            Format::Context(n) => {
                self.header(&mut out, heads, ["***", "---"]);
                render::context(&mut out, a, b, &render::hunks(marked, n), n);
            }
        }
        self.out = out;
    }

    /// `--- name\t2024-05-01 12:00:00.000000000 +0000`, or the `--label` given.
    fn header(&self, out: &mut Vec<u8>, heads: [(&str, SystemTime); 2], marks: [&str; 2]) {
        for (k, (name, mtime)) in heads.into_iter().enumerate() {
            let line = match self.opts.labels.get(k) {
                Some(label) => format!("{} {label}\n", marks[k]),
                None => {
                    let time = crate::local_time::in_zone(mtime, self.tz.as_deref());
                    let stamp = time.format("%Y-%m-%d %H:%M:%S%.9f %z");
                    format!("{} {name}\t{stamp}\n", marks[k])
                }
            };
            out.extend_from_slice(line.as_bytes());
        }
    }
}

/// The changes from `a` to `b`, each marked ignorable when `-B` lets it pass.
/// `context` is the lines of context the output shows: GNU keeps that many of the
/// identical lines at each end in the comparison (its "horizon"), which decides
/// where a change among repeated lines lands.
pub fn marked_changes(a: &Text, b: &Text, ignore: &Ignore, context: usize) -> Vec<Marked> {
    let ignore = *ignore;
    let (ia, ib) = lines::ids(a, b, &ignore);
    let blank = |text: &Text, from: usize, count: usize| {
        text.lines[from..from + count]
            .iter()
            .all(|l| lines::is_blank(l, &ignore))
    };
    let (prefix, suffix) = identical_ends(a, b);
    compare::changes(
        &ia,
        &ib,
        prefix.saturating_sub(context),
        suffix.saturating_sub(context),
    )
    .into_iter()
    .map(|change: Change| Marked {
        change,
        ignorable: ignore.blank_lines
            && blank(a, change.line0, change.deleted)
            && blank(b, change.line1, change.inserted),
    })
    .collect()
}

/// How many lines at the start, then at the end, are the same bytes in both files.
fn identical_ends(a: &Text, b: &Text) -> (usize, usize) {
    let same =
        |i: usize, j: usize| a.lines[i] == b.lines[j] && a.lacks_newline(i) == b.lacks_newline(j);
    let max = a.lines.len().min(b.lines.len());
    let prefix = (0..max).take_while(|&i| same(i, i)).count();
    let suffix = (0..max - prefix)
        .take_while(|&k| same(a.lines.len() - 1 - k, b.lines.len() - 1 - k))
        .count();
    (prefix, suffix)
}
