//! `.tables`, `.indexes` and `.schema`.

use crate::db::{self, SQLITE_ROW};
use crate::dot::{lossy, option_is};
use crate::quote;
use crate::shell::Shell;

/// A schema statement as `.schema` and `.dump` print it: closed so that a
/// trailing comment cannot swallow the `;`, and `CREATE TABLE "x"` made
/// `CREATE TABLE IF NOT EXISTS "x"`.
pub fn schema_line(o: &mut Vec<u8>, sql: &[u8], tail: &[u8]) {
    let mut z = sql.to_vec();
    let has = |s: &[u8]| sql.windows(s.len()).any(|w| w == s);
    if tail.first() == Some(&b';') && (has(b"/*") || has(b"--")) {
        for term in [&b""[..], b"*/", b"\n"] {
            let mut t = sql.to_vec();
            t.extend_from_slice(term);
            t.push(b';');
            if db::complete(&t) {
                t.pop();
                z = t;
                break;
            }
        }
    }
    if db::strglob(b"CREATE TABLE ['\"]*", &z) {
        o.extend_from_slice(b"CREATE TABLE IF NOT EXISTS ");
        o.extend_from_slice(&z[13..]);
    } else {
        o.extend_from_slice(&z);
    }
    o.extend_from_slice(tail);
}

fn quoted_literal(s: &[u8]) -> String {
    let mut v = Vec::new();
    quote::sql_string(&mut v, s);
    lossy(&v)
}

/// The attached databases' names, `main` first.
fn databases(sh: &Shell) -> Result<Vec<Vec<u8>>, i32> {
    let rows = sh.db().rows("PRAGMA database_list")?;
    Ok(rows
        .into_iter()
        .filter_map(|r| r.get(1).cloned().flatten())
        .collect())
}

/// `.tables ?PATTERN?` and `.indexes ?PATTERN?`: names in columns across
/// an 80-character line, filled down first.
pub fn tables(sh: &mut Shell, args: &[Vec<u8>], indexes: bool) -> i32 {
    sh.open_db();
    let Ok(dbs) = databases(sh) else {
        eprintln!("Error: {}", lossy(&sh.db().errmsg()));
        return 1;
    };
    if args.len() > 2 && indexes {
        eprintln!("Usage: .indexes ?LIKE-PATTERN?");
        return 1;
    }
    let mut sql = String::new();
    for name in &dbs {
        if !sql.is_empty() {
            sql.push_str(" UNION ALL ");
        }
        let n = lossy(name);
        if n.eq_ignore_ascii_case("main") {
            sql.push_str("SELECT name FROM ");
        } else {
            sql.push_str(&format!("SELECT {}||'.'||name FROM ", quoted_literal(name)));
        }
        sql.push_str(&lossy(&quote::dquoted(name)));
        sql.push_str(".sqlite_schema ");
        if indexes {
            sql.push_str(" WHERE type='index'   AND tbl_name LIKE ?1");
        } else {
            sql.push_str(
                " WHERE type IN ('table','view')   AND name NOT LIKE 'sqlite_%'   AND name LIKE ?1",
            );
        }
    }
    sql.push_str(" ORDER BY 1");
    let mut st = match sh.db().prepare_one(&sql) {
        Ok(st) => st,
        Err(_) => {
            eprintln!("Error: {}", lossy(&sh.db().errmsg()));
            return 1;
        }
    };
    let pattern = args.get(1).map(|p| p.as_slice()).unwrap_or(b"%");
    st.bind_text(1, Some(pattern));
    let mut names = Vec::new();
    while st.step() == SQLITE_ROW {
        names.push(st.text(0).unwrap_or_default());
    }
    if st.finalize() != 0 {
        eprintln!("Error: {}", lossy(&sh.db().errmsg()));
        return 1;
    }
    if names.is_empty() {
        return 0;
    }
    let maxlen = names.iter().map(|n| n.len()).max().unwrap_or(0);
    let cols = (80 / (maxlen + 2)).max(1);
    let rows = names.len().div_ceil(cols);
    let mut o = Vec::new();
    for i in 0..rows {
        let mut j = i;
        while j < names.len() {
            if j >= rows {
                o.extend_from_slice(b"  ");
            }
            o.extend_from_slice(&names[j]);
            o.resize(o.len() + maxlen - names[j].len(), b' ');
            j += rows;
        }
        o.push(b'\n');
    }
    sh.out(&o);
    0
}

/// A view's columns as a comment, `name(a,b)`, from `PRAGMA table_info`.
fn fake_schema(sh: &Shell, schema: Option<&[u8]>, name: &[u8]) -> Option<Vec<u8>> {
    let sql = format!(
        "PRAGMA {}.table_info={}",
        lossy(&quote::dquoted(schema.unwrap_or(b"main"))),
        quoted_literal(name)
    );
    let rows = sh.db().rows(&sql).unwrap_or_default();
    if rows.is_empty() {
        return None;
    }
    let mut s = Vec::new();
    if let Some(schema) = schema {
        let q = quote::quote_char(schema).filter(|_| !schema.eq_ignore_ascii_case(b"temp"));
        quote::with_quote(&mut s, schema, q);
        s.push(b'.');
    }
    quote::ident(&mut s, name);
    for (i, row) in rows.iter().enumerate() {
        s.push(if i == 0 { b'(' } else { b',' });
        let col = row.get(1).cloned().flatten().unwrap_or_default();
        quote::ident(&mut s, &col);
    }
    s.push(b')');
    Some(s)
}

/// sqlite3's `shell_add_schema(sql, schema, name)`: the schema name put
/// into `CREATE ... name` for attached databases, and a view's columns.
fn add_schema(sh: &Shell, sql: &[u8], schema: Option<&[u8]>, name: &[u8]) -> Vec<u8> {
    const PREFIXES: [&[u8]; 6] = [
        b"TABLE",
        b"INDEX",
        b"UNIQUE INDEX",
        b"VIEW",
        b"TRIGGER",
        b"VIRTUAL TABLE",
    ];
    if !sql.starts_with(b"CREATE ") {
        return sql.to_vec();
    }
    for p in PREFIXES {
        let n = p.len();
        if sql[7..].starts_with(p) && sql.get(n + 7) == Some(&b' ') {
            let mut z: Option<Vec<u8>> = None;
            if let Some(schema) = schema {
                let mut v = sql[..n + 7].to_vec();
                v.push(b' ');
                if quote::quote_char(schema).is_some() && !schema.eq_ignore_ascii_case(b"temp") {
                    v.extend_from_slice(&quote::dquoted(schema));
                } else {
                    v.extend_from_slice(schema);
                }
                v.push(b'.');
                v.extend_from_slice(&sql[n + 8..]);
                z = Some(v);
            }
            if p[0] == b'V'
                && let Some(fake) = fake_schema(sh, schema, name)
            {
                let mut v = z.unwrap_or_else(|| sql.to_vec());
                v.extend_from_slice(b"\n/* ");
                v.extend_from_slice(&fake);
                v.extend_from_slice(b" */");
                z = Some(v);
            }
            if let Some(z) = z {
                return z;
            }
        }
    }
    sql.to_vec()
}

/// `.schema ?--indent? ?--nosys? ?PATTERN?`.
pub fn schema(sh: &mut Shell, args: &[Vec<u8>]) -> i32 {
    sh.open_db();
    let mut name: Option<&[u8]> = None;
    let mut nosys = false;
    for a in &args[1..] {
        if option_is(a, "indent") || option_is(a, "debug") {
        } else if option_is(a, "nosys") {
            nosys = true;
        } else if a.first() == Some(&b'-') {
            eprintln!("Unknown option: \"{}\"", lossy(a));
            return 1;
        } else if name.is_none() {
            name = Some(a);
        } else {
            eprintln!("Usage: .schema ?--indent? ?--nosys? ?LIKE-PATTERN?");
            return 1;
        }
    }
    let mut o = Vec::new();
    if let Some(name) = name
        && [
            &b"sqlite_master"[..],
            b"sqlite_schema",
            b"sqlite_temp_master",
            b"sqlite_temp_schema",
        ]
        .iter()
        .any(|s| db::strlike(name, s, b'\\'))
    {
        let sql = format!(
            "CREATE TABLE {} (\n  type text,\n  name text,\n  tbl_name text,\n  rootpage integer,\n  sql text\n)",
            lossy(name)
        );
        schema_line(&mut o, sql.as_bytes(), b";\n");
    }
    let Ok(dbs) = databases(sh) else {
        eprintln!("Error: {}", lossy(&sh.db().errmsg()));
        return 1;
    };
    let mut sql = String::from("SELECT sql, sname, name FROM (");
    for (i, db) in dbs.iter().enumerate() {
        if i > 0 {
            sql.push_str(" UNION ALL ");
        }
        sql.push_str(&format!(
            "SELECT sql, type, tbl_name, name, rowid, {} AS snum, {} AS sname FROM {}.sqlite_schema",
            i + 1,
            quoted_literal(db),
            lossy(&{
                let mut v = Vec::new();
                quote::ident(&mut v, db);
                v
            })
        ));
    }
    if name.is_some() {
        sql.push_str(
            " UNION ALL SELECT NULL, 'table', name, name, name, 9e+99, 'main' FROM pragma_module_list",
        );
    }
    sql.push_str(") WHERE ");
    if let Some(name) = name {
        let glob = name.iter().any(|c| matches!(c, b'*' | b'?' | b'['));
        if name.contains(&b'.') {
            sql.push_str("lower(printf('%s.%s',sname,tbl_name))");
        } else {
            sql.push_str("lower(tbl_name)");
        }
        sql.push_str(if glob { " GLOB " } else { " LIKE " });
        sql.push_str(&quoted_literal(name));
        if !glob {
            sql.push_str(" ESCAPE '\\' ");
        }
        sql.push_str(" AND ");
    }
    if nosys {
        sql.push_str("name NOT LIKE 'sqlite_%' AND ");
    }
    sql.push_str("(sql IS NOT NULL OR snum=9e+99) ORDER BY snum, rowid");
    let rows = match sh.db().rows(&sql) {
        Ok(r) => r,
        Err(_) => {
            eprintln!("Error: {}", lossy(&sh.db().errmsg()));
            return 1;
        }
    };
    for row in rows {
        let sname = row[1].clone().unwrap_or_default();
        let obj = row[2].clone().unwrap_or_default();
        let text = match &row[0] {
            Some(sql) => {
                let schema = (!sname.eq_ignore_ascii_case(b"main")).then_some(sname.as_slice());
                add_schema(sh, sql, schema, &obj)
            }
            None => match fake_schema(sh, None, &obj) {
                Some(f) => {
                    let mut v = b"/* ".to_vec();
                    v.extend_from_slice(&f);
                    v.extend_from_slice(b" */");
                    v
                }
                None => continue,
            },
        };
        schema_line(&mut o, &text, b";\n");
    }
    sh.out(&o);
    0
}
