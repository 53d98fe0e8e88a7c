//! The output modes that print a row at a time (sqlite3's `shell_callback`):
//! list, csv, json, line, quote, insert, html, tcl, ascii, count, off, and
//! the query-plan tree of EXPLAIN QUERY PLAN.

use crate::db::{self, SQLITE_BLOB, SQLITE_FLOAT, SQLITE_INTEGER, SQLITE_NULL, Stmt};
use crate::numfmt;
use crate::quote;
use crate::shell::Shell;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Line,
    Column,
    List,
    Html,
    Insert,
    Quote,
    Tcl,
    Csv,
    Ascii,
    Eqp,
    Json,
    Markdown,
    Table,
    Box,
    Count,
    Off,
}

impl Mode {
    /// The name `.mode` reports.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Line => "line",
            Mode::Column => "column",
            Mode::List => "list",
            Mode::Html => "html",
            Mode::Insert => "insert",
            Mode::Quote => "quote",
            Mode::Tcl => "tcl",
            Mode::Csv => "csv",
            Mode::Ascii => "ascii",
            Mode::Eqp => "eqp",
            Mode::Json => "json",
            Mode::Markdown => "markdown",
            Mode::Table => "table",
            Mode::Box => "box",
            Mode::Count => "count",
            Mode::Off => "off",
        }
    }

    pub fn is_columnar(self) -> bool {
        matches!(
            self,
            Mode::Column | Mode::Table | Mode::Box | Mode::Markdown
        )
    }
}

/// One value of a result row.
pub enum Cell {
    Null,
    Int(Vec<u8>),
    Real(f64),
    Text(Vec<u8>),
    Blob(Vec<u8>),
}

impl Cell {
    pub fn read(st: &Stmt, i: usize) -> Cell {
        match st.column_type(i) {
            SQLITE_NULL => Cell::Null,
            SQLITE_INTEGER => Cell::Int(st.text(i).unwrap_or_default()),
            SQLITE_FLOAT => Cell::Real(st.double(i)),
            SQLITE_BLOB => Cell::Blob(st.blob(i)),
            _ => Cell::Text(st.text(i).unwrap_or_default()),
        }
    }

    /// What `sqlite3_column_text` gave in 3.40, cut at a NUL as `%s` cuts
    /// it; None for NULL.
    pub fn text(&self) -> Option<Vec<u8>> {
        match self {
            Cell::Null => None,
            Cell::Int(b) => Some(b.clone()),
            Cell::Real(r) => Some(numfmt::real_text(*r).into_bytes()),
            Cell::Text(b) | Cell::Blob(b) => Some(db::cstr(b).to_vec()),
        }
    }

    /// A SQL literal, as quote mode writes it.
    fn quoted(&self, out: &mut Vec<u8>, escaped: bool) {
        match self {
            Cell::Null => out.extend_from_slice(b"NULL"),
            Cell::Int(b) => out.extend_from_slice(b),
            Cell::Real(r) => out.extend_from_slice(numfmt::real_full(*r).as_bytes()),
            Cell::Text(b) if escaped => quote::sql_string_escaped(out, db::cstr(b)),
            Cell::Text(b) => quote::sql_string(out, db::cstr(b)),
            Cell::Blob(b) => quote::hex_blob(out, b, b"X'"),
        }
    }
}

const TWO_63: f64 = 9_223_372_036_854_775_808.0;

/// A float as json and insert modes write it: infinities as ±1e999.
fn real_literal(out: &mut Vec<u8>, r: f64, integral_as_int: bool) {
    if r == f64::INFINITY {
        out.extend_from_slice(b"1e999");
    } else if r == f64::NEG_INFINITY {
        out.extend_from_slice(b"-1e999");
    } else {
        // C's (sqlite3_int64)r: out of range gives INT64_MIN on x86-64.
        let ir = if r.is_nan() || !(-TWO_63..TWO_63).contains(&r) {
            i64::MIN
        } else {
            r as i64
        };
        if integral_as_int && r == ir as f64 {
            out.extend_from_slice(format!("{ir}.0").as_bytes());
        } else {
            out.extend_from_slice(numfmt::real_full(r).as_bytes());
        }
    }
}

impl Shell {
    /// Prints one row in the current row-at-a-time mode.
    pub fn print_row(&mut self, names: &[Vec<u8>], row: &[Cell]) {
        let mut o = Vec::new();
        let n = row.len();
        let first = self.cnt == 0;
        self.cnt += 1;
        let null = self.null_value.clone();
        let text = |c: &Cell| c.text().unwrap_or_else(|| null.clone());
        match self.cmode {
            Mode::Count | Mode::Off | Mode::Column | Mode::Table | Mode::Box | Mode::Markdown => {}
            Mode::Line => {
                let w = names.iter().map(|c| c.len()).max().unwrap_or(0).max(5);
                if !first {
                    o.extend_from_slice(&self.row_sep);
                }
                for (name, cell) in names.iter().zip(row) {
                    o.resize(o.len() + w.saturating_sub(name.len()), b' ');
                    o.extend_from_slice(name);
                    o.extend_from_slice(b" = ");
                    o.extend_from_slice(&text(cell));
                    o.extend_from_slice(&self.row_sep);
                }
            }
            Mode::List => {
                if first && self.show_header {
                    self.joined(&mut o, names.iter().map(|c| c.to_vec()));
                }
                let values: Vec<Vec<u8>> = row.iter().map(text).collect();
                self.joined(&mut o, values.into_iter());
            }
            Mode::Html => {
                if first && self.show_header {
                    o.extend_from_slice(b"<TR>");
                    for name in names {
                        o.extend_from_slice(b"<TH>");
                        quote::html_string(&mut o, name);
                        o.extend_from_slice(b"</TH>\n");
                    }
                    o.extend_from_slice(b"</TR>\n");
                }
                o.extend_from_slice(b"<TR>");
                for cell in row {
                    o.extend_from_slice(b"<TD>");
                    quote::html_string(&mut o, &text(cell));
                    o.extend_from_slice(b"</TD>\n");
                }
                o.extend_from_slice(b"</TR>\n");
            }
            Mode::Tcl => {
                if first && self.show_header {
                    for (i, name) in names.iter().enumerate() {
                        quote::c_string(&mut o, name);
                        if i + 1 < n {
                            o.extend_from_slice(&self.col_sep);
                        }
                    }
                    o.extend_from_slice(&self.row_sep);
                }
                for (i, cell) in row.iter().enumerate() {
                    quote::c_string(&mut o, &text(cell));
                    if i + 1 < n {
                        o.extend_from_slice(&self.col_sep);
                    }
                }
                o.extend_from_slice(&self.row_sep);
            }
            Mode::Csv => {
                if first && self.show_header {
                    for (i, name) in names.iter().enumerate() {
                        self.csv(&mut o, Some(name), i + 1 < n);
                    }
                    o.extend_from_slice(&self.row_sep);
                }
                if n > 0 {
                    for (i, cell) in row.iter().enumerate() {
                        self.csv(&mut o, cell.text().as_deref(), i + 1 < n);
                    }
                    o.extend_from_slice(&self.row_sep);
                }
            }
            Mode::Insert => {
                o.extend_from_slice(b"INSERT INTO ");
                o.extend_from_slice(&self.dest_table);
                if self.show_header {
                    o.push(b'(');
                    for (i, name) in names.iter().enumerate() {
                        if i > 0 {
                            o.push(b',');
                        }
                        match quote::quote_char(name) {
                            Some(_) => o.extend_from_slice(&quote::dquoted(name)),
                            None => o.extend_from_slice(name),
                        }
                    }
                    o.push(b')');
                }
                for (i, cell) in row.iter().enumerate() {
                    o.extend_from_slice(if i > 0 { b"," } else { b" VALUES(" });
                    match cell {
                        Cell::Real(r) => real_literal(&mut o, *r, true),
                        other => other.quoted(&mut o, !self.dump_newlines),
                    }
                }
                o.extend_from_slice(b");\n");
            }
            Mode::Json => {
                o.extend_from_slice(if first { b"[{" } else { b",\n{" });
                for (i, (name, cell)) in names.iter().zip(row).enumerate() {
                    quote::json_string(&mut o, name);
                    o.push(b':');
                    match cell {
                        Cell::Null => o.extend_from_slice(b"null"),
                        Cell::Real(r) => real_literal(&mut o, *r, false),
                        Cell::Blob(b) => quote::json_string(&mut o, b),
                        Cell::Text(b) => quote::json_string(&mut o, db::cstr(b)),
                        Cell::Int(b) => o.extend_from_slice(b),
                    }
                    if i + 1 < n {
                        o.push(b',');
                    }
                }
                o.push(b'}');
            }
            Mode::Quote => {
                if first && self.show_header {
                    for (i, name) in names.iter().enumerate() {
                        if i > 0 {
                            o.extend_from_slice(&self.col_sep);
                        }
                        quote::sql_string(&mut o, name);
                    }
                    o.extend_from_slice(&self.row_sep);
                }
                for (i, cell) in row.iter().enumerate() {
                    if i > 0 {
                        o.extend_from_slice(&self.col_sep);
                    }
                    cell.quoted(&mut o, false);
                }
                o.extend_from_slice(&self.row_sep);
            }
            Mode::Ascii => {
                if first && self.show_header {
                    self.ascii_joined(&mut o, names.iter().map(|c| c.to_vec()));
                }
                let values: Vec<Vec<u8>> = row.iter().map(text).collect();
                self.ascii_joined(&mut o, values.into_iter());
            }
            Mode::Eqp => {
                let id = row
                    .first()
                    .and_then(Cell::text)
                    .map(|t| atoi(&t))
                    .unwrap_or(0);
                let parent = row
                    .get(1)
                    .and_then(Cell::text)
                    .map(|t| atoi(&t))
                    .unwrap_or(0);
                let detail = row.get(3).and_then(Cell::text).unwrap_or_default();
                self.eqp.push((id, parent, detail));
            }
        }
        self.out(&o);
    }

    fn joined(&self, o: &mut Vec<u8>, items: impl Iterator<Item = Vec<u8>>) {
        let items: Vec<Vec<u8>> = items.collect();
        for (i, item) in items.iter().enumerate() {
            o.extend_from_slice(item);
            o.extend_from_slice(if i + 1 == items.len() {
                &self.row_sep
            } else {
                &self.col_sep
            });
        }
    }

    fn ascii_joined(&self, o: &mut Vec<u8>, items: impl Iterator<Item = Vec<u8>>) {
        for (i, item) in items.enumerate() {
            if i > 0 {
                o.extend_from_slice(&self.col_sep);
            }
            o.extend_from_slice(&item);
        }
        o.extend_from_slice(&self.row_sep);
    }

    fn csv(&self, o: &mut Vec<u8>, z: Option<&[u8]>, sep: bool) {
        match z {
            None => o.extend_from_slice(&self.null_value),
            Some(z) => quote::csv_field(o, z, &self.col_sep),
        }
        if sep {
            o.extend_from_slice(&self.col_sep);
        }
    }

    /// What the mode prints after the last row of a statement with rows.
    pub fn end_rows(&mut self, rows: u64) {
        match self.cmode {
            Mode::Json => self.out(b"]\n"),
            Mode::Count => {
                let s = format!("{rows} row{}\n", if rows != 1 { "s" } else { "" });
                self.out(s.as_bytes());
            }
            _ => {}
        }
    }

    /// Prints the EXPLAIN QUERY PLAN rows gathered for the last statement.
    pub fn eqp_render(&mut self) {
        let rows = std::mem::take(&mut self.eqp);
        if rows.is_empty() {
            return;
        }
        let mut o = Vec::new();
        let mut rest: &[(i64, i64, Vec<u8>)] = &rows;
        if rest[0].2.first() == Some(&b'-') {
            if rest.len() == 1 {
                return;
            }
            o.extend_from_slice(&rest[0].2[3.min(rest[0].2.len())..]);
            o.push(b'\n');
            rest = &rest[1..];
        } else {
            o.extend_from_slice(b"QUERY PLAN\n");
        }
        eqp_level(&mut o, rest, 0, &mut Vec::new());
        self.out(&o);
    }
}

fn eqp_level(o: &mut Vec<u8>, rows: &[(i64, i64, Vec<u8>)], id: i64, prefix: &mut Vec<u8>) {
    let children: Vec<&(i64, i64, Vec<u8>)> = rows.iter().filter(|r| r.1 == id).collect();
    for (k, row) in children.iter().enumerate() {
        let last = k + 1 == children.len();
        o.extend_from_slice(prefix);
        o.extend_from_slice(if last { b"`--" } else { b"|--" });
        o.extend_from_slice(&row.2);
        o.push(b'\n');
        let n = prefix.len();
        if n < 100 - 7 {
            prefix.extend_from_slice(if last { b"   " } else { b"|  " });
            eqp_level(o, rows, row.0, prefix);
            prefix.truncate(n);
        }
    }
}

/// C's `atoi`.
pub fn atoi(b: &[u8]) -> i64 {
    let s = std::str::from_utf8(b).unwrap_or("").trim_start();
    let (neg, digits) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    let mut v: i64 = 0;
    for c in digits.bytes().take_while(u8::is_ascii_digit) {
        v = v.wrapping_mul(10).wrapping_add((c - b'0') as i64);
    }
    if neg { -v } else { v }
}
