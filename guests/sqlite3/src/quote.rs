//! The quoting rules of sqlite3's output: SQL literals, identifiers, CSV,
//! JSON, HTML and C strings. Every function appends to a byte buffer.

use crate::db;

/// `'...'` with single quotes doubled.
pub fn sql_string(out: &mut Vec<u8>, z: &[u8]) {
    out.push(b'\'');
    for &c in z {
        out.push(c);
        if c == b'\'' {
            out.push(b'\'');
        }
    }
    out.push(b'\'');
}

/// The first of `a`, `b`, `(a0)`, `(a1)`, ... that does not occur in `z`.
fn unused_string(z: &[u8], a: &str, b: &str) -> Vec<u8> {
    let has = |s: &[u8]| z.windows(s.len()).any(|w| w == s);
    if !has(a.as_bytes()) {
        return a.as_bytes().to_vec();
    }
    if !has(b.as_bytes()) {
        return b.as_bytes().to_vec();
    }
    let mut i = 0u32;
    loop {
        let s = format!("({a}{i})").into_bytes();
        if !has(&s) {
            return s;
        }
        i += 1;
    }
}

/// A SQL literal whose newlines and carriage returns are spelled out
/// through `replace(...,char(10))`, as `.dump` and insert mode write them.
pub fn sql_string_escaped(out: &mut Vec<u8>, z: &[u8]) {
    let nl = z.contains(&b'\n');
    let cr = z.contains(&b'\r');
    if !nl && !cr {
        sql_string(out, z);
        return;
    }
    let znl = unused_string(z, "\\n", "\\012");
    let zcr = unused_string(z, "\\r", "\\015");
    if nl {
        out.extend_from_slice(b"replace(");
    }
    if cr {
        out.extend_from_slice(b"replace(");
    }
    out.push(b'\'');
    for &c in z {
        match c {
            b'\n' => out.extend_from_slice(&znl),
            b'\r' => out.extend_from_slice(&zcr),
            b'\'' => out.extend_from_slice(b"''"),
            _ => out.push(c),
        }
    }
    out.push(b'\'');
    if cr {
        out.extend_from_slice(b",'");
        out.extend_from_slice(&zcr);
        out.extend_from_slice(b"',char(13))");
    }
    if nl {
        out.extend_from_slice(b",'");
        out.extend_from_slice(&znl);
        out.extend_from_slice(b"',char(10))");
    }
}

/// `X'..'` in lower-case hex.
pub fn hex_blob(out: &mut Vec<u8>, b: &[u8], prefix: &[u8]) {
    out.extend_from_slice(prefix);
    for byte in b {
        out.extend_from_slice(format!("{byte:02x}").as_bytes());
    }
    out.push(b'\'');
}

/// The quote an identifier needs: `"` unless it is a plain word that is
/// not a keyword.
pub fn quote_char(name: &[u8]) -> Option<u8> {
    let plain = |c: &u8| c.is_ascii_alphanumeric() || *c == b'_';
    match name.first() {
        Some(c) if c.is_ascii_alphabetic() || *c == b'_' => {}
        _ => return Some(b'"'),
    }
    if !name.iter().all(plain) || db::is_keyword(name) {
        Some(b'"')
    } else {
        None
    }
}

/// `name`, quoted with `q` (doubling it inside) when given.
pub fn with_quote(out: &mut Vec<u8>, name: &[u8], q: Option<u8>) {
    match q {
        None => out.extend_from_slice(name),
        Some(q) => {
            out.push(q);
            for &c in name {
                out.push(c);
                if c == q {
                    out.push(q);
                }
            }
            out.push(q);
        }
    }
}

/// An identifier, quoted only when it needs it.
pub fn ident(out: &mut Vec<u8>, name: &[u8]) {
    with_quote(out, name, quote_char(name));
}

/// An identifier always in double quotes (`"%w"`).
pub fn dquoted(name: &[u8]) -> Vec<u8> {
    let mut v = Vec::new();
    with_quote(&mut v, name, Some(b'"'));
    v
}

/// Does a CSV field need quotes? Empty fields, and any byte that is a
/// control character, a space, `"`, `'`, DEL or non-ASCII, or the column
/// separator somewhere in it.
pub fn csv_needs_quote(z: &[u8], sep: &[u8]) -> bool {
    z.is_empty()
        || z.iter()
            .any(|&c| c <= b' ' || c == b'"' || c == b'\'' || c >= 0x7f)
        || (!sep.is_empty() && z.windows(sep.len()).any(|w| w == sep))
}

pub fn csv_field(out: &mut Vec<u8>, z: &[u8], sep: &[u8]) {
    if csv_needs_quote(z, sep) {
        with_quote(out, z, Some(b'"'));
    } else {
        out.extend_from_slice(z);
    }
}

pub fn json_string(out: &mut Vec<u8>, z: &[u8]) {
    out.push(b'"');
    for &c in z {
        match c {
            b'\\' | b'"' => {
                out.push(b'\\');
                out.push(c);
            }
            0x08 => out.extend_from_slice(b"\\b"),
            0x0c => out.extend_from_slice(b"\\f"),
            b'\n' => out.extend_from_slice(b"\\n"),
            b'\r' => out.extend_from_slice(b"\\r"),
            b'\t' => out.extend_from_slice(b"\\t"),
            c if c <= 0x1f => out.extend_from_slice(format!("\\u{c:04x}").as_bytes()),
            c => out.push(c),
        }
    }
    out.push(b'"');
}

pub fn html_string(out: &mut Vec<u8>, z: &[u8]) {
    for &c in z {
        match c {
            b'<' => out.extend_from_slice(b"&lt;"),
            b'&' => out.extend_from_slice(b"&amp;"),
            b'>' => out.extend_from_slice(b"&gt;"),
            b'"' => out.extend_from_slice(b"&quot;"),
            b'\'' => out.extend_from_slice(b"&#39;"),
            c => out.push(c),
        }
    }
}

/// A C string literal (tcl mode, `.import -v`).
pub fn c_string(out: &mut Vec<u8>, z: &[u8]) {
    out.push(b'"');
    for &c in z {
        match c {
            b'\\' => out.extend_from_slice(b"\\\\"),
            b'"' => out.extend_from_slice(b"\\\""),
            b'\t' => out.extend_from_slice(b"\\t"),
            b'\n' => out.extend_from_slice(b"\\n"),
            b'\r' => out.extend_from_slice(b"\\r"),
            c if !(0x20..0x7f).contains(&c) => {
                out.extend_from_slice(format!("\\{c:03o}").as_bytes())
            }
            c => out.push(c),
        }
    }
    out.push(b'"');
}
