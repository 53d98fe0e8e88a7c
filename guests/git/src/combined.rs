//! git's combined diff (`diff --cc`) of a result against two parents: a
//! column of `+`/`-`/` ` per parent, lines lost from a parent shown where
//! they were, `@@@ -a,b -c,d +e,f @@@` hunks with 3 lines of context.

use std::fmt::Write as _;

use similar::DiffOp;

use crate::diff::{lines, ops};

/// One row: a result line (with, per parent, whether it is new against
/// that parent) or a line lost from some parents.
struct Row<'a> {
    text: &'a [u8],
    /// Per parent: `+` (added against it), `-` (lost from it) or ` `.
    cols: [u8; 2],
    in_result: bool,
}

impl Row<'_> {
    fn changed(&self) -> bool {
        self.cols != [b' ', b' ']
    }
}

/// For each result line, whether it is added against `parent`; and the
/// parent's lost lines, keyed by the result line they come before.
fn against<'a>(parent: &'a [&'a [u8]], result: &[&[u8]]) -> (Vec<bool>, Vec<Vec<&'a [u8]>>) {
    let mut added = vec![true; result.len()];
    let mut lost: Vec<Vec<&[u8]>> = vec![Vec::new(); result.len() + 1];
    for op in ops(parent, result) {
        match op {
            DiffOp::Equal { new_index, len, .. } => added[new_index..new_index + len].fill(false),
            DiffOp::Delete {
                old_index,
                old_len,
                new_index,
            } => lost[new_index].extend(&parent[old_index..old_index + old_len]),
            DiffOp::Replace {
                old_index,
                old_len,
                new_index,
                ..
            } => lost[new_index].extend(&parent[old_index..old_index + old_len]),
            DiffOp::Insert { .. } => {}
        }
    }
    (added, lost)
}

fn rows<'a>(p1: &'a [&'a [u8]], p2: &'a [&'a [u8]], result: &'a [&'a [u8]]) -> Vec<Row<'a>> {
    let (add1, lost1) = against(p1, result);
    let (add2, lost2) = against(p2, result);
    let mut out = Vec::new();
    for i in 0..=result.len() {
        // A line both parents lost here is one `--` row.
        let mut other: Vec<&[u8]> = lost2[i].clone();
        for l in &lost1[i] {
            let both = other.iter().position(|o| o == l);
            let cols = match both {
                Some(k) => {
                    other.remove(k);
                    [b'-', b'-']
                }
                None => [b'-', b' '],
            };
            out.push(Row {
                text: l,
                cols,
                in_result: false,
            });
        }
        for l in other {
            out.push(Row {
                text: l,
                cols: [b' ', b'-'],
                in_result: false,
            });
        }
        if let Some(text) = result.get(i) {
            let col = |added: bool| if added { b'+' } else { b' ' };
            out.push(Row {
                text,
                cols: [col(add1[i]), col(add2[i])],
                in_result: true,
            });
        }
    }
    out
}

/// Whether row `r` consumes a line of parent `p` (its own or kept).
fn in_parent(r: &Row, p: usize) -> bool {
    if r.in_result {
        r.cols[p] == b' '
    } else {
        r.cols[p] == b'-'
    }
}

/// The hunks of the combined diff (empty when nothing differs).
pub fn hunks(p1: &[u8], p2: &[u8], result: &[u8], context: usize) -> Vec<u8> {
    let (a, b, r) = (lines(p1), lines(p2), lines(result));
    let rows = rows(&a, &b, &r);
    let changed: Vec<usize> = (0..rows.len()).filter(|&i| rows[i].changed()).collect();
    let mut groups: Vec<(usize, usize)> = Vec::new();
    for &i in &changed {
        let start = i.saturating_sub(context);
        let end = (i + context + 1).min(rows.len());
        match groups.last_mut() {
            Some(g) if start <= g.1 => g.1 = end,
            _ => groups.push((start, end)),
        }
    }
    let mut out = String::new();
    let mut body = Vec::new();
    for (start, end) in groups {
        let first_line =
            |keep: &dyn Fn(&Row) -> bool| 1 + rows[..start].iter().filter(|r| keep(r)).count();
        let count =
            |keep: &dyn Fn(&Row) -> bool| rows[start..end].iter().filter(|r| keep(r)).count();
        let p0 = |r: &Row| in_parent(r, 0);
        let p1 = |r: &Row| in_parent(r, 1);
        let res = |r: &Row| r.in_result;
        out.clear();
        let _ = writeln!(
            out,
            "@@@ -{},{} -{},{} +{},{} @@@",
            first_line(&p0),
            count(&p0),
            first_line(&p1),
            count(&p1),
            first_line(&res),
            count(&res)
        );
        body.extend_from_slice(out.as_bytes());
        for row in &rows[start..end] {
            body.extend_from_slice(&row.cols);
            body.extend_from_slice(row.text);
            if !row.text.ends_with(b"\n") {
                body.extend_from_slice(b"\n\\ No newline at end of file\n");
            }
        }
    }
    body
}
