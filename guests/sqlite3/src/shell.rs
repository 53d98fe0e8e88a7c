//! The shell's state, running SQL (sqlite3's `shell_exec`) and reading
//! input a line at a time (`process_input`): statements end at a `;` that
//! completes them, dot commands are whole lines, and errors are reported
//! as sqlite3 3.40 reports them.

use std::io::{BufRead, Write};

use crate::db::{self, Db, SQLITE_OK, SQLITE_ROW, Stmt};
use crate::modes::{Cell, Mode};

/// Where output goes: standard output, or a file `.output` named.
pub enum Out {
    Stdout(std::io::BufWriter<std::io::Stdout>),
    File(std::io::BufWriter<std::fs::File>),
}

impl Out {
    fn writer(&mut self) -> &mut dyn Write {
        match self {
            Out::Stdout(w) => w,
            Out::File(w) => w,
        }
    }
}

pub struct Shell {
    pub db: Option<Db>,
    pub db_path: String,
    pub readonly: bool,
    pub mode: Mode,
    /// The mode of the statement being run (EXPLAIN QUERY PLAN has its own).
    pub cmode: Mode,
    pub show_header: bool,
    /// `-header`/`-noheader`/`.headers` was given: `.mode column` leaves
    /// the headers alone then.
    pub header_set: bool,
    pub col_sep: Vec<u8>,
    pub row_sep: Vec<u8>,
    pub null_value: Vec<u8>,
    pub col_width: Vec<i32>,
    pub cm_wrap: i32,
    pub cm_wordwrap: bool,
    pub cm_quote: bool,
    /// The table of insert mode, quoted as needed.
    pub dest_table: Vec<u8>,
    pub bail: bool,
    pub echo: bool,
    pub count_changes: bool,
    /// `.dump --newlines`: insert mode leaves newlines in literals.
    pub dump_newlines: bool,
    /// Rows printed by the current statement.
    pub cnt: u64,
    /// EXPLAIN QUERY PLAN rows of the current statement: (id, parent, detail).
    pub eqp: Vec<(i64, i64, Vec<u8>)>,
    pub lineno: i64,
    pub nesting: u32,
    pub out: Out,
    /// `.once`: output goes back to stdout after the next SQL.
    pub out_once: bool,
}

const MAX_INPUT_NESTING: u32 = 25;

fn is_space(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

fn skip_space(z: &[u8]) -> &[u8] {
    let n = z.iter().take_while(|&&c| is_space(c)).count();
    &z[n..]
}

impl Shell {
    pub fn new(db_path: String) -> Shell {
        Shell {
            db: None,
            db_path,
            readonly: false,
            mode: Mode::List,
            cmode: Mode::List,
            show_header: false,
            header_set: false,
            col_sep: b"|".to_vec(),
            row_sep: b"\n".to_vec(),
            null_value: Vec::new(),
            col_width: Vec::new(),
            cm_wrap: 0,
            cm_wordwrap: false,
            cm_quote: false,
            dest_table: Vec::new(),
            bail: false,
            echo: false,
            count_changes: false,
            dump_newlines: false,
            cnt: 0,
            eqp: Vec::new(),
            lineno: 0,
            nesting: 0,
            out: Out::Stdout(std::io::BufWriter::new(std::io::stdout())),
            out_once: false,
        }
    }

    pub fn out(&mut self, b: &[u8]) {
        let _ = self.out.writer().write_all(b);
    }

    pub fn flush(&mut self) {
        let _ = self.out.writer().flush();
        let _ = std::io::stdout().flush();
    }

    /// Opens the database if it is not open yet; exits as sqlite3 does
    /// when it cannot.
    pub fn open_db(&mut self) -> &Db {
        if self.db.is_none() {
            match Db::open(&self.db_path, self.readonly) {
                Ok(db) => self.db = Some(db),
                Err(msg) => {
                    self.flush();
                    eprintln!("Error: unable to open database \"{}\": {msg}", self.db_path);
                    crate::exit(1);
                }
            }
        }
        self.db.as_ref().expect("opened above")
    }

    pub fn db(&self) -> &Db {
        self.db.as_ref().expect("the database is open")
    }

    /// `phase, message (code)` and, when SQLite knows where, the SQL with
    /// a caret under the error.
    fn error_message(&self, phase: &str, rc: i32, sql: Option<&[u8]>) -> Vec<u8> {
        let db = self.db();
        let mut m = format!("{phase}, ").into_bytes();
        m.extend_from_slice(&db.errmsg());
        if rc > 1 {
            m.extend_from_slice(format!(" ({rc})").as_bytes());
        }
        if let Some(sql) = sql {
            m.extend_from_slice(&error_context(sql, db.error_offset()));
        }
        m
    }

    /// Runs every statement in `sql`. Returns the result code and, on an
    /// error, its message (`in prepare, ...` or `stepping, ...`).
    pub fn exec(&mut self, sql: &[u8]) -> (i32, Option<Vec<u8>>) {
        self.open_db();
        let mut rest = db::cstr(sql);
        while !rest.is_empty() {
            let prepared = self.db().prepare(rest);
            let (stmt, used) = match prepared {
                Err(rc) => {
                    let msg = self.error_message("in prepare", rc, Some(rest));
                    return (rc, Some(msg));
                }
                Ok(p) => p,
            };
            let Some(mut st) = stmt else {
                rest = skip_space(&rest[used..]);
                continue;
            };
            self.cnt = 0;
            self.cmode = match st.is_explain() {
                2 => Mode::Eqp,
                _ => self.mode,
            };
            self.run_stmt(&mut st);
            self.eqp_render();
            let rc = st.finalize();
            if rc != SQLITE_OK {
                let msg = self.error_message("stepping", rc, None);
                return (rc, Some(msg));
            }
            rest = skip_space(&rest[used..]);
        }
        (SQLITE_OK, None)
    }

    /// Steps `st` to its end, printing its rows.
    fn run_stmt(&mut self, st: &mut Stmt) {
        if self.cmode.is_columnar() {
            self.run_columnar(st);
            return;
        }
        if st.step() != SQLITE_ROW {
            return;
        }
        let ncol = st.column_count();
        let names: Vec<Vec<u8>> = (0..ncol).map(|i| st.column_name(i)).collect();
        let mut rows = 0u64;
        loop {
            rows += 1;
            let row: Vec<Cell> = (0..ncol).map(|i| Cell::read(st, i)).collect();
            self.print_row(&names, &row);
            if st.step() != SQLITE_ROW {
                break;
            }
        }
        self.end_rows(rows);
    }

    /// Runs one complete group of input lines (`runOneSqlLine`); true on
    /// an error, which has been reported.
    fn run_one_sql_line(&mut self, sql: &[u8], startline: i64) -> bool {
        let (rc, msg) = self.exec(sql);
        if rc != SQLITE_OK || msg.is_some() {
            let (kind, tail) = match &msg {
                None => ("Error", self.db().errmsg()),
                Some(m) if m.starts_with(b"in prepare, ") => ("Parse error", m[12..].to_vec()),
                Some(m) if m.starts_with(b"stepping, ") => ("Runtime error", m[10..].to_vec()),
                Some(m) => ("Error", m.clone()),
            };
            self.flush();
            let mut e = format!("{kind} near line {startline}: ").into_bytes();
            e.extend_from_slice(&tail);
            e.push(b'\n');
            let _ = std::io::stderr().write_all(&e);
            return true;
        }
        if self.count_changes {
            let (c, t) = self.db().changes();
            self.out(format!("changes: {c}   total_changes: {t}\n").as_bytes());
        }
        false
    }

    pub fn echo_input(&mut self, z: &[u8]) {
        if self.echo {
            let mut line = z.to_vec();
            line.push(b'\n');
            self.out(&line);
        }
    }

    /// Reads and runs `input` to its end (or the first error with
    /// `-bail`, or `.quit`); true if there was an error.
    pub fn process_input(&mut self, input: &mut dyn BufRead) -> bool {
        if self.nesting == MAX_INPUT_NESTING {
            eprintln!(
                "Input nesting limit ({MAX_INPUT_NESTING}) reached at line {}. Check recursion.",
                self.lineno
            );
            return true;
        }
        self.nesting += 1;
        self.lineno = 0;
        let mut errors = 0;
        let mut sql: Vec<u8> = Vec::new();
        let mut startline = 0;
        let mut qss = Scan::START;
        while errors == 0 || !self.bail {
            let Some(mut line) = read_line(input) else {
                break;
            };
            self.lineno += 1;
            if qss.in_plain() && is_command_terminator(&line) && is_complete(&sql) {
                line = b";".to_vec();
            }
            qss = quickscan(&line, qss);
            if qss.plain_white() && sql.is_empty() {
                self.echo_input(&line);
                qss = Scan::START;
                continue;
            }
            if sql.is_empty() && matches!(line.first(), Some(b'.') | Some(b'#')) {
                self.echo_input(&line);
                if line[0] == b'.' {
                    match crate::dot::run(self, &line) {
                        2 => break,
                        0 => {}
                        _ => errors += 1,
                    }
                }
                qss = Scan::START;
                continue;
            }
            if sql.is_empty() {
                sql.extend_from_slice(skip_space(&line));
                startline = self.lineno;
            } else {
                sql.push(b'\n');
                sql.extend_from_slice(&line);
            }
            if !sql.is_empty() && qss.semi_term() && db::complete(&sql) {
                let group = std::mem::take(&mut sql);
                self.echo_input(&group);
                if self.run_one_sql_line(&group, startline) {
                    errors += 1;
                }
                if std::mem::take(&mut self.out_once) {
                    self.flush();
                    self.out = Out::Stdout(std::io::BufWriter::new(std::io::stdout()));
                }
                qss = Scan::START;
            } else if !sql.is_empty() && qss.plain_white() {
                let group = std::mem::take(&mut sql);
                self.echo_input(&group);
                qss = Scan::START;
            }
        }
        if !sql.is_empty() {
            let group = std::mem::take(&mut sql);
            self.echo_input(&group);
            if self.run_one_sql_line(&group, startline) {
                errors += 1;
            }
        }
        self.nesting -= 1;
        errors > 0
    }
}

/// One line without its `\n` (or `\r\n`); None at the end of input.
fn read_line(input: &mut dyn BufRead) -> Option<Vec<u8>> {
    let mut line = Vec::new();
    match input.read_until(b'\n', &mut line) {
        Ok(0) | Err(_) => return None,
        Ok(_) => {}
    }
    if line.last() == Some(&b'\n') {
        line.pop();
        if line.last() == Some(&b'\r') {
            line.pop();
        }
    }
    Some(line)
}

/// ` error here` marks: the statement (cut to 78 bytes around the error)
/// and a caret under the byte SQLite blamed.
fn error_context(sql: &[u8], offset: i32) -> Vec<u8> {
    if offset < 0 {
        return Vec::new();
    }
    let mut off = offset as usize;
    let mut z = sql;
    while off > 50 {
        off -= 1;
        z = &z[1.min(z.len())..];
        while z.first().is_some_and(|c| c & 0xc0 == 0x80) {
            z = &z[1..];
            off = off.saturating_sub(1);
        }
    }
    let mut len = z.len();
    if len > 78 {
        len = 78;
        while len > 0 && z[len] & 0xc0 == 0x80 {
            len -= 1;
        }
    }
    let code: Vec<u8> = z[..len]
        .iter()
        .map(|&c| if is_space(c) { b' ' } else { c })
        .collect();
    let mut m = b"\n  ".to_vec();
    m.extend_from_slice(&code);
    m.extend_from_slice(b"\n  ");
    if off < 25 {
        m.resize(m.len() + off, b' ');
        m.extend_from_slice(b"^--- error here");
    } else {
        m.resize(m.len() + off - 14, b' ');
        m.extend_from_slice(b"error here ---^");
    }
    m
}

/// Is `sql` complete once a `;` is added (or empty)?
fn is_complete(sql: &[u8]) -> bool {
    if sql.is_empty() {
        return true;
    }
    let mut s = sql.to_vec();
    s.push(b';');
    db::complete(&s)
}

/// A line that is only `/` or `go` (SQL Server's and Oracle's batch ends).
fn is_command_terminator(line: &[u8]) -> bool {
    let z = skip_space(line);
    let rest = if z.first() == Some(&b'/') {
        &z[1..]
    } else if z.len() >= 2 && z[..2].eq_ignore_ascii_case(b"go") {
        &z[2..]
    } else {
        return false;
    };
    quickscan(rest, Scan::START) == Scan::START
}

/// What the lines read so far hold, outside SQL's strings and comments:
/// the quote or comment being waited for, whether anything but space was
/// seen, and whether the last such thing was a `;`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Scan {
    wait: u8,
    dark: bool,
    semi: bool,
}

impl Scan {
    const START: Scan = Scan {
        wait: 0,
        dark: false,
        semi: false,
    };
    fn in_plain(self) -> bool {
        self.wait == 0
    }
    fn plain_white(self) -> bool {
        self.wait == 0 && !self.dark
    }
    fn semi_term(self) -> bool {
        self.wait == 0 && self.semi
    }
}

fn quickscan(line: &[u8], mut q: Scan) -> Scan {
    let mut i = 0;
    let at = |i: usize| line.get(i).copied().unwrap_or(0);
    while i < line.len() {
        if q.wait != 0 {
            let c = at(i);
            i += 1;
            if c != q.wait {
                continue;
            }
            match q.wait {
                b'*' => {
                    if at(i) == b'/' {
                        i += 1;
                        q.wait = 0;
                    }
                }
                b'`' | b'\'' | b'"' => {
                    if at(i) == q.wait {
                        i += 1;
                    } else {
                        q.wait = 0;
                    }
                }
                _ => q.wait = 0,
            }
            continue;
        }
        let c = at(i);
        i += 1;
        if is_space(c) {
            continue;
        }
        match c {
            b'-' if at(i) == b'-' => {
                while i < line.len() && at(i) != b'\n' {
                    i += 1;
                }
                if i >= line.len() {
                    return q;
                }
                continue;
            }
            b';' => {
                q.semi = true;
                continue;
            }
            b'/' if at(i) == b'*' => {
                i += 1;
                q.wait = b'*';
                continue;
            }
            b'[' => {
                q.wait = b']';
                q.dark = true;
                q.semi = false;
                continue;
            }
            b'`' | b'\'' | b'"' => {
                q.wait = c;
                q.dark = true;
                q.semi = false;
                continue;
            }
            _ => {}
        }
        q.semi = false;
        q.dark = true;
    }
    q
}
