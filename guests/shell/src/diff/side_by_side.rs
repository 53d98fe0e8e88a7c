//! `diff -y`: two columns, with GNU's layout (`side.c`): the columns and the gutter
//! are reached with tabs then spaces, a line is cut at the half width, and the
//! gutter marks `|` (changed), `<` (only left), `>` (only right), `(` (common
//! lines with `--left-column`), or nothing (common lines).

use super::lines::Text;
use super::render::Marked;

const TAB: usize = 8;
const GUTTER_MIN: usize = 3;

pub struct Layout {
    pub width: usize,
    pub suppress_common: bool,
    pub left_column: bool,
}

struct Columns {
    half: usize,
    offset: usize,
}

impl Columns {
    fn of(width: usize) -> Columns {
        let off = (width + TAB + GUTTER_MIN) / (2 * TAB) * TAB;
        let half = off
            .saturating_sub(GUTTER_MIN)
            .min(width.saturating_sub(off));
        Columns {
            half,
            offset: if half > 0 { off } else { width },
        }
    }
}

/// Tabs, then spaces, from column `from` to column `to`.
fn tab_from_to(out: &mut Vec<u8>, mut from: usize, to: usize) -> usize {
    let mut tab = from + TAB - from % TAB;
    while tab <= to {
        out.push(b'\t');
        from = tab;
        tab += TAB;
    }
    while from < to {
        out.push(b' ');
        from += 1;
    }
    to
}

/// Write `line` cut at column `bound`; returns the column reached.
fn half_line(out: &mut Vec<u8>, line: &[u8], bound: usize) -> usize {
    let (mut input, mut output) = (0usize, 0usize);
    for &c in line {
        match c {
            b'\t' => {
                let stop = input + TAB - input % TAB;
                if input == output && stop < bound {
                    output = stop;
                    out.push(c);
                }
                input = stop;
            }
            // Bytes the C locale cannot print take no column.
            c if !(0x20..0x7f).contains(&c) => out.push(c),
            c => {
                if input < bound {
                    output = input + 1;
                    out.push(c);
                }
                input += 1;
            }
        }
    }
    output
}

type Side<'a> = Option<(&'a Text<'a>, usize)>;

fn row(out: &mut Vec<u8>, cols: &Columns, left: Side, sep: u8, right: Side) {
    let mut col = 0;
    let mut newline = false;
    if let Some((text, i)) = left {
        newline |= !text.lacks_newline(i);
        col = half_line(out, text.lines[i], cols.half);
    }
    if sep != b' ' {
        col = tab_from_to(out, col, (cols.half + cols.offset - 1) / 2) + 1;
        // A changed pair where only one side ends in a newline: `/` or `\\`.
        let right_newline = right.is_some_and(|(text, i)| !text.lacks_newline(i));
        let sep = match sep {
            b'|' if newline && !right_newline => b'/',
            b'|' if !newline && right_newline => b'\\',
            other => other,
        };
        out.push(sep);
    }
    if let Some((text, i)) = right {
        newline |= !text.lacks_newline(i);
        if !text.lines[i].is_empty() {
            tab_from_to(out, col, cols.offset);
            half_line(out, text.lines[i], cols.half);
        }
    }
    if newline {
        out.push(b'\n');
    }
}

pub fn render(out: &mut Vec<u8>, old: &Text, new: &Text, changes: &[Marked], layout: &Layout) {
    let cols = Columns::of(layout.width);
    let (mut i, mut j) = (0, 0);
    let common = |out: &mut Vec<u8>, i: usize, j: usize| {
        if layout.suppress_common {
            return;
        }
        if layout.left_column {
            row(out, &cols, Some((old, i)), b'(', None);
        } else {
            row(out, &cols, Some((old, i)), b' ', Some((new, j)));
        }
    };
    for m in changes {
        let c = m.change;
        while i < c.line0 {
            common(out, i, j);
            i += 1;
            j += 1;
        }
        let paired = c.deleted.min(c.inserted);
        for k in 0..paired {
            row(
                out,
                &cols,
                Some((old, c.line0 + k)),
                b'|',
                Some((new, c.line1 + k)),
            );
        }
        for k in paired..c.deleted {
            row(out, &cols, Some((old, c.line0 + k)), b'<', None);
        }
        for k in paired..c.inserted {
            row(out, &cols, None, b'>', Some((new, c.line1 + k)));
        }
        i = c.line0 + c.deleted;
        j = c.line1 + c.inserted;
    }
    while i < old.lines.len() {
        common(out, i, j);
        i += 1;
        j += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gnu_columns_for_the_default_width() {
        let c = Columns::of(130);
        assert_eq!((c.half, c.offset), (61, 64));
    }
}
