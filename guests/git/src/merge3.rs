//! A three-way line merge (diff3): the changes from `base` to each side,
//! applied where only one side changed, or where both made the same change;
//! elsewhere a conflict, marked as git marks it (its default `merge` style,
//! with the lines both sides share at either end of a conflict moved out of
//! it, as git's "zealous" level does).

use similar::{Algorithm, DiffOp};

/// One side's change: base lines `start..end` become `lines`.
struct Hunk<'a> {
    start: usize,
    end: usize,
    lines: Vec<&'a [u8]>,
}

fn split(data: &[u8]) -> Vec<&[u8]> {
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

fn hunks<'a>(base: &[&'a [u8]], side: &[&'a [u8]]) -> Vec<Hunk<'a>> {
    let mut out = Vec::new();
    for op in similar::capture_diff_slices(Algorithm::Myers, base, side) {
        let (s, e, ns, ne) = match op {
            DiffOp::Equal { .. } => continue,
            DiffOp::Delete {
                old_index,
                old_len,
                new_index,
            } => (old_index, old_index + old_len, new_index, new_index),
            DiffOp::Insert {
                old_index,
                new_index,
                new_len,
            } => (old_index, old_index, new_index, new_index + new_len),
            DiffOp::Replace {
                old_index,
                old_len,
                new_index,
                new_len,
            } => (
                old_index,
                old_index + old_len,
                new_index,
                new_index + new_len,
            ),
        };
        out.push(Hunk {
            start: s,
            end: e,
            lines: side[ns..ne].to_vec(),
        });
    }
    out
}

/// `base[start..end]` with the hunks (all inside that range) applied.
fn apply<'a>(base: &[&'a [u8]], start: usize, end: usize, hs: &[&Hunk<'a>]) -> Vec<&'a [u8]> {
    let mut out = Vec::new();
    let mut at = start;
    for h in hs {
        out.extend_from_slice(&base[at..h.start]);
        out.extend_from_slice(&h.lines);
        at = h.end;
    }
    out.extend_from_slice(&base[at..end]);
    out
}

pub struct Merged {
    pub data: Vec<u8>,
    pub conflicts: usize,
}

/// Merges `ours` and `theirs` against `base`; conflicts are marked with
/// `ours_label` and `theirs_label`.
pub fn merge(
    base: &[u8],
    ours: &[u8],
    theirs: &[u8],
    ours_label: &str,
    theirs_label: &str,
) -> Merged {
    let b = split(base);
    let (o, t) = (split(ours), split(theirs));
    let ho = hunks(&b, &o);
    let ht = hunks(&b, &t);
    let mut out: Vec<u8> = Vec::new();
    let mut conflicts = 0;
    let (mut i, mut j, mut at) = (0, 0, 0);
    while i < ho.len() || j < ht.len() {
        // The next region: the first hunk of either side, grown by every
        // hunk of either side that overlaps or touches it (xdiff counts
        // adjacent changes as overlapping).
        let start = match (ho.get(i), ht.get(j)) {
            (Some(a), Some(c)) => a.start.min(c.start),
            (Some(a), None) => a.start,
            (None, Some(c)) => c.start,
            (None, None) => break,
        };
        let mut end = start;
        let (mut ni, mut nj) = (i, j);
        loop {
            if ni < ho.len() && ho[ni].start <= end {
                end = end.max(ho[ni].end);
                ni += 1;
            } else if nj < ht.len() && ht[nj].start <= end {
                end = end.max(ht[nj].end);
                nj += 1;
            } else {
                break;
            }
        }
        for l in &b[at..start] {
            out.extend_from_slice(l);
        }
        let os: Vec<&Hunk> = ho[i..ni].iter().collect();
        let ts: Vec<&Hunk> = ht[j..nj].iter().collect();
        let ours_text = apply(&b, start, end, &os);
        let theirs_text = apply(&b, start, end, &ts);
        if ts.is_empty() || ours_text == theirs_text {
            ours_text.iter().for_each(|l| out.extend_from_slice(l));
        } else if os.is_empty() {
            theirs_text.iter().for_each(|l| out.extend_from_slice(l));
        } else {
            conflicts += 1;
            let pre = ours_text
                .iter()
                .zip(&theirs_text)
                .take_while(|(a, b)| a == b)
                .count();
            let max_suf = ours_text.len().min(theirs_text.len()) - pre;
            let suf = ours_text
                .iter()
                .rev()
                .zip(theirs_text.iter().rev())
                .take(max_suf)
                .take_while(|(a, b)| a == b)
                .count();
            ours_text[..pre]
                .iter()
                .for_each(|l| out.extend_from_slice(l));
            out.extend_from_slice(format!("<<<<<<< {ours_label}\n").as_bytes());
            for l in &ours_text[pre..ours_text.len() - suf] {
                out.extend_from_slice(l);
                if !l.ends_with(b"\n") {
                    out.push(b'\n');
                }
            }
            out.extend_from_slice(b"=======\n");
            for l in &theirs_text[pre..theirs_text.len() - suf] {
                out.extend_from_slice(l);
                if !l.ends_with(b"\n") {
                    out.push(b'\n');
                }
            }
            out.extend_from_slice(format!(">>>>>>> {theirs_label}\n").as_bytes());
            ours_text[ours_text.len() - suf..]
                .iter()
                .for_each(|l| out.extend_from_slice(l));
        }
        at = end;
        i = ni;
        j = nj;
    }
    for l in &b[at..] {
        out.extend_from_slice(l);
    }
    Merged {
        data: out,
        conflicts,
    }
}
