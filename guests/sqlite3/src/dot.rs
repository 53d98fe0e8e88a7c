//! Dot commands: splitting the line into arguments as sqlite3 does (quotes,
//! backslash escapes), finding the command by the shortest prefix sqlite3
//! accepts, and the small commands. `.tables`, `.schema`, `.dump` and
//! `.import` have modules of their own.

use crate::modes::Mode;
use crate::quote;
use crate::shell::{Out, Shell};

/// sqlite3's `resolve_backslashes`: C escapes and octal `\NNN`; any other
/// escaped character stands for itself.
pub fn resolve_backslashes(z: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(z.len());
    let mut i = 0;
    while i < z.len() {
        let mut c = z[i];
        if c == b'\\' && i + 1 < z.len() {
            i += 1;
            c = z[i];
            c = match c {
                b'a' => 7,
                b'b' => 8,
                b't' => b'\t',
                b'n' => b'\n',
                b'v' => 11,
                b'f' => 12,
                b'r' => b'\r',
                b'0'..=b'7' => {
                    let mut v = c - b'0';
                    for _ in 0..2 {
                        match z.get(i + 1) {
                            Some(d @ b'0'..=b'7') => {
                                v = (v << 3).wrapping_add(d - b'0');
                                i += 1;
                            }
                            _ => break,
                        }
                    }
                    v
                }
                other => other,
            };
        }
        out.push(c);
        i += 1;
    }
    out
}

fn is_space(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

/// The arguments of a dot-command line (without its leading `.`).
pub fn split_args(line: &[u8]) -> Vec<Vec<u8>> {
    let mut args = Vec::new();
    let mut h = 1;
    let at = |h: usize| line.get(h).copied().unwrap_or(0);
    while at(h) != 0 && args.len() < 51 {
        while is_space(at(h)) {
            h += 1;
        }
        if at(h) == 0 {
            break;
        }
        let q = at(h);
        if q == b'\'' || q == b'"' {
            h += 1;
            let start = h;
            while at(h) != 0 && at(h) != q {
                if at(h) == b'\\' && q == b'"' && at(h + 1) != 0 {
                    h += 1;
                }
                h += 1;
            }
            let arg = &line[start..h.min(line.len())];
            if at(h) == q {
                h += 1;
            }
            args.push(if q == b'"' {
                resolve_backslashes(arg)
            } else {
                arg.to_vec()
            });
        } else {
            let start = h;
            while at(h) != 0 && !is_space(at(h)) {
                h += 1;
            }
            args.push(resolve_backslashes(&line[start..h.min(line.len())]));
            if at(h) != 0 {
                h += 1;
            }
        }
    }
    args
}

/// sqlite3's `integerValue`: decimal or 0x hex, with an optional sign and
/// a size suffix (KiB, MB, ...).
pub fn integer_value(z: &[u8]) -> i64 {
    let (neg, mut z) = match z.first() {
        Some(b'-') => (true, &z[1..]),
        Some(b'+') => (false, &z[1..]),
        _ => (false, z),
    };
    let mut v: i64 = 0;
    if z.len() > 1 && z[0] == b'0' && (z[1] == b'x' || z[1] == b'X') {
        z = &z[2..];
        while let Some(d) = z.first().and_then(|c| (*c as char).to_digit(16)) {
            v = v.wrapping_mul(16).wrapping_add(d as i64);
            z = &z[1..];
        }
    } else {
        while let Some(c) = z.first().filter(|c| c.is_ascii_digit()) {
            v = v.wrapping_mul(10).wrapping_add((c - b'0') as i64);
            z = &z[1..];
        }
        const SUFFIXES: &[(&str, i64)] = &[
            ("KiB", 1024),
            ("MiB", 1024 * 1024),
            ("GiB", 1024 * 1024 * 1024),
            ("KB", 1000),
            ("MB", 1_000_000),
            ("GB", 1_000_000_000),
            ("K", 1000),
            ("M", 1_000_000),
            ("G", 1_000_000_000),
        ];
        if let Some((_, m)) = SUFFIXES
            .iter()
            .find(|(s, _)| z.eq_ignore_ascii_case(s.as_bytes()))
        {
            v = v.wrapping_mul(*m);
        }
    }
    if neg { v.wrapping_neg() } else { v }
}

/// sqlite3's `booleanValue`.
pub fn boolean_value(z: &[u8]) -> bool {
    let digits = if z.len() > 1 && z[0] == b'0' && z[1] == b'x' {
        2 + z[2..].iter().take_while(|c| c.is_ascii_hexdigit()).count()
    } else {
        z.iter().take_while(|c| c.is_ascii_digit()).count()
    };
    if digits > 0 && digits == z.len() {
        return integer_value(z) & 0xffff_ffff != 0;
    }
    if z.eq_ignore_ascii_case(b"on") || z.eq_ignore_ascii_case(b"yes") {
        return true;
    }
    if !(z.eq_ignore_ascii_case(b"off") || z.eq_ignore_ascii_case(b"no")) {
        eprintln!(
            "ERROR: Not a boolean value: \"{}\". Assuming \"no\".",
            String::from_utf8_lossy(z)
        );
    }
    false
}

/// Is `z` `-NAME` or `--NAME`?
pub fn option_is(z: &[u8], name: &str) -> bool {
    let z = match z {
        [b'-', b'-', rest @ ..] => rest,
        [b'-', rest @ ..] => rest,
        _ => return false,
    };
    z == name.as_bytes()
}

/// Does `arg` abbreviate `full` (at least `min` bytes of it)?
fn is(arg: &[u8], full: &str, min: usize) -> bool {
    arg.len() >= min.max(1) && full.as_bytes().starts_with(arg)
}

fn usage(text: &str) -> i32 {
    eprintln!("{text}");
    1
}

pub fn lossy(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Runs one dot-command line. 0: done; 1: an error (reported); 2: quit.
pub fn run(sh: &mut Shell, line: &[u8]) -> i32 {
    let args = split_args(line);
    let Some(cmd) = args.first() else {
        return 0;
    };
    let c = cmd.as_slice();
    let n = args.len();
    if is(c, "bail", 3) {
        if n != 2 {
            return usage("Usage: .bail on|off");
        }
        sh.bail = boolean_value(&args[1]);
    } else if is(c, "changes", 3) {
        if n != 2 {
            return usage("Usage: .changes on|off");
        }
        sh.count_changes = boolean_value(&args[1]);
    } else if is(c, "dump", 1) {
        return crate::dump::dump(sh, &args);
    } else if is(c, "echo", 1) {
        if n != 2 {
            return usage("Usage: .echo on|off");
        }
        sh.echo = boolean_value(&args[1]);
    } else if is(c, "exit", 2) {
        if n > 1 {
            let code = integer_value(&args[1]) as i32;
            if code != 0 {
                sh.flush();
                crate::exit(code);
            }
        }
        return 2;
    } else if is(c, "headers", 1) {
        if n != 2 {
            return usage("Usage: .headers on|off");
        }
        sh.show_header = boolean_value(&args[1]);
        sh.header_set = true;
    } else if is(c, "import", 1) {
        return crate::import::import(sh, &args);
    } else if is(c, "indexes", 3) || is(c, "indices", 3) {
        return crate::schema::tables(sh, &args, true);
    } else if is(c, "mode", 1) {
        return mode(sh, &args);
    } else if is(c, "nullvalue", 1) {
        if n != 2 {
            return usage("Usage: .nullvalue STRING");
        }
        sh.null_value = args[1].clone();
    } else if is(c, "once", 2) || is(c, "output", 1) {
        let rc = output(sh, &args);
        sh.out_once = rc == 0 && is(c, "once", 2) && args.len() > 1;
        return rc;
    } else if is(c, "open", 2) {
        return open(sh, &args);
    } else if is(c, "print", 3) {
        let mut o = Vec::new();
        for (i, a) in args[1..].iter().enumerate() {
            if i > 0 {
                o.push(b' ');
            }
            o.extend_from_slice(a);
        }
        o.push(b'\n');
        sh.out(&o);
    } else if is(c, "quit", 1) {
        return 2;
    } else if is(c, "read", 3) {
        return read(sh, &args);
    } else if is(c, "schema", 1) {
        return crate::schema::schema(sh, &args);
    } else if is(c, "separator", 3) {
        if !(2..=3).contains(&n) {
            eprintln!("Usage: .separator COL ?ROW?");
            if n < 2 {
                return 1;
            }
        }
        if n >= 2 {
            sh.col_sep = args[1].iter().copied().take(19).collect();
        }
        if n >= 3 {
            sh.row_sep = args[2].iter().copied().take(19).collect();
        }
        if n > 3 {
            return 1;
        }
    } else if is(c, "show", 3) {
        show(sh);
    } else if is(c, "tables", 2) {
        return crate::schema::tables(sh, &args, false);
    } else if is(c, "width", 1) {
        sh.col_width = args[1..].iter().map(|a| integer_value(a) as i32).collect();
    } else {
        eprintln!(
            "Error: unknown command or invalid arguments:  \"{}\". Enter \".help\" for help",
            lossy(c)
        );
        return 1;
    }
    0
}

fn mode(sh: &mut Shell, args: &[Vec<u8>]) -> i32 {
    let (mut wrap, mut wordwrap, mut quote) = (60, false, false);
    let mut chosen: Option<Vec<u8>> = None;
    let mut table: Option<Vec<u8>> = None;
    let mut i = 1;
    while i < args.len() {
        let z = &args[i];
        if option_is(z, "wrap") && i + 1 < args.len() {
            i += 1;
            wrap = integer_value(&args[i]) as i32;
        } else if option_is(z, "ww") {
            wordwrap = true;
        } else if option_is(z, "wordwrap") && i + 1 < args.len() {
            i += 1;
            wordwrap = boolean_value(&args[i]);
        } else if option_is(z, "quote") {
            quote = true;
        } else if option_is(z, "noquote") {
            quote = false;
        } else if chosen.is_none() {
            if z == b"qbox" {
                chosen = Some(b"box".to_vec());
                (wrap, wordwrap, quote) = (60, false, true);
            } else {
                chosen = Some(z.clone());
            }
        } else if table.is_none() {
            table = Some(z.clone());
        } else if z.first() == Some(&b'-') {
            eprintln!("unknown option: {}", lossy(z));
            eprintln!("options:\n  --noquote\n  --quote\n  --wordwrap on/off\n  --wrap N\n  --ww");
            return 1;
        } else {
            eprintln!("extra argument: \"{}\"", lossy(z));
            return 1;
        }
        i += 1;
    }
    let chosen = match chosen {
        Some(m) => m,
        None => {
            let text = if sh.mode.is_columnar() {
                format!(
                    "current output mode: {} --wrap {} --wordwrap {} --{}quote\n",
                    sh.mode.name(),
                    sh.cm_wrap,
                    if sh.cm_wordwrap { "on" } else { "off" },
                    if sh.cm_quote { "" } else { "no" }
                )
            } else {
                format!("current output mode: {}\n", sh.mode.name())
            };
            sh.out(text.as_bytes());
            sh.mode.name().as_bytes().to_vec()
        }
    };
    let m = chosen.as_slice();
    let abbrev = |full: &str| full.as_bytes().starts_with(m);
    let columnar = |sh: &mut Shell| {
        sh.cm_wrap = wrap;
        sh.cm_wordwrap = wordwrap;
        sh.cm_quote = quote;
    };
    if abbrev("lines") {
        sh.mode = Mode::Line;
        sh.row_sep = b"\n".to_vec();
    } else if abbrev("columns") {
        sh.mode = Mode::Column;
        if !sh.header_set {
            sh.show_header = true;
        }
        sh.row_sep = b"\n".to_vec();
        columnar(sh);
    } else if abbrev("list") {
        sh.mode = Mode::List;
        sh.col_sep = b"|".to_vec();
        sh.row_sep = b"\n".to_vec();
    } else if abbrev("html") {
        sh.mode = Mode::Html;
    } else if abbrev("tcl") {
        sh.mode = Mode::Tcl;
        sh.col_sep = b" ".to_vec();
        sh.row_sep = b"\n".to_vec();
    } else if abbrev("csv") {
        sh.mode = Mode::Csv;
        sh.col_sep = b",".to_vec();
        sh.row_sep = b"\r\n".to_vec();
    } else if abbrev("tabs") {
        sh.mode = Mode::List;
        sh.col_sep = b"\t".to_vec();
    } else if abbrev("insert") {
        sh.mode = Mode::Insert;
        let name = table.unwrap_or_else(|| b"table".to_vec());
        sh.dest_table.clear();
        quote::ident(&mut sh.dest_table, &name);
    } else if abbrev("quote") {
        sh.mode = Mode::Quote;
        sh.col_sep = b",".to_vec();
        sh.row_sep = b"\n".to_vec();
    } else if abbrev("ascii") {
        sh.mode = Mode::Ascii;
        sh.col_sep = b"\x1f".to_vec();
        sh.row_sep = b"\x1e".to_vec();
    } else if abbrev("markdown") {
        sh.mode = Mode::Markdown;
        columnar(sh);
    } else if abbrev("table") {
        sh.mode = Mode::Table;
        columnar(sh);
    } else if abbrev("box") {
        sh.mode = Mode::Box;
        columnar(sh);
    } else if abbrev("count") {
        sh.mode = Mode::Count;
    } else if abbrev("off") {
        sh.mode = Mode::Off;
    } else if abbrev("json") {
        sh.mode = Mode::Json;
    } else {
        eprintln!(
            "Error: mode should be one of: ascii box column csv html insert json line list \
             markdown qbox quote table tabs tcl"
        );
        return 1;
    }
    sh.cmode = sh.mode;
    0
}

fn read(sh: &mut Shell, args: &[Vec<u8>]) -> i32 {
    if args.len() != 2 {
        return usage("Usage: .read FILE");
    }
    let name = lossy(&args[1]);
    match std::fs::File::open(&name) {
        Err(_) => {
            eprintln!("Error: cannot open \"{name}\"");
            1
        }
        Ok(f) => {
            let saved = sh.lineno;
            let mut r = std::io::BufReader::new(f);
            let failed = sh.process_input(&mut r);
            sh.lineno = saved;
            failed as i32
        }
    }
}

fn output(sh: &mut Shell, args: &[Vec<u8>]) -> i32 {
    let mut file: Option<&Vec<u8>> = None;
    for a in &args[1..] {
        if a.first() == Some(&b'-') && a.len() > 1 {
            eprintln!("ERROR: unknown option: \"{}\".  Usage:", lossy(a));
            return 1;
        } else if file.is_none() {
            file = Some(a);
        } else {
            eprintln!("ERROR: extra parameter: \"{}\".  Usage:", lossy(a));
            return 1;
        }
    }
    sh.flush();
    match file.map(|f| lossy(f)) {
        None => sh.out = Out::Stdout(std::io::BufWriter::new(std::io::stdout())),
        Some(f) if f == "stdout" => {
            sh.out = Out::Stdout(std::io::BufWriter::new(std::io::stdout()))
        }
        Some(f) => match std::fs::File::create(&f) {
            Ok(file) => sh.out = Out::File(std::io::BufWriter::new(file)),
            Err(_) => {
                sh.out = Out::Stdout(std::io::BufWriter::new(std::io::stdout()));
                eprintln!("Error: cannot write to \"{f}\"");
                return 1;
            }
        },
    }
    0
}

fn open(sh: &mut Shell, args: &[Vec<u8>]) -> i32 {
    let mut name: Option<String> = None;
    let mut new = false;
    let mut readonly = false;
    for a in &args[1..] {
        if option_is(a, "new") {
            new = true;
        } else if option_is(a, "readonly") {
            readonly = true;
        } else if a.first() == Some(&b'-') {
            eprintln!("unknown option: {}", lossy(a));
            return 1;
        } else if name.is_some() {
            eprintln!("extra argument: \"{}\"", lossy(a));
            return 1;
        } else {
            name = Some(lossy(a));
        }
    }
    sh.db = None;
    let name = name.unwrap_or_else(|| ":memory:".into());
    if new && name != ":memory:" {
        let _ = std::fs::remove_file(&name);
    }
    sh.db_path = name;
    sh.readonly = readonly;
    match crate::db::Db::open(&sh.db_path, readonly) {
        Ok(db) => sh.db = Some(db),
        Err(msg) => {
            eprintln!("Error: unable to open database \"{}\": {msg}", sh.db_path);
            sh.db_path = ":memory:".into();
            sh.readonly = false;
            return 1;
        }
    }
    0
}

fn show(sh: &mut Shell) {
    let mut o = Vec::new();
    let mut line = |k: &str, v: &[u8]| {
        o.extend_from_slice(format!("{k:>12}: ").as_bytes());
        o.extend_from_slice(v);
        o.push(b'\n');
    };
    let onoff = |b: bool| if b { b"on".to_vec() } else { b"off".to_vec() };
    let cstring = |v: &[u8]| {
        let mut q = Vec::new();
        quote::c_string(&mut q, v);
        q
    };
    line("echo", &onoff(sh.echo));
    line("eqp", b"off");
    line("explain", b"auto");
    line("headers", &onoff(sh.show_header));
    line("mode", sh.mode.name().as_bytes());
    line("nullvalue", &cstring(&sh.null_value));
    line("output", b"stdout");
    line("colseparator", &cstring(&sh.col_sep));
    line("rowseparator", &cstring(&sh.row_sep));
    line("stats", b"off");
    let widths: Vec<String> = sh.col_width.iter().map(|w| format!("{w} ")).collect();
    line("width", widths.concat().as_bytes());
    line("filename", sh.db_path.as_bytes());
    sh.out(&o);
}
