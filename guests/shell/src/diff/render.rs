//! Writing the changes between two files in diff's formats: normal (`2c2`),
//! unified (`-u`) and context (`-c`), with GNU's hunk grouping, ranges and
//! "\ No newline at end of file" markers.

use super::compare::Change;
use super::lines::Text;

/// A change and whether `-B` lets it pass (all its lines are blank).
#[derive(Clone, Copy)]
pub struct Marked {
    pub change: Change,
    pub ignorable: bool,
}

const NO_NEWLINE: &[u8] = b"\\ No newline at end of file\n";

fn line(out: &mut Vec<u8>, prefix: &[u8], text: &Text, i: usize) {
    out.extend_from_slice(prefix);
    out.extend_from_slice(text.lines[i]);
    out.push(b'\n');
    if text.lacks_newline(i) {
        out.extend_from_slice(NO_NEWLINE);
    }
}

/// Groups of changes printed as one hunk: a change joins the previous one when
/// fewer than `2 * context + 1` unchanged lines lie between (GNU's `find_hunk`; an
/// ignorable change joins within `context`). Groups of only ignorable changes go.
pub fn hunks(changes: &[Marked], context: usize) -> Vec<&[Marked]> {
    let mut out = Vec::new();
    let mut start = 0;
    for k in 0..changes.len() {
        let c = changes[k].change;
        let top0 = c.line0 + c.deleted;
        let ends = match changes.get(k + 1) {
            None => true,
            Some(next) => {
                let thresh = if next.ignorable {
                    context
                } else {
                    2 * context + 1
                };
                next.change.line0 - top0 >= thresh
            }
        };
        if ends {
            let group = &changes[start..=k];
            if group.iter().any(|m| !m.ignorable) {
                out.push(group);
            }
            start = k + 1;
        }
    }
    out
}

fn normal_range(first: usize, count: usize) -> String {
    // 1-based; an empty range names the line before it.
    match count {
        0 => format!("{first}"),
        1 => format!("{}", first + 1),
        _ => format!("{},{}", first + 1, first + count),
    }
}

pub fn normal(out: &mut Vec<u8>, old: &Text, new: &Text, changes: &[Marked]) {
    for m in changes.iter().filter(|m| !m.ignorable) {
        let c = m.change;
        let op = match (c.deleted, c.inserted) {
            (_, 0) => 'd',
            (0, _) => 'a',
            _ => 'c',
        };
        let header = format!(
            "{}{op}{}\n",
            normal_range(c.line0, c.deleted),
            normal_range(c.line1, c.inserted)
        );
        out.extend_from_slice(header.as_bytes());
        for i in c.line0..c.line0 + c.deleted {
            line(out, b"< ", old, i);
        }
        if op == 'c' {
            out.extend_from_slice(b"---\n");
        }
        for j in c.line1..c.line1 + c.inserted {
            line(out, b"> ", new, j);
        }
    }
}

/// The lines a hunk shows, with its context: `[first0, last0)` and `[first1, last1)`.
fn span(hunk: &[Marked], context: usize, old: &Text, new: &Text) -> [usize; 4] {
    let (first, last) = (hunk[0].change, hunk[hunk.len() - 1].change);
    [
        first.line0.saturating_sub(context),
        (last.line0 + last.deleted + context).min(old.lines.len()),
        first.line1.saturating_sub(context),
        (last.line1 + last.inserted + context).min(new.lines.len()),
    ]
}

fn unified_range(first: usize, end: usize) -> String {
    match end - first {
        0 => format!("{first},0"),
        1 => format!("{}", first + 1),
        n => format!("{},{n}", first + 1),
    }
}

pub fn unified(out: &mut Vec<u8>, old: &Text, new: &Text, hunks: &[&[Marked]], context: usize) {
    for hunk in hunks {
        let [first0, last0, first1, last1] = span(hunk, context, old, new);
        let header = format!(
            "@@ -{} +{} @@\n",
            unified_range(first0, last0),
            unified_range(first1, last1)
        );
        out.extend_from_slice(header.as_bytes());
        let mut i = first0;
        for m in hunk.iter() {
            let c = m.change;
            while i < c.line0 {
                line(out, b" ", old, i);
                i += 1;
            }
            for k in c.line0..c.line0 + c.deleted {
                line(out, b"-", old, k);
            }
            for k in c.line1..c.line1 + c.inserted {
                line(out, b"+", new, k);
            }
            i = c.line0 + c.deleted;
        }
        while i < last0 {
            line(out, b" ", old, i);
            i += 1;
        }
    }
}

fn context_range(first: usize, end: usize) -> String {
    if end <= first + 1 {
        format!("{end}")
    } else {
        format!("{},{end}", first + 1)
    }
}

/// One side of a context hunk: its range line, then its lines when any of them
/// changed, marked `-`/`+` (only deleted or only inserted) or `!` (replaced).
fn context_side(
    out: &mut Vec<u8>,
    text: &Text,
    hunk: &[Marked],
    old_side: bool,
    range: [usize; 2],
) {
    let (stars, tail) = if old_side {
        ("***", "****")
    } else {
        ("---", "----")
    };
    let header = format!("{stars} {} {tail}\n", context_range(range[0], range[1]));
    out.extend_from_slice(header.as_bytes());
    let count = |c: &Change| if old_side { c.deleted } else { c.inserted };
    if !hunk.iter().any(|m| count(&m.change) > 0) {
        return;
    }
    let mut i = range[0];
    for m in hunk {
        let c = m.change;
        let start = if old_side { c.line0 } else { c.line1 };
        while i < start {
            line(out, b"  ", text, i);
            i += 1;
        }
        let mark: &[u8] = match (c.deleted, c.inserted) {
            (0, _) => b"+ ",
            (_, 0) => b"- ",
            _ => b"! ",
        };
        for k in start..start + count(&c) {
            line(out, mark, text, k);
        }
        i = start + count(&c);
    }
    while i < range[1] {
        line(out, b"  ", text, i);
        i += 1;
    }
}

pub fn context(out: &mut Vec<u8>, old: &Text, new: &Text, hunks: &[&[Marked]], context: usize) {
    for hunk in hunks {
        let [first0, last0, first1, last1] = span(hunk, context, old, new);
        out.extend_from_slice(b"***************\n");
        context_side(out, old, hunk, true, [first0, last0]);
        context_side(out, new, hunk, false, [first1, last1]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges() {
        assert_eq!(normal_range(0, 1), "1");
        assert_eq!(normal_range(1, 2), "2,3");
        assert_eq!(normal_range(3, 0), "3");
        assert_eq!(unified_range(0, 0), "0,0");
        assert_eq!(unified_range(0, 3), "1,3");
        assert_eq!(unified_range(4, 5), "5");
        assert_eq!(context_range(0, 0), "0");
        assert_eq!(context_range(2, 5), "3,5");
    }
}
