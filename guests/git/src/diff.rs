//! Line diffs as git prints them: unified hunks (`similar`'s Myers, with
//! git's hunk headers and function-name context), `--stat` and the
//! insertion/deletion counts of commit summaries.

use std::fmt::Write as _;

use similar::{Algorithm, DiffOp};

/// What git calls binary: a NUL in the first 8000 bytes.
pub fn is_binary(data: &[u8]) -> bool {
    data.iter().take(8000).any(|&b| b == 0)
}

pub fn lines(data: &[u8]) -> Vec<&[u8]> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, &b) in data.iter().enumerate() {
        if b == b'\n' {
            out.push(&data[start..=i]);
            start = i + 1;
        }
    }
    if start < data.len() {
        out.push(&data[start..]);
    }
    out
}

pub fn ops<'a>(old: &'a [&'a [u8]], new: &'a [&'a [u8]]) -> Vec<DiffOp> {
    similar::capture_diff_slices(Algorithm::Myers, old, new)
}

/// (insertions, deletions) between two texts.
pub fn counts(old: &[u8], new: &[u8]) -> (usize, usize) {
    let (a, b) = (lines(old), lines(new));
    let mut ins = 0;
    let mut del = 0;
    for op in ops(&a, &b) {
        match op {
            DiffOp::Insert { new_len, .. } => ins += new_len,
            DiffOp::Delete { old_len, .. } => del += old_len,
            DiffOp::Replace {
                old_len, new_len, ..
            } => {
                ins += new_len;
                del += old_len;
            }
            DiffOp::Equal { .. } => {}
        }
    }
    (ins, del)
}

fn range(start: usize, len: usize) -> String {
    match len {
        0 => format!("{},0", start),
        1 => format!("{}", start + 1),
        _ => format!("{},{}", start + 1, len),
    }
}

/// git's default hunk context: the nearest line above the hunk starting
/// with a letter, `_` or `$`.
fn funcname(old: &[&[u8]], before: usize) -> String {
    for line in old[..before].iter().rev() {
        if line
            .first()
            .is_some_and(|c| c.is_ascii_alphabetic() || *c == b'_' || *c == b'$')
        {
            let text = String::from_utf8_lossy(line);
            let t = text.trim_end();
            let cut: String = t.chars().take(80).collect();
            return format!(" {}", cut.trim_end());
        }
    }
    String::new()
}

fn push_line(out: &mut Vec<u8>, sign: u8, line: &[u8]) {
    out.push(sign);
    out.extend_from_slice(line);
    if !line.ends_with(b"\n") {
        out.extend_from_slice(b"\n\\ No newline at end of file\n");
    }
}

/// The hunks of a unified diff with `context` lines.
pub fn hunks(old: &[u8], new: &[u8], context: usize) -> Vec<u8> {
    let (a, b) = (lines(old), lines(new));
    let mut out = Vec::new();
    for group in similar::group_diff_ops(ops(&a, &b), context) {
        let (Some(first), Some(last)) = (group.first(), group.last()) else {
            continue;
        };
        let old_start = first.old_range().start;
        let new_start = first.new_range().start;
        let old_len = last.old_range().end - old_start;
        let new_len = last.new_range().end - new_start;
        let header = format!(
            "@@ -{} +{} @@{}\n",
            range(old_start, old_len),
            range(new_start, new_len),
            funcname(&a, old_start)
        );
        out.extend_from_slice(header.as_bytes());
        for op in &group {
            match *op {
                DiffOp::Equal { old_index, len, .. } => {
                    for line in &a[old_index..old_index + len] {
                        push_line(&mut out, b' ', line);
                    }
                }
                DiffOp::Delete {
                    old_index, old_len, ..
                } => {
                    for line in &a[old_index..old_index + old_len] {
                        push_line(&mut out, b'-', line);
                    }
                }
                DiffOp::Insert {
                    new_index, new_len, ..
                } => {
                    for line in &b[new_index..new_index + new_len] {
                        push_line(&mut out, b'+', line);
                    }
                }
                DiffOp::Replace {
                    old_index,
                    old_len,
                    new_index,
                    new_len,
                } => {
                    for line in &a[old_index..old_index + old_len] {
                        push_line(&mut out, b'-', line);
                    }
                    for line in &b[new_index..new_index + new_len] {
                        push_line(&mut out, b'+', line);
                    }
                }
            }
        }
    }
    out
}

/// One file of a `--stat`.
pub struct StatLine {
    pub name: String,
    pub ins: usize,
    pub del: usize,
    /// (old size, new size) when binary.
    pub binary: Option<(usize, usize)>,
}

/// `--stat`'s table and summary line.
pub fn stat(files: &[StatLine]) -> String {
    let mut out = String::new();
    let name_w = files
        .iter()
        .map(|f| f.name.chars().count())
        .max()
        .unwrap_or(0);
    let max_change = files.iter().map(|f| f.ins + f.del).max().unwrap_or(0);
    let count_w = files
        .iter()
        .map(|f| match f.binary {
            Some(_) => 3,
            None => (f.ins + f.del).to_string().len(),
        })
        .max()
        .unwrap_or(1);
    // git fits the line into 80 columns.
    let graph_w = 80usize
        .saturating_sub(name_w + count_w + 6)
        .max(1)
        .min(max_change.max(1));
    for f in files {
        match f.binary {
            Some((a, b)) => {
                let _ = writeln!(
                    out,
                    " {:<name_w$} | {:>count_w$} {a} -> {b} bytes",
                    f.name, "Bin"
                );
            }
            None => {
                let total = f.ins + f.del;
                let (mut p, mut m) = (f.ins, f.del);
                if max_change > graph_w {
                    p = scale(f.ins, max_change, graph_w);
                    m = scale(f.del, max_change, graph_w);
                }
                let graph = format!("{}{}", "+".repeat(p), "-".repeat(m));
                let line = format!(" {:<name_w$} | {:>count_w$} {graph}", f.name, total);
                let _ = writeln!(out, "{}", line.trim_end());
            }
        }
    }
    out.push_str(&summary(files));
    out
}

fn scale(n: usize, max: usize, width: usize) -> usize {
    if n == 0 {
        return 0;
    }
    (n * width / max).max(1)
}

/// ` 2 files changed, 3 insertions(+), 1 deletion(-)`.
pub fn summary(files: &[StatLine]) -> String {
    let ins: usize = files.iter().map(|f| f.ins).sum();
    let del: usize = files.iter().map(|f| f.del).sum();
    let n = files.len();
    let mut s = format!(" {n} file{} changed", if n == 1 { "" } else { "s" });
    if ins > 0 || del == 0 {
        let _ = write!(s, ", {ins} insertion{}(+)", if ins == 1 { "" } else { "s" });
    }
    if del > 0 || ins == 0 {
        let _ = write!(s, ", {del} deletion{}(-)", if del == 1 { "" } else { "s" });
    }
    s.push('\n');
    s
}
