//! The modes that read the whole result before printing it, to size the
//! columns: column, table, box and markdown. Widths count characters (UTF-8
//! lead bytes), as 3.40 did; `--wrap N` and `.width` split long values over
//! several lines.

use crate::db::{SQLITE_ROW, Stmt};
use crate::modes::{Cell, Mode};
use crate::quote;
use crate::shell::Shell;

/// Characters in `z`: bytes that are not UTF-8 continuation bytes.
pub fn chars(z: &[u8]) -> usize {
    z.iter().filter(|&&c| c & 0xc0 != 0x80).count()
}

/// The part of `z` that fits on one line of at most `max` characters (0:
/// no limit), with tabs expanded; and where the rest starts, if there is a
/// rest.
fn one_line(z: &[u8], max: i32, word_wrap: bool) -> (Vec<u8>, Option<usize>) {
    let max = match max.unsigned_abs() as usize {
        0 => 1_000_000,
        m => m,
    };
    let at = |i: usize| z.get(i).copied().unwrap_or(0);
    let (mut i, mut n) = (0usize, 0usize);
    while n < max {
        let c = at(i);
        if c >= b' ' {
            n += 1;
            i += 1;
            while at(i) & 0xc0 == 0x80 {
                i += 1;
            }
            continue;
        }
        if c == b'\t' {
            loop {
                n += 1;
                if n & 7 == 0 || n >= max {
                    break;
                }
            }
            i += 1;
            continue;
        }
        break;
    }
    let mut k = i;
    if n >= max && word_wrap {
        let mut kk = i;
        while kk > i / 2 && !at(kk - 1).is_ascii_whitespace() {
            kk -= 1;
        }
        if kk <= i / 2 {
            kk = i;
            while kk > i / 2
                && !(at(kk - 1).is_ascii_alphanumeric() != at(kk).is_ascii_alphanumeric()
                    && at(kk) & 0xc0 != 0x80)
            {
                kk -= 1;
            }
        }
        if kk <= i / 2 {
            k = i;
        } else {
            k = kk;
            i = kk;
            while at(i) == b' ' {
                i += 1;
            }
        }
    }
    let tail = if n >= max && at(i) >= b' ' {
        Some(i)
    } else if at(i) == b'\r' && at(i + 1) == b'\n' {
        if at(i + 2) != 0 { Some(i + 2) } else { None }
    } else if at(i) == 0 || at(i + 1) == 0 {
        None
    } else {
        Some(i + 1)
    };
    let mut out = Vec::new();
    let (mut j, mut n) = (0usize, 0usize);
    while j < k {
        let c = at(j);
        if c >= b' ' {
            n += 1;
            out.push(c);
            j += 1;
            while at(j) & 0xc0 == 0x80 {
                out.push(at(j));
                j += 1;
            }
            continue;
        }
        if c == b'\t' {
            loop {
                n += 1;
                out.push(b' ');
                if n & 7 == 0 || n >= max {
                    break;
                }
            }
            j += 1;
            continue;
        }
        break;
    }
    (out, tail)
}

/// `z` padded (or cut) to `w` characters; right-aligned when `w < 0`.
fn fit(o: &mut Vec<u8>, w: i32, z: &[u8]) {
    let aw = w.unsigned_abs() as usize;
    let mut n = 0;
    let mut end = z.len();
    for (i, &c) in z.iter().enumerate() {
        if c & 0xc0 != 0x80 {
            n += 1;
            if n == aw {
                end = i + 1;
                while end < z.len() && z[end] & 0xc0 == 0x80 {
                    end += 1;
                }
                break;
            }
        }
    }
    if n >= aw {
        o.extend_from_slice(&z[..end]);
    } else if w < 0 {
        o.resize(o.len() + aw - n, b' ');
        o.extend_from_slice(z);
    } else {
        o.extend_from_slice(z);
        o.resize(o.len() + aw - n, b' ');
    }
}

fn centered(o: &mut Vec<u8>, w: usize, z: &[u8]) {
    let n = chars(z);
    let pad = w.saturating_sub(n);
    o.resize(o.len() + pad / 2, b' ');
    o.extend_from_slice(z);
    o.resize(o.len() + pad.div_ceil(2), b' ');
}

const BOX_H: &str = "\u{2500}";

fn rule(o: &mut Vec<u8>, widths: &[usize], ends: [&str; 3], fill: &str) {
    if !widths.is_empty() {
        o.extend_from_slice(ends[0].as_bytes());
        for (i, w) in widths.iter().enumerate() {
            if i > 0 {
                o.extend_from_slice(ends[1].as_bytes());
            }
            o.extend_from_slice(fill.repeat(w + 2).as_bytes());
        }
        o.extend_from_slice(ends[2].as_bytes());
    }
    o.push(b'\n');
}

impl Shell {
    /// Runs `st` in a columnar mode.
    pub fn run_columnar(&mut self, st: &mut Stmt) {
        if st.step() != SQLITE_ROW {
            return;
        }
        let ncol = st.column_count();
        if self.col_width.len() < ncol {
            self.col_width.resize(ncol, 0);
        }
        let wrap = |s: &Shell, i: usize| match s.col_width[i] {
            0 => s.cm_wrap,
            w => w,
        };
        let ww = self.cm_wordwrap;
        // cells[0] is the header; each later entry is one printed line.
        let mut cells: Vec<Vec<Vec<u8>>> = Vec::new();
        let mut row_ends: Vec<bool> = Vec::new();
        let header: Vec<Vec<u8>> = (0..ncol)
            .map(|i| one_line(&st.column_name(i), wrap(self, i), ww).0)
            .collect();
        cells.push(header);
        let mut multi = false;
        loop {
            let mut pending: Vec<Option<Vec<u8>>> = (0..ncol)
                .map(|i| {
                    let cell = Cell::read(st, i);
                    Some(if self.cm_quote {
                        quoted_cell(&cell)
                    } else {
                        cell.text().unwrap_or_else(|| self.null_value.clone())
                    })
                })
                .collect();
            loop {
                let mut line = Vec::with_capacity(ncol);
                let mut more = false;
                for (i, slot) in pending.iter_mut().enumerate() {
                    let z = slot.take().unwrap_or_default();
                    let (text, tail) = one_line(&z, wrap(self, i), ww);
                    if let Some(t) = tail {
                        *slot = Some(z[t..].to_vec());
                        more = true;
                    }
                    line.push(text);
                }
                cells.push(line);
                row_ends.push(!more);
                if !more {
                    break;
                }
                multi = true;
            }
            if st.step() != SQLITE_ROW {
                break;
            }
        }
        if ncol == 0 {
            return;
        }
        let mut widths: Vec<usize> = (0..ncol)
            .map(|i| self.col_width[i].unsigned_abs() as usize)
            .collect();
        for line in &cells {
            for (i, z) in line.iter().enumerate() {
                widths[i] = widths[i].max(chars(z));
            }
        }
        let signed = |s: &Shell, i: usize| {
            let w = widths[i] as i32;
            if s.col_width[i] < 0 { -w } else { w }
        };
        let mut o = Vec::new();
        let (col_sep, row_sep): (&str, &str) = match self.cmode {
            Mode::Column => ("  ", "\n"),
            Mode::Box => (" \u{2502} ", " \u{2502}\n"),
            _ => (" | ", " |\n"),
        };
        match self.cmode {
            Mode::Column => {
                if self.show_header {
                    for (i, z) in cells[0].iter().enumerate() {
                        fit(&mut o, signed(self, i), z);
                        o.extend_from_slice(if i + 1 == ncol { b"\n" } else { b"  " });
                    }
                    for (i, w) in widths.iter().enumerate() {
                        o.resize(o.len() + w, b'-');
                        o.extend_from_slice(if i + 1 == ncol { b"\n" } else { b"  " });
                    }
                }
            }
            Mode::Table | Mode::Markdown => {
                if self.cmode == Mode::Table {
                    rule(&mut o, &widths, ["+", "+", "+"], "-");
                }
                o.extend_from_slice(b"| ");
                for (i, z) in cells[0].iter().enumerate() {
                    centered(&mut o, widths[i], z);
                    o.extend_from_slice(if i + 1 == ncol { b" |\n" } else { b" | " });
                }
                let c = if self.cmode == Mode::Table { "+" } else { "|" };
                rule(&mut o, &widths, [c, c, c], "-");
            }
            _ => {
                rule(&mut o, &widths, ["\u{250c}", "\u{252c}", "\u{2510}"], BOX_H);
                o.extend_from_slice("\u{2502} ".as_bytes());
                for (i, z) in cells[0].iter().enumerate() {
                    centered(&mut o, widths[i], z);
                    o.extend_from_slice(if i + 1 == ncol {
                        " \u{2502}\n".as_bytes()
                    } else {
                        " \u{2502} ".as_bytes()
                    });
                }
                rule(&mut o, &widths, ["\u{251c}", "\u{253c}", "\u{2524}"], BOX_H);
            }
        }
        let nlines = cells.len() - 1;
        for (r, line) in cells.iter().skip(1).enumerate() {
            match self.cmode {
                Mode::Column => {}
                Mode::Box => o.extend_from_slice("\u{2502} ".as_bytes()),
                _ => o.extend_from_slice(b"| "),
            }
            for (i, z) in line.iter().enumerate() {
                fit(&mut o, signed(self, i), z);
                if i + 1 < ncol {
                    o.extend_from_slice(col_sep.as_bytes());
                }
            }
            o.extend_from_slice(row_sep.as_bytes());
            if multi && row_ends[r] && r + 1 < nlines {
                match self.cmode {
                    Mode::Table => rule(&mut o, &widths, ["+", "+", "+"], "-"),
                    Mode::Box => rule(&mut o, &widths, ["\u{251c}", "\u{253c}", "\u{2524}"], BOX_H),
                    Mode::Column => o.push(b'\n'),
                    _ => {}
                }
            }
        }
        match self.cmode {
            Mode::Table => rule(&mut o, &widths, ["+", "+", "+"], "-"),
            Mode::Box => rule(&mut o, &widths, ["\u{2514}", "\u{2534}", "\u{2518}"], BOX_H),
            _ => {}
        }
        self.out(&o);
    }
}

/// A value as `--quote` shows it: SQL literals, blobs as x'..'.
fn quoted_cell(cell: &Cell) -> Vec<u8> {
    let mut o = Vec::new();
    match cell {
        Cell::Null => o.extend_from_slice(b"NULL"),
        Cell::Text(b) => quote::sql_string(&mut o, crate::db::cstr(b)),
        Cell::Blob(b) => quote::hex_blob(&mut o, b, b"x'"),
        other => o.extend_from_slice(&other.text().unwrap_or_default()),
    }
    o
}
