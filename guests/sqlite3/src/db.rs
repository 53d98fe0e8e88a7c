//! A thin layer over SQLite's C API (through `rusqlite::ffi`): the shell
//! needs what rusqlite's safe API hides — statement tails, error offsets,
//! column types before conversion, `sqlite3_complete` — so statements are
//! raw handles here, and every `unsafe` of the crate is in this file.

use std::ffi::{CStr, CString, c_char, c_int};
use std::ptr;

use rusqlite::ffi;

pub use ffi::{SQLITE_BLOB, SQLITE_FLOAT, SQLITE_INTEGER, SQLITE_NULL, SQLITE_ROW};

pub const SQLITE_OK: i32 = 0;

/// Bytes up to the first NUL: what C's `%s` prints of a value.
pub fn cstr(b: &[u8]) -> &[u8] {
    match b.iter().position(|&c| c == 0) {
        Some(n) => &b[..n],
        None => b,
    }
}

fn cstring(b: &[u8]) -> CString {
    CString::new(cstr(b)).unwrap_or_default()
}

/// `sqlite3_complete`: does `sql` end with a complete statement?
pub fn complete(sql: &[u8]) -> bool {
    let c = cstring(sql);
    // SAFETY: `c` is a valid NUL-terminated string.
    unsafe { ffi::sqlite3_complete(c.as_ptr()) != 0 }
}

/// `sqlite3_keyword_check`.
pub fn is_keyword(name: &[u8]) -> bool {
    // SAFETY: the pointer and length describe `name`.
    unsafe { ffi::sqlite3_keyword_check(name.as_ptr() as *const c_char, name.len() as c_int) != 0 }
}

/// `sqlite3_strlike(pattern, s, esc) == 0`.
pub fn strlike(pattern: &[u8], s: &[u8], esc: u8) -> bool {
    let (p, s) = (cstring(pattern), cstring(s));
    // SAFETY: both are valid NUL-terminated strings.
    unsafe { ffi::sqlite3_strlike(p.as_ptr(), s.as_ptr(), esc as u32) == 0 }
}

/// `sqlite3_strglob(pattern, s) == 0`.
pub fn strglob(pattern: &[u8], s: &[u8]) -> bool {
    let (p, s) = (cstring(pattern), cstring(s));
    // SAFETY: both are valid NUL-terminated strings.
    unsafe { ffi::sqlite3_strglob(p.as_ptr(), s.as_ptr()) == 0 }
}

pub struct Db {
    conn: rusqlite::Connection,
}

impl Db {
    /// Opens `path` as the shell does (read-write, create, URIs allowed),
    /// or says why not.
    pub fn open(path: &str, readonly: bool) -> Result<Db, String> {
        use rusqlite::OpenFlags as F;
        let mut flags = F::SQLITE_OPEN_URI | F::SQLITE_OPEN_NO_MUTEX;
        if readonly {
            flags |= F::SQLITE_OPEN_READ_ONLY;
        } else {
            flags |= F::SQLITE_OPEN_READ_WRITE | F::SQLITE_OPEN_CREATE;
        }
        let conn = rusqlite::Connection::open_with_flags(path, flags).map_err(|e| match e {
            rusqlite::Error::SqliteFailure(_, Some(m)) => m,
            rusqlite::Error::SqliteFailure(e, None) => e.to_string(),
            other => other.to_string(),
        })?;
        // rusqlite's SQLite is built with foreign keys on by default; the
        // sqlite3 command's is not.
        let _ = conn.execute_batch("PRAGMA foreign_keys=OFF");
        let _ = rusqlite::vtab::series::load_module(&conn);
        let db = Db { conn };
        // 3.54 turns REALs into text with up to 17 digits; 3.40 used 15
        // (CAST, ||, group_concat, ...).
        const SQLITE_DBCONFIG_FP_DIGITS: c_int = 1023;
        // SAFETY: a valid handle; FP_DIGITS takes an int and an int* that
        // may be null.
        unsafe {
            ffi::sqlite3_db_config(
                db.raw(),
                SQLITE_DBCONFIG_FP_DIGITS,
                15 as c_int,
                ptr::null_mut::<c_int>(),
            );
        }
        Ok(db)
    }

    fn raw(&self) -> *mut ffi::sqlite3 {
        // SAFETY: the handle is used only while `self.conn` lives.
        unsafe { self.conn.handle() }
    }

    pub fn errmsg(&self) -> Vec<u8> {
        // SAFETY: sqlite3_errmsg returns a NUL-terminated string owned by
        // the connection, copied at once.
        unsafe {
            let p = ffi::sqlite3_errmsg(self.raw());
            if p.is_null() {
                Vec::new()
            } else {
                CStr::from_ptr(p).to_bytes().to_vec()
            }
        }
    }

    pub fn error_offset(&self) -> i32 {
        // SAFETY: a valid connection handle.
        unsafe { ffi::sqlite3_error_offset(self.raw()) }
    }

    pub fn autocommit(&self) -> bool {
        // SAFETY: a valid connection handle.
        unsafe { ffi::sqlite3_get_autocommit(self.raw()) != 0 }
    }

    pub fn changes(&self) -> (i64, i64) {
        // SAFETY: a valid connection handle.
        unsafe {
            (
                ffi::sqlite3_changes64(self.raw()),
                ffi::sqlite3_total_changes64(self.raw()),
            )
        }
    }

    /// `sqlite3_exec` with no callback; the primary result code.
    pub fn exec(&self, sql: &str) -> i32 {
        let c = cstring(sql.as_bytes());
        // SAFETY: a valid connection and NUL-terminated SQL.
        unsafe {
            ffi::sqlite3_exec(
                self.raw(),
                c.as_ptr(),
                None,
                ptr::null_mut(),
                ptr::null_mut(),
            ) & 0xff
        }
    }

    /// Does `table` have a column (or rowid alias) named `column`?
    pub fn has_column(&self, table: &[u8], column: &str) -> bool {
        let (t, c) = (cstring(table), cstring(column.as_bytes()));
        // SAFETY: valid handle and strings; every output pointer is null.
        unsafe {
            ffi::sqlite3_table_column_metadata(
                self.raw(),
                ptr::null(),
                t.as_ptr(),
                c.as_ptr(),
                ptr::null_mut(),
                ptr::null_mut(),
                ptr::null_mut(),
                ptr::null_mut(),
                ptr::null_mut(),
            ) == 0
        }
    }

    /// Prepares the first statement of `sql`. Ok((statement or None for
    /// only whitespace/comments, bytes consumed)), or Err(primary code).
    pub fn prepare(&self, sql: &[u8]) -> Result<(Option<Stmt>, usize), i32> {
        let sql = cstr(sql);
        let mut stmt = ptr::null_mut();
        let mut tail: *const c_char = ptr::null();
        let start = sql.as_ptr() as *const c_char;
        // SAFETY: the SQL is passed with its length, so it needs no NUL;
        // `tail` points into it.
        let rc = unsafe {
            ffi::sqlite3_prepare_v2(self.raw(), start, sql.len() as c_int, &mut stmt, &mut tail)
        };
        let used = if tail.is_null() {
            sql.len()
        } else {
            (tail as usize)
                .saturating_sub(start as usize)
                .min(sql.len())
        };
        if rc != 0 {
            if !stmt.is_null() {
                // SAFETY: finalizing a statement we own.
                unsafe { ffi::sqlite3_finalize(stmt) };
            }
            return Err(rc & 0xff);
        }
        if stmt.is_null() {
            Ok((None, used))
        } else {
            Ok((Some(Stmt { raw: stmt }), used))
        }
    }

    /// Prepares the shell's own one-statement SQL; Err for an error or no
    /// statement.
    pub fn prepare_one(&self, sql: &str) -> Result<Stmt, i32> {
        match self.prepare(sql.as_bytes())? {
            (Some(s), _) => Ok(s),
            (None, _) => Err(1),
        }
    }

    /// Rows of the shell's own one-column-or-more queries, as text.
    pub fn rows(&self, sql: &str) -> Result<Vec<Vec<Option<Vec<u8>>>>, i32> {
        let mut st = self.prepare_one(sql)?;
        let mut out = Vec::new();
        while st.step() == SQLITE_ROW {
            out.push((0..st.column_count()).map(|i| st.text(i)).collect());
        }
        match st.finalize() {
            0 => Ok(out),
            rc => Err(rc),
        }
    }
}

pub struct Stmt {
    raw: *mut ffi::sqlite3_stmt,
}

impl Drop for Stmt {
    fn drop(&mut self) {
        if !self.raw.is_null() {
            // SAFETY: finalizing a statement we own, once.
            unsafe { ffi::sqlite3_finalize(self.raw) };
        }
    }
}

impl Stmt {
    /// `sqlite3_finalize`: the primary result code.
    pub fn finalize(mut self) -> i32 {
        let raw = std::mem::replace(&mut self.raw, ptr::null_mut());
        // SAFETY: finalizing a statement we own, once.
        unsafe { ffi::sqlite3_finalize(raw) & 0xff }
    }

    pub fn step(&mut self) -> i32 {
        // SAFETY: a live statement.
        unsafe { ffi::sqlite3_step(self.raw) }
    }

    pub fn reset(&mut self) -> i32 {
        // SAFETY: a live statement.
        unsafe { ffi::sqlite3_reset(self.raw) & 0xff }
    }

    /// 1 for EXPLAIN, 2 for EXPLAIN QUERY PLAN, else 0.
    pub fn is_explain(&self) -> i32 {
        // SAFETY: a live statement.
        unsafe { ffi::sqlite3_stmt_isexplain(self.raw) }
    }

    pub fn column_count(&self) -> usize {
        // SAFETY: a live statement.
        unsafe { ffi::sqlite3_column_count(self.raw).max(0) as usize }
    }

    pub fn column_name(&self, i: usize) -> Vec<u8> {
        // SAFETY: `i` is below the column count; the name is copied at once.
        unsafe {
            let p = ffi::sqlite3_column_name(self.raw, i as c_int);
            if p.is_null() {
                Vec::new()
            } else {
                CStr::from_ptr(p).to_bytes().to_vec()
            }
        }
    }

    pub fn column_type(&self, i: usize) -> i32 {
        // SAFETY: a live statement on a row.
        unsafe { ffi::sqlite3_column_type(self.raw, i as c_int) }
    }

    pub fn double(&self, i: usize) -> f64 {
        // SAFETY: a live statement on a row.
        unsafe { ffi::sqlite3_column_double(self.raw, i as c_int) }
    }

    /// The value's bytes as text or blob (None for NULL).
    fn bytes(&self, i: usize, blob: bool) -> Option<Vec<u8>> {
        // SAFETY: a live statement on a row; the pointer is valid for the
        // length sqlite3_column_bytes reports, and copied at once.
        unsafe {
            let p = if blob {
                ffi::sqlite3_column_blob(self.raw, i as c_int) as *const u8
            } else {
                ffi::sqlite3_column_text(self.raw, i as c_int)
            };
            let n = ffi::sqlite3_column_bytes(self.raw, i as c_int).max(0) as usize;
            if p.is_null() {
                if self.column_type(i) == SQLITE_NULL {
                    None
                } else {
                    Some(Vec::new())
                }
            } else {
                Some(std::slice::from_raw_parts(p, n).to_vec())
            }
        }
    }

    /// `sqlite3_column_text` (SQLite's own conversion).
    pub fn text(&self, i: usize) -> Option<Vec<u8>> {
        self.bytes(i, false)
    }

    pub fn blob(&self, i: usize) -> Vec<u8> {
        self.bytes(i, true).unwrap_or_default()
    }

    pub fn bind_text(&mut self, i: usize, v: Option<&[u8]>) {
        // SAFETY: SQLITE_TRANSIENT makes SQLite copy the bytes.
        unsafe {
            match v {
                Some(b) => ffi::sqlite3_bind_text(
                    self.raw,
                    i as c_int,
                    b.as_ptr() as *const c_char,
                    b.len() as c_int,
                    ffi::SQLITE_TRANSIENT(),
                ),
                None => ffi::sqlite3_bind_null(self.raw, i as c_int),
            };
        }
    }
}
