//! `.dump ?OPTIONS? ?PATTERN ...?`: the schema and rows as SQL that
//! rebuilds the database, in sqlite3 3.40's order and spelling.

use crate::db::SQLITE_ROW;
use crate::dot::lossy;
use crate::modes::Mode;
use crate::quote;
use crate::schema::schema_line;
use crate::shell::Shell;

fn literal(s: &[u8]) -> String {
    let mut v = Vec::new();
    quote::sql_string(&mut v, s);
    lossy(&v)
}

struct Flags {
    preserve_rowids: bool,
    data_only: bool,
    nosys: bool,
}

pub fn dump(sh: &mut Shell, args: &[Vec<u8>]) -> i32 {
    let mut flags = Flags {
        preserve_rowids: false,
        data_only: false,
        nosys: false,
    };
    let mut newlines = false;
    let mut like: Option<String> = None;
    for a in &args[1..] {
        if a.first() == Some(&b'-') {
            let z = a.strip_prefix(b"--").unwrap_or(&a[1..]);
            match z {
                b"preserve-rowids" => flags.preserve_rowids = true,
                b"newlines" => newlines = true,
                b"data-only" => flags.data_only = true,
                b"nosys" => flags.nosys = true,
                _ => {
                    eprintln!("Unknown option \"{}\" on \".dump\"", lossy(a));
                    return 1;
                }
            }
        } else {
            let p = literal(a);
            let expr = format!(
                "name LIKE {p} ESCAPE '\\' OR EXISTS (  SELECT 1 FROM sqlite_schema WHERE     \
                 name LIKE {p} ESCAPE '\\' AND    sql LIKE 'CREATE VIRTUAL TABLE%' AND    \
                 substr(o.name, 1, length(name)+1) == (name||'_'))"
            );
            like = Some(match like {
                Some(l) => format!("{l} OR {expr}"),
                None => expr,
            });
        }
    }
    sh.open_db();
    if !flags.data_only {
        sh.out(b"PRAGMA foreign_keys=OFF;\nBEGIN TRANSACTION;\n");
    }
    let saved = (sh.show_header, sh.mode, sh.dump_newlines, sh.echo);
    sh.show_header = false;
    sh.dump_newlines = newlines;
    sh.echo = false;
    sh.db().exec("SAVEPOINT dump; PRAGMA writable_schema=ON");
    let like = like.unwrap_or_else(|| "true".into());
    let mut errors = 0;
    let mut writable = false;
    let tables = format!(
        "SELECT name, type, sql FROM sqlite_schema AS o WHERE ({like}) AND type=='table'  AND sql \
         NOT NULL ORDER BY tbl_name='sqlite_sequence', rowid"
    );
    match sh.db().rows(&tables) {
        Ok(rows) => {
            for row in rows {
                let get = |i: usize| row.get(i).cloned().flatten().unwrap_or_default();
                dump_table(
                    sh,
                    &flags,
                    (&get(0), &get(1), &get(2)),
                    &mut writable,
                    &mut errors,
                );
            }
        }
        Err(_) => errors += 1,
    }
    if !flags.data_only {
        let others = format!(
            "SELECT sql FROM sqlite_schema AS o WHERE ({like}) AND sql NOT NULL  AND type IN \
             ('index','trigger','view')"
        );
        dump_schema_rows(sh, &others, &mut errors);
    }
    if writable {
        sh.out(b"PRAGMA writable_schema=OFF;\n");
    }
    sh.db().exec("PRAGMA writable_schema=OFF;");
    sh.db().exec("RELEASE dump;");
    if !flags.data_only {
        sh.out(if errors > 0 {
            b"ROLLBACK; -- due to errors\n"
        } else {
            b"COMMIT;\n"
        });
    }
    (sh.show_header, sh.mode, sh.dump_newlines, sh.echo) = saved;
    sh.cmode = sh.mode;
    0
}

/// One table: its CREATE statement and an INSERT per row.
fn dump_table(
    sh: &mut Shell,
    flags: &Flags,
    (name, kind, sql): (&[u8], &[u8], &[u8]),
    writable: &mut bool,
    errors: &mut u32,
) {
    let mut o = Vec::new();
    if name == b"sqlite_sequence" && !flags.nosys {
        if !flags.data_only {
            o.extend_from_slice(b"DELETE FROM sqlite_sequence;\n");
        }
    } else if crate::db::strglob(b"sqlite_stat?", name) && !flags.nosys {
        if !flags.data_only {
            o.extend_from_slice(b"ANALYZE sqlite_schema;\n");
        }
    } else if name.starts_with(b"sqlite_") {
        return;
    } else if flags.data_only {
    } else if sql.starts_with(b"CREATE VIRTUAL TABLE") {
        if !*writable {
            o.extend_from_slice(b"PRAGMA writable_schema=ON;\n");
            *writable = true;
        }
        o.extend_from_slice(
            format!(
                "INSERT INTO sqlite_schema(type,name,tbl_name,rootpage,sql)VALUES('table',{},{},0,{});\n",
                literal(name),
                literal(name),
                literal(sql)
            )
            .as_bytes(),
        );
        sh.out(&o);
        return;
    } else {
        schema_line(&mut o, sql, b";\n");
    }
    sh.out(&o);
    if kind != b"table" {
        return;
    }
    let Some((rowid, cols)) = column_list(sh, name, flags.preserve_rowids) else {
        *errors += 1;
        return;
    };
    let mut target = Vec::new();
    quote::ident(&mut target, name);
    let mut select = b"SELECT ".to_vec();
    if let Some(r) = rowid {
        target.push(b'(');
        target.extend_from_slice(r.as_bytes());
        for c in &cols {
            target.push(b',');
            quote::ident(&mut target, c);
        }
        target.push(b')');
        select.extend_from_slice(r.as_bytes());
        select.push(b',');
    }
    for (i, c) in cols.iter().enumerate() {
        if i > 0 {
            select.push(b',');
        }
        quote::ident(&mut select, c);
    }
    select.extend_from_slice(b" FROM ");
    quote::ident(&mut select, name);
    let saved_table = std::mem::replace(&mut sh.dest_table, target);
    let saved_mode = sh.mode;
    sh.mode = Mode::Insert;
    let (rc, _) = sh.exec(&select);
    sh.mode = saved_mode;
    sh.dest_table = saved_table;
    if rc != 0 {
        *errors += 1;
    }
}

/// The table's columns (`PRAGMA table_info`), and the name to keep the
/// rowid under when `--preserve-rowids` asks for it and one is free.
fn column_list(
    sh: &Shell,
    table: &[u8],
    preserve: bool,
) -> Option<(Option<&'static str>, Vec<Vec<u8>>)> {
    let rows = sh
        .db()
        .rows(&format!("PRAGMA table_info={}", literal(table)))
        .ok()?;
    let mut cols = Vec::new();
    let (mut npk, mut ipk) = (0, false);
    for row in &rows {
        let get = |i: usize| row.get(i).cloned().flatten().unwrap_or_default();
        cols.push(get(1));
        if crate::modes::atoi(&get(5)) != 0 {
            npk += 1;
            ipk = npk == 1 && get(2).eq_ignore_ascii_case(b"INTEGER");
        }
    }
    let mut preserve = preserve;
    if preserve && ipk {
        let q = format!(
            "SELECT 1 FROM pragma_index_list({}) WHERE origin='pk'",
            literal(table)
        );
        let mut st = sh.db().prepare_one(&q).ok()?;
        preserve = st.step() == SQLITE_ROW;
    }
    let mut rowid = None;
    if preserve {
        for r in ["rowid", "_rowid_", "oid"] {
            if !cols.iter().any(|c| c.eq_ignore_ascii_case(r.as_bytes())) {
                if sh.db().has_column(table, r) {
                    rowid = Some(r);
                }
                break;
            }
        }
    }
    Some((rowid, cols))
}

/// Indexes, triggers and views: each statement and a `;` (on a line of
/// its own after a `--` comment).
fn dump_schema_rows(sh: &mut Shell, sql: &str, errors: &mut u32) {
    let mut st = match sh.db().prepare_one(sql) {
        Ok(st) => st,
        Err(rc) => {
            let m = format!("/**** ERROR: ({rc}) {} *****/\n", lossy(&sh.db().errmsg()));
            sh.out(m.as_bytes());
            *errors += 1;
            return;
        }
    };
    let mut o = Vec::new();
    while st.step() == SQLITE_ROW {
        let z = st.text(0).unwrap_or_default();
        o.extend_from_slice(&z);
        let comment = z.windows(2).any(|w| w == b"--");
        o.extend_from_slice(if comment { b"\n;\n" } else { b";\n" });
    }
    let rc = st.finalize();
    if rc != 0 {
        o.extend_from_slice(
            format!("/**** ERROR: ({rc}) {} *****/\n", lossy(&sh.db().errmsg())).as_bytes(),
        );
        *errors += 1;
    }
    sh.out(&o);
}
