//! `ls` layouts for names: `-C`/`-x` columns and `-m` lists, as GNU prints them off a
//! terminal.

/// `-m`, as GNU's `print_with_separator`: ", " between names, a new line when the
/// next name would not fit.
pub(super) fn commas(names: &[String], width: usize) -> String {
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
pub(super) fn indent(out: &mut String, mut from: usize, to: usize) {
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
pub(super) const TAB_SIZE: usize = 8;
/// The narrowest column: one character and two spaces.
pub(super) const MIN_COLUMN_WIDTH: usize = 3;

/// `-C` (down columns) and `-x` (across), as GNU's `calculate_columns`: the most
/// columns whose line stays shorter than `width`, each column as wide as its longest
/// name plus two spaces (none after the last).
pub(super) fn columns(names: &[String], width: usize, across: bool) -> String {
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

#[cfg(test)]
mod tests {
    use super::*;

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
