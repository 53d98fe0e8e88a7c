//! `.import ?--csv|--ascii? ?--skip N? ?--schema S? ?-v? FILE TABLE`: reads
//! CSV (RFC 4180 quotes) or ASCII-separated fields into a table, creating
//! the table from the first row when it does not exist.

use std::io::Read;

use crate::dot::{integer_value, lossy};
use crate::modes::Mode;
use crate::quote;
use crate::shell::Shell;

const EOF: i32 = -1;

/// The reader's state (sqlite3's `ImportCtx`).
struct Reader {
    data: Vec<u8>,
    pos: usize,
    file: String,
    /// The field just read.
    z: Vec<u8>,
    line: i64,
    /// What ended the field: the column or row separator, or EOF.
    term: i32,
    col_sep: i32,
    row_sep: i32,
    not_first: bool,
    ascii: bool,
}

impl Reader {
    fn getc(&mut self) -> i32 {
        match self.data.get(self.pos) {
            Some(&c) => {
                self.pos += 1;
                c as i32
            }
            None => EOF,
        }
    }

    /// The next field, or None at the end of the input.
    fn read(&mut self) -> Option<Vec<u8>> {
        if self.ascii {
            self.read_ascii()
        } else {
            self.read_csv()
        }
    }

    fn read_csv(&mut self) -> Option<Vec<u8>> {
        self.z.clear();
        let mut c = self.getc();
        if c == EOF {
            self.term = EOF;
            return None;
        }
        let (sep, rsep) = (self.col_sep, self.row_sep);
        if c == b'"' as i32 {
            let q = c;
            let start = self.line;
            let (mut pc, mut ppc) = (0, 0);
            loop {
                c = self.getc();
                if c == rsep {
                    self.line += 1;
                }
                if c == q && pc == q {
                    pc = 0;
                    continue;
                }
                if ((c == sep || c == rsep || c == EOF) && pc == q)
                    || (c == rsep && pc == b'\r' as i32 && ppc == q)
                {
                    while let Some(last) = self.z.pop() {
                        if last as i32 == q {
                            break;
                        }
                    }
                    self.term = c;
                    break;
                }
                if pc == q && c != b'\r' as i32 {
                    eprintln!(
                        "{}:{}: unescaped {} character",
                        self.file, self.line, q as u8 as char
                    );
                }
                if c == EOF {
                    eprintln!(
                        "{}:{}: unterminated {}-quoted field",
                        self.file, start, q as u8 as char
                    );
                    self.term = c;
                    break;
                }
                self.z.push(c as u8);
                ppc = pc;
                pc = c;
            }
        } else {
            if c & 0xff == 0xef && !self.not_first {
                self.z.push(c as u8);
                c = self.getc();
                if c & 0xff == 0xbb {
                    self.z.push(c as u8);
                    c = self.getc();
                    if c & 0xff == 0xbf {
                        self.not_first = true;
                        return self.read_csv();
                    }
                }
            }
            while c != EOF && c != sep && c != rsep {
                self.z.push(c as u8);
                c = self.getc();
            }
            if c == rsep {
                self.line += 1;
                if self.z.last() == Some(&b'\r') {
                    self.z.pop();
                }
            }
            self.term = c;
        }
        self.not_first = true;
        Some(self.z.clone())
    }

    fn read_ascii(&mut self) -> Option<Vec<u8>> {
        self.z.clear();
        let mut c = self.getc();
        if c == EOF {
            self.term = EOF;
            return None;
        }
        while c != EOF && c != self.col_sep && c != self.row_sep {
            self.z.push(c as u8);
            c = self.getc();
        }
        if c == self.row_sep {
            self.line += 1;
        }
        self.term = c;
        Some(self.z.clone())
    }
}

const USAGE: &str = r#".import FILE TABLE       Import data from FILE into TABLE
   Options:
     --ascii               Use \037 and \036 as column and row separators
     --csv                 Use , and \n as column and row separators
     --skip N              Skip the first N rows of input
     --schema S            Target table to be S.TABLE
     -v                    "Verbose" - increase auxiliary output
   Notes:
     *  If TABLE does not exist, it is created.  The first row of input
        determines the column names.
     *  If neither --csv or --ascii are used, the input mode is derived
        from the ".mode" output mode
     *  If FILE begins with "|" then it is a command that generates the
        input text.
"#;

/// A column renamed: (from, to).
type Renamed = (Vec<u8>, Vec<u8>);

/// Column names made unique as sqlite3 makes them: a repeated name (any
/// case) gets `_N`, N its position, with as many leading zeros as it takes
/// to clash with nothing. Returns the names and what was renamed.
fn unique_names(raw: &[Vec<u8>]) -> (Vec<Vec<u8>>, Vec<Renamed>) {
    let names: Vec<Vec<u8>> = raw
        .iter()
        .map(|n| {
            if n.is_empty() {
                b"?".to_vec()
            } else {
                n.clone()
            }
        })
        .collect();
    let lower: Vec<Vec<u8>> = names.iter().map(|n| n.to_ascii_lowercase()).collect();
    let repeated: Vec<bool> = lower
        .iter()
        .enumerate()
        .map(|(i, n)| lower.iter().enumerate().any(|(j, m)| i != j && m == n))
        .collect();
    let candidate = |zeros: usize| -> Vec<Vec<u8>> {
        names
            .iter()
            .enumerate()
            .map(|(i, n)| {
                if repeated[i] {
                    let mut v = n.clone();
                    v.extend_from_slice(format!("_{}{}", "0".repeat(zeros), i + 1).as_bytes());
                    v
                } else {
                    n.clone()
                }
            })
            .collect()
    };
    let mut zeros = 0;
    let mut out = candidate(0);
    while zeros < 8 {
        let l: Vec<Vec<u8>> = out.iter().map(|n| n.to_ascii_lowercase()).collect();
        let clash = (0..l.len()).any(|i| (0..l.len()).any(|j| i != j && l[i] == l[j]));
        if !clash {
            break;
        }
        zeros += 1;
        out = candidate(zeros);
    }
    let renamed = names
        .iter()
        .zip(&out)
        .filter(|(a, b)| a != b)
        .map(|(a, b)| (a.clone(), b.clone()))
        .collect();
    (out, renamed)
}

pub fn import(sh: &mut Shell, args: &[Vec<u8>]) -> i32 {
    let mut file: Option<&[u8]> = None;
    let mut table: Option<&[u8]> = None;
    let mut schema: Option<&[u8]> = None;
    let mut skip = 0i64;
    let mut verbose = 0;
    let mut seps: Option<(u8, u8, bool)> = None;
    let mut i = 1;
    while i < args.len() {
        let a = args[i].as_slice();
        let z = if a.starts_with(b"--") { &a[1..] } else { a };
        if z.first() != Some(&b'-') {
            if file.is_none() {
                file = Some(z);
            } else if table.is_none() {
                table = Some(z);
            } else {
                sh.out(
                    format!("ERROR: extra argument: \"{}\".  Usage:\n{USAGE}", lossy(z)).as_bytes(),
                );
                return 1;
            }
        } else if z == b"-v" {
            verbose += 1;
        } else if z == b"-schema" && i + 1 < args.len() {
            i += 1;
            schema = Some(&args[i]);
        } else if z == b"-skip" && i + 1 < args.len() {
            i += 1;
            skip = integer_value(&args[i]);
        } else if z == b"-ascii" {
            seps = Some((0x1f, 0x1e, true));
        } else if z == b"-csv" {
            seps = Some((b',', b'\n', false));
        } else {
            sh.out(format!("ERROR: unknown option: \"{}\".  Usage:\n{USAGE}", lossy(z)).as_bytes());
            return 1;
        }
        i += 1;
    }
    let Some(table) = table else {
        let what = if file.is_none() { "FILE" } else { "TABLE" };
        sh.out(format!("ERROR: missing {what} argument. Usage:\n{USAGE}").as_bytes());
        return 1;
    };
    let file = lossy(file.unwrap_or_default());
    sh.open_db();
    let use_mode = seps.is_none();
    let (col_sep, row_sep, ascii) = match seps {
        Some(s) => s,
        None => {
            if sh.col_sep.is_empty() {
                eprintln!("Error: non-null column separator required for import");
                return 1;
            }
            if sh.col_sep.len() > 1 {
                eprintln!("Error: multi-character column separators not allowed for import");
                return 1;
            }
            if sh.row_sep.is_empty() {
                eprintln!("Error: non-null row separator required for import");
                return 1;
            }
            if sh.row_sep == b"\r\n" && sh.mode == Mode::Csv {
                sh.row_sep = b"\n".to_vec();
            }
            if sh.row_sep.len() > 1 {
                eprintln!("Error: multi-character row separators not allowed for import");
                return 1;
            }
            (sh.col_sep[0], sh.row_sep[0], sh.mode == Mode::Ascii)
        }
    };
    let data = match std::fs::File::open(&file).and_then(|mut f| {
        let mut v = Vec::new();
        f.read_to_end(&mut v).map(|_| v)
    }) {
        Ok(d) => d,
        Err(_) => {
            eprintln!("Error: cannot open \"{file}\"");
            return 1;
        }
    };
    let mut r = Reader {
        data,
        pos: 0,
        file: file.clone(),
        z: Vec::new(),
        line: 1,
        term: 0,
        col_sep: col_sep as i32,
        row_sep: row_sep as i32,
        not_first: false,
        ascii,
    };
    if verbose >= 2 || (verbose >= 1 && use_mode) {
        let mut o = b"Column separator ".to_vec();
        quote::c_string(&mut o, &[col_sep]);
        o.extend_from_slice(b", row separator ");
        quote::c_string(&mut o, &[row_sep]);
        o.push(b'\n');
        sh.out(&o);
    }
    while skip > 0 {
        skip -= 1;
        while r.read().is_some() && r.term == r.col_sep {}
    }
    let full = match schema {
        Some(s) => {
            let mut v = quote::dquoted(s);
            v.push(b'.');
            v.extend_from_slice(&quote::dquoted(table));
            v
        }
        None => quote::dquoted(table),
    };
    let select = [b"SELECT * FROM ".as_slice(), &full].concat();
    let mut prepared = sh.db().prepare(&select);
    if prepared.is_err() && crate::db::strglob(b"no such table: *", &sh.db().errmsg()) {
        if create_from_header(sh, &mut r, &full, verbose).is_err() {
            return 1;
        }
        prepared = sh.db().prepare(&select);
    }
    let ncol = match prepared {
        Ok((Some(st), _)) => st.column_count(),
        _ => {
            eprintln!("Error: {}", lossy(&sh.db().errmsg()));
            return 1;
        }
    };
    if ncol == 0 {
        return 0;
    }
    let mut insert = [b"INSERT INTO ".as_slice(), &full, b" VALUES(?"].concat();
    for _ in 1..ncol {
        insert.extend_from_slice(b",?");
    }
    insert.push(b')');
    if verbose >= 2 {
        let mut o = b"Insert using: ".to_vec();
        o.extend_from_slice(&insert);
        o.push(b'\n');
        sh.out(&o);
    }
    let mut st = match sh.db().prepare(&insert) {
        Ok((Some(st), _)) => st,
        _ => {
            eprintln!("Error: {}", lossy(&sh.db().errmsg()));
            return 1;
        }
    };
    let need_commit = sh.db().autocommit();
    if need_commit {
        sh.db().exec("BEGIN");
    }
    let (rows, errors, rc) = insert_rows(sh, &mut r, &mut st, ncol);
    drop(st);
    if need_commit {
        sh.db().exec("COMMIT");
    }
    if verbose > 0 {
        sh.out(
            format!(
                "Added {rows} rows with {errors} errors using {} lines of input\n",
                r.line - 1
            )
            .as_bytes(),
        );
    }
    rc
}

/// Creates `full` with a TEXT column per field of the first row; Err when
/// that failed (reported).
fn create_from_header(sh: &mut Shell, r: &mut Reader, full: &[u8], verbose: i32) -> Result<(), ()> {
    let file = r.file.clone();
    let mut names = Vec::new();
    while let Some(f) = r.read() {
        names.push(f);
        if r.term != r.col_sep {
            break;
        }
    }
    if names.is_empty() {
        eprintln!("{file}: empty file");
        return Err(());
    }
    let (names, renamed) = unique_names(&names);
    if !renamed.is_empty() {
        let list: Vec<String> = renamed
            .iter()
            .map(|(a, b)| {
                format!(
                    "{} to {}",
                    lossy(&quote::dquoted(a)),
                    lossy(&quote::dquoted(b))
                )
            })
            .collect();
        eprintln!(
            "Columns renamed during .import {file} due to duplicates:\n{}",
            list.join(",\n")
        );
    }
    let mut create = [b"CREATE TABLE ".as_slice(), full, b"(\n"].concat();
    for (k, name) in names.iter().enumerate() {
        if k > 0 {
            create.extend_from_slice(if k % 4 > 0 { b", " } else { b",\n " });
        }
        create.extend_from_slice(&quote::dquoted(name));
        create.extend_from_slice(b" TEXT");
    }
    create.extend_from_slice(b")\n");
    if verbose >= 1 {
        let mut o = create.clone();
        o.push(b'\n');
        sh.out(&o);
    }
    if sh.db().exec(&lossy(&create)) != 0 {
        eprintln!("{} failed:\n{}", lossy(&create), lossy(&sh.db().errmsg()));
        return Err(());
    }
    Ok(())
}

/// Inserts every remaining row; (rows inserted, rows failed, the last
/// INSERT's result code, which is what `.import` returns).
fn insert_rows(
    sh: &mut Shell,
    r: &mut Reader,
    st: &mut crate::db::Stmt,
    ncol: usize,
) -> (u64, u64, i32) {
    let file = r.file.clone();
    let (mut rows, mut errors) = (0u64, 0u64);
    let mut rc = 0;
    loop {
        let start = r.line;
        let mut i = 0;
        while i < ncol {
            let z = r.read();
            if z.is_none() && i == 0 {
                break;
            }
            if sh.mode == Mode::Ascii && z.as_ref().is_none_or(|z| z.is_empty()) && i == 0 {
                break;
            }
            st.bind_text(i + 1, z.as_deref());
            if i + 1 < ncol && r.term != r.col_sep {
                eprintln!(
                    "{file}:{start}: expected {ncol} columns but found {} - filling the rest with NULL",
                    i + 1
                );
                i += 2;
                while i <= ncol {
                    st.bind_text(i, None);
                    i += 1;
                }
                continue;
            }
            i += 1;
        }
        if r.term == r.col_sep {
            loop {
                r.read();
                i += 1;
                if r.term != r.col_sep {
                    break;
                }
            }
            eprintln!("{file}:{start}: expected {ncol} columns but found {i} - extras ignored");
        }
        if i >= ncol {
            st.step();
            rc = st.reset();
            if rc != 0 {
                eprintln!(
                    "{file}:{start}: INSERT failed: {}",
                    lossy(&sh.db().errmsg())
                );
                errors += 1;
            } else {
                rows += 1;
            }
        }
        if r.term == EOF {
            break;
        }
    }
    (rows, errors, rc)
}
