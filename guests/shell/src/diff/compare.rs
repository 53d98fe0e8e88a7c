//! Which lines changed: Myers' O(ND) comparison in linear space (the middle-snake
//! split GNU diff's `compareseq`/`diag` use), then GNU's `shift_boundaries`, which
//! slides each run of changes so that equivalent scripts print the same hunks GNU
//! prints (merged with neighbours where possible, else as far down as possible).
//! Lines `discard` sets aside first are changed without being compared.

use super::discard;

/// A change: `deleted` lines of the old file from `line0`, replaced by `inserted`
/// lines of the new file from `line1` (0-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Change {
    pub line0: usize,
    pub line1: usize,
    pub deleted: usize,
    pub inserted: usize,
}

/// The changes that turn `a` into `b`, where lines are equivalence-class ids.
/// `prefix` and `suffix` are the counts of leading and trailing lines that are
/// byte-identical in both files: GNU diff sets them aside before it compares, so
/// no change slides into them.
pub fn changes(a: &[u32], b: &[u32], prefix: usize, suffix: usize) -> Vec<Change> {
    let (ma, mb) = (&a[prefix..a.len() - suffix], &b[prefix..b.len() - suffix]);
    // One sentinel slot before and after each file (GNU pads `changed` the same way).
    let mut changed_a = vec![false; ma.len() + 2];
    let mut changed_b = vec![false; mb.len() + 2];
    let (kept_a, real_a) = undiscarded(ma, mb, &mut changed_a[1..]);
    let (kept_b, real_b) = undiscarded(mb, ma, &mut changed_b[1..]);
    Myers::new(&kept_a, &kept_b).compare(
        (&mut changed_a[1..], &real_a),
        (&mut changed_b[1..], &real_b),
    );
    shift_boundaries(ma, &mut changed_a, &changed_b);
    shift_boundaries(mb, &mut changed_b, &changed_a);
    let mut out = script(&changed_a[1..=ma.len()], &changed_b[1..=mb.len()]);
    for c in &mut out {
        c.line0 += prefix;
        c.line1 += prefix;
    }
    out
}

/// The lines of `lines` left after `discard` sets some aside (marked changed in
/// `changed`), and the index each had.
fn undiscarded(lines: &[u32], other: &[u32], changed: &mut [bool]) -> (Vec<u32>, Vec<usize>) {
    let classes = lines
        .iter()
        .chain(other)
        .max()
        .map_or(0, |m| *m as usize + 1);
    let mut counts = vec![0usize; classes];
    other.iter().for_each(|&id| counts[id as usize] += 1);
    let mut kept = Vec::with_capacity(lines.len());
    let mut real = Vec::with_capacity(lines.len());
    for (i, gone) in discard::discards(lines, &counts).into_iter().enumerate() {
        if gone {
            changed[i] = true;
        } else {
            kept.push(lines[i]);
            real.push(i);
        }
    }
    (kept, real)
}

struct Myers<'a> {
    a: &'a [u32],
    b: &'a [u32],
    /// Furthest x reached on each diagonal, forward and backward; diagonal `k` is
    /// at `k + offset`.
    fd: Vec<isize>,
    bd: Vec<isize>,
    offset: isize,
}

impl<'a> Myers<'a> {
    fn new(a: &'a [u32], b: &'a [u32]) -> Self {
        let size = a.len() + b.len() + 3;
        Myers {
            a,
            b,
            fd: vec![0; size],
            bd: vec![0; size],
            offset: b.len() as isize + 1,
        }
    }

    /// Mark the changed lines of `a[..]` and `b[..]`. An explicit stack instead of
    /// recursion: a long file with many changes would otherwise nest deeply.
    /// `real_*` maps an index of the compared lines to the file's line.
    fn compare(
        &mut self,
        (changed_a, real_a): (&mut [bool], &[usize]),
        (changed_b, real_b): (&mut [bool], &[usize]),
    ) {
        let mut stack = vec![(0, self.a.len(), 0, self.b.len())];
        while let Some((mut x0, mut x1, mut y0, mut y1)) = stack.pop() {
            while x0 < x1 && y0 < y1 && self.a[x0] == self.b[y0] {
                x0 += 1;
                y0 += 1;
            }
            while x1 > x0 && y1 > y0 && self.a[x1 - 1] == self.b[y1 - 1] {
                x1 -= 1;
                y1 -= 1;
            }
            if x0 == x1 {
                real_b[y0..y1].iter().for_each(|&y| changed_b[y] = true);
            } else if y0 == y1 {
                real_a[x0..x1].iter().for_each(|&x| changed_a[x] = true);
            } else {
                let (xm, ym) = self.middle_snake(x0, x1, y0, y1);
                stack.push((xm, x1, ym, y1));
                stack.push((x0, xm, y0, ym));
            }
        }
    }

    fn f(&self, k: isize) -> isize {
        self.fd[(k + self.offset) as usize]
    }
    fn set_f(&mut self, k: isize, x: isize) {
        self.fd[(k + self.offset) as usize] = x;
    }
    fn bk(&self, k: isize) -> isize {
        self.bd[(k + self.offset) as usize]
    }
    fn set_b(&mut self, k: isize, x: isize) {
        self.bd[(k + self.offset) as usize] = x;
    }

    /// A point on an optimal path through the box, from searching forward from its
    /// top-left and backward from its bottom-right until the two searches meet.
    fn middle_snake(&mut self, x0: usize, x1: usize, y0: usize, y1: usize) -> (usize, usize) {
        let (xoff, xlim, yoff, ylim) = (x0 as isize, x1 as isize, y0 as isize, y1 as isize);
        let (dmin, dmax) = (xoff - ylim, xlim - yoff);
        let (fmid, bmid) = (xoff - yoff, xlim - ylim);
        let (mut fmin, mut fmax, mut bmin, mut bmax) = (fmid, fmid, bmid, bmid);
        let odd = (fmid - bmid) & 1 != 0;
        self.set_f(fmid, xoff);
        self.set_b(bmid, xlim);
        loop {
            if fmin > dmin {
                fmin -= 1;
                self.set_f(fmin - 1, -1);
            } else {
                fmin += 1;
            }
            if fmax < dmax {
                fmax += 1;
                self.set_f(fmax + 1, -1);
            } else {
                fmax -= 1;
            }
            let mut d = fmax;
            while d >= fmin {
                let (tlo, thi) = (self.f(d - 1), self.f(d + 1));
                let mut x = if tlo >= thi { tlo + 1 } else { thi };
                let mut y = x - d;
                while x < xlim && y < ylim && self.a[x as usize] == self.b[y as usize] {
                    x += 1;
                    y += 1;
                }
                self.set_f(d, x);
                if odd && bmin <= d && d <= bmax && self.bk(d) <= x {
                    return (x as usize, y as usize);
                }
                d -= 2;
            }
            if bmin > dmin {
                bmin -= 1;
                self.set_b(bmin - 1, isize::MAX);
            } else {
                bmin += 1;
            }
            if bmax < dmax {
                bmax += 1;
                self.set_b(bmax + 1, isize::MAX);
            } else {
                bmax -= 1;
            }
            let mut d = bmax;
            while d >= bmin {
                let (tlo, thi) = (self.bk(d - 1), self.bk(d + 1));
                let mut x = if tlo < thi { tlo } else { thi - 1 };
                let mut y = x - d;
                while xoff < x && yoff < y && self.a[x as usize - 1] == self.b[y as usize - 1] {
                    x -= 1;
                    y -= 1;
                }
                self.set_b(d, x);
                if !odd && fmin <= d && d <= fmax && x <= self.f(d) {
                    return (x as usize, y as usize);
                }
                d -= 2;
            }
        }
    }
}

/// GNU diff's `shift_boundaries` for one file. `changed` and `other` have a
/// sentinel `false` at both ends; line `i` of `lines` is `changed[i + 1]`.
fn shift_boundaries(lines: &[u32], changed: &mut [bool], other: &[bool]) {
    let line = |i: usize| lines[i - 1];
    let i_end = lines.len() + 1;
    let (mut i, mut j) = (1usize, 1usize);
    loop {
        while i < i_end && !changed[i] {
            while other[j] {
                j += 1;
            }
            j += 1;
            i += 1;
        }
        if i == i_end {
            break;
        }
        let mut start = i;
        i += 1;
        while changed[i] {
            i += 1;
        }
        while other[j] {
            j += 1;
        }
        let mut corresponding;
        loop {
            let runlength = i - start;
            // Back, while the line before the run equals its last line.
            while start > 1 && line(start - 1) == line(i - 1) {
                start -= 1;
                changed[start] = true;
                i -= 1;
                changed[i] = false;
                while changed[start - 1] {
                    start -= 1;
                }
                j -= 1;
                while other[j] {
                    j -= 1;
                }
            }
            corresponding = if other[j - 1] { i } else { i_end };
            // Forward, while the run's first line equals the line after it.
            while i != i_end && line(start) == line(i) {
                changed[start] = false;
                start += 1;
                changed[i] = true;
                i += 1;
                while changed[i] {
                    i += 1;
                }
                j += 1;
                while other[j] {
                    j += 1;
                    corresponding = i;
                }
            }
            if runlength == i - start {
                break;
            }
        }
        // Back to where it lines up with a change in the other file, if it can.
        while corresponding < i {
            start -= 1;
            changed[start] = true;
            i -= 1;
            changed[i] = false;
            j -= 1;
            while other[j] {
                j -= 1;
            }
        }
    }
}

/// The changes, from the per-line flags (GNU's `build_script`, in order).
fn script(changed_a: &[bool], changed_b: &[bool]) -> Vec<Change> {
    let (mut i, mut j) = (0, 0);
    let mut out = Vec::new();
    while i < changed_a.len() || j < changed_b.len() {
        if changed_a.get(i) == Some(&true) || changed_b.get(j) == Some(&true) {
            let (line0, line1) = (i, j);
            while changed_a.get(i) == Some(&true) {
                i += 1;
            }
            while changed_b.get(j) == Some(&true) {
                j += 1;
            }
            out.push(Change {
                line0,
                line1,
                deleted: i - line0,
                inserted: j - line1,
            });
        } else {
            i += 1;
            j += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(s: &str) -> Vec<u32> {
        s.bytes().map(u32::from).collect()
    }

    fn apply(a: &[u32], b: &[u32], changes: &[Change]) -> Vec<u32> {
        let mut out = Vec::new();
        let mut i = 0;
        for c in changes {
            out.extend_from_slice(&a[i..c.line0]);
            out.extend_from_slice(&b[c.line1..c.line1 + c.inserted]);
            i = c.line0 + c.deleted;
        }
        out.extend_from_slice(&a[i..]);
        out
    }

    #[test]
    fn edits_reproduce_the_new_file() {
        for (x, y) in [
            ("abcabba", "cbabac"),
            ("", "abc"),
            ("abc", ""),
            ("aaaa", "aa"),
        ] {
            let (a, b) = (ids(x), ids(y));
            assert_eq!(apply(&a, &b, &changes(&a, &b, 0, 0)), b, "{x} -> {y}");
        }
    }

    #[test]
    fn an_insertion_slides_down() {
        // GNU: `2a3` for a b c -> a b b c.
        let c = changes(&ids("abc"), &ids("abbc"), 0, 0);
        assert_eq!(
            c,
            vec![Change {
                line0: 2,
                line1: 2,
                deleted: 0,
                inserted: 1
            }]
        );
    }
}
