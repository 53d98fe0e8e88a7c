//! The command line, read in sqlite3's two passes: the first finds the
//! database, the SQL arguments, `-bail`, `-init` and the open options; the
//! second sets modes and runs each `-cmd` in order. Then the SQL arguments
//! run, or standard input does.

use crate::dot::lossy;
use crate::modes::Mode;
use crate::shell::Shell;

/// Options that take a value in the first pass.
const WITH_VALUE: &[&str] = &[
    "-separator",
    "-nullvalue",
    "-newline",
    "-cmd",
    "-heap",
    "-mmap",
    "-memtrace",
    "-sorterref",
    "-vfs",
    "-maxsize",
];

/// Options that take two values.
const WITH_TWO: &[&str] = &["-pagecache", "-lookaside", "-threadsafe", "-nonce"];

/// Options accepted and ignored (they tune a native build).
const IGNORED: &[&str] = &[
    "-batch",
    "-interactive",
    "-utf8",
    "-append",
    "-deserialize",
    "-nofollow",
    "-bail",
    "-safe",
    "-multiplex",
    "-stats",
    "-scanstats",
    "-eqp",
    "-eqpfull",
    "-backslash",
];

/// An option's value, or the error sqlite3 gives when it is missing.
fn value(argv: &[Vec<u8>], i: usize) -> Vec<u8> {
    match argv.get(i) {
        Some(v) => v.clone(),
        None => {
            eprintln!(
                "{}: Error: missing argument to {}",
                lossy(&argv[0]),
                lossy(&argv[i - 1])
            );
            crate::exit(1);
        }
    }
}

/// Runs one `-cmd` argument.
fn run_cmd(sh: &mut Shell, z: &[u8]) -> Option<i32> {
    if z.first() == Some(&b'.') {
        let rc = crate::dot::run(sh, z);
        if rc != 0 && sh.bail {
            return Some(if rc == 2 { 0 } else { rc });
        }
    } else {
        let (rc, msg) = sh.exec(z);
        sh.flush();
        if let Some(m) = msg {
            let mut e = b"Error: ".to_vec();
            e.extend_from_slice(&m);
            eprintln!("{}", lossy(&e));
            if sh.bail {
                return Some(if rc != 0 { rc } else { 1 });
            }
        } else if rc != 0 {
            eprintln!("Error: unable to process SQL \"{}\"", lossy(z));
            if sh.bail {
                return Some(rc);
            }
        }
    }
    None
}

/// The whole program; returns the exit code.
pub fn main(argv: Vec<Vec<u8>>) -> i32 {
    let mut db_name: Option<String> = None;
    let mut sql_args: Vec<Vec<u8>> = Vec::new();
    let mut init: Option<Vec<u8>> = None;
    let mut readonly = false;
    let mut bail = false;
    let mut i = 1;
    while i < argv.len() {
        let a = &argv[i];
        if a.first() != Some(&b'-') {
            if db_name.is_none() {
                db_name = Some(lossy(a));
            } else {
                sql_args.push(a.clone());
            }
            i += 1;
            continue;
        }
        let z = lossy(if a.starts_with(b"--") { &a[1..] } else { a });
        if WITH_VALUE.contains(&z.as_str()) {
            i += 1;
        } else if WITH_TWO.contains(&z.as_str()) {
            i += 2;
        } else if z == "-init" {
            i += 1;
            init = Some(value(&argv, i));
        } else if z == "-readonly" {
            readonly = true;
        } else if z == "-bail" {
            bail = true;
        } else if z.starts_with("-A") {
            break;
        }
        i += 1;
    }
    let mut sh = Shell::new(db_name.unwrap_or_else(|| ":memory:".into()));
    sh.readonly = readonly;
    sh.bail = bail;
    if std::path::Path::new(&sh.db_path).exists() {
        sh.open_db();
    }
    rc_file(&mut sh, init.as_deref());
    i = 1;
    while i < argv.len() {
        let a = &argv[i];
        if a.first() != Some(&b'-') {
            i += 1;
            continue;
        }
        let z = lossy(if a.starts_with(b"--") { &a[1..] } else { a });
        match z.as_str() {
            "-init" => i += 1,
            "-html" => sh.mode = Mode::Html,
            "-list" => sh.mode = Mode::List,
            "-quote" => {
                sh.mode = Mode::Quote;
                sh.col_sep = b",".to_vec();
                sh.row_sep = b"\n".to_vec();
            }
            "-line" => sh.mode = Mode::Line,
            "-column" => sh.mode = Mode::Column,
            "-json" => sh.mode = Mode::Json,
            "-markdown" => sh.mode = Mode::Markdown,
            "-table" => sh.mode = Mode::Table,
            "-box" => sh.mode = Mode::Box,
            "-csv" => {
                sh.mode = Mode::Csv;
                sh.col_sep = b",".to_vec();
            }
            "-ascii" => {
                sh.mode = Mode::Ascii;
                sh.col_sep = b"\x1f".to_vec();
                sh.row_sep = b"\x1e".to_vec();
            }
            "-tabs" => {
                sh.mode = Mode::List;
                sh.col_sep = b"\t".to_vec();
                sh.row_sep = b"\n".to_vec();
            }
            "-separator" => {
                i += 1;
                sh.col_sep = value(&argv, i).into_iter().take(19).collect();
            }
            "-newline" => {
                i += 1;
                sh.row_sep = value(&argv, i).into_iter().take(19).collect();
            }
            "-nullvalue" => {
                i += 1;
                sh.null_value = value(&argv, i).into_iter().take(19).collect();
            }
            "-header" => {
                sh.show_header = true;
                sh.header_set = true;
            }
            "-noheader" => {
                sh.show_header = false;
                sh.header_set = true;
            }
            "-echo" => sh.echo = true,
            "-version" => {
                sh.out(format!("{} (computer sqlite3)\n", rusqlite::version()).as_bytes());
                sh.flush();
                return 0;
            }
            "-help" => {
                usage(&argv[0]);
                return 1;
            }
            "-heap" | "-mmap" | "-memtrace" | "-sorterref" | "-vfs" | "-maxsize" => i += 1,
            "-pagecache" | "-lookaside" | "-threadsafe" | "-nonce" => i += 2,
            "-readonly" => {}
            "-cmd" => {
                if i + 1 >= argv.len() {
                    break;
                }
                i += 1;
                let cmd = argv[i].clone();
                if let Some(rc) = run_cmd(&mut sh, &cmd) {
                    sh.flush();
                    return rc;
                }
            }
            z if z.starts_with("-A") => {
                eprintln!("Error: the .archive command is not supported");
                return 1;
            }
            z if IGNORED.contains(&z) => {}
            z => {
                eprintln!("{}: Error: unknown option: {z}", lossy(&argv[0]));
                eprintln!("Use -help for a list of options.");
                return 1;
            }
        }
        sh.cmode = sh.mode;
        i += 1;
    }
    let rc = if sql_args.is_empty() {
        let stdin = std::io::stdin();
        let mut input = stdin.lock();
        sh.process_input(&mut input) as i32
    } else {
        run_sql_args(&mut sh, &sql_args)
    };
    sh.flush();
    rc
}

/// The SQL and dot commands after the database name: each runs whole, and
/// the first failure ends the program with its code.
fn run_sql_args(sh: &mut Shell, cmds: &[Vec<u8>]) -> i32 {
    for cmd in cmds {
        if cmd.first() == Some(&b'.') {
            let rc = crate::dot::run(sh, cmd);
            if rc != 0 {
                return if rc == 2 { 0 } else { rc };
            }
        } else {
            let (rc, msg) = sh.exec(cmd);
            if rc != 0 || msg.is_some() {
                sh.flush();
                match msg {
                    Some(m) => {
                        let mut e = b"Error: ".to_vec();
                        e.extend_from_slice(&m);
                        eprintln!("{}", lossy(&e));
                    }
                    None => eprintln!("Error: unable to process SQL: {}", lossy(cmd)),
                }
                return if rc != 0 { rc } else { 1 };
            }
        }
    }
    0
}

/// `-init FILE`, or `~/.sqliterc` when there is one.
fn rc_file(sh: &mut Shell, init: Option<&[u8]>) {
    let path = match init {
        Some(p) => lossy(p),
        None => match std::env::var("HOME") {
            Ok(home) => format!("{home}/.sqliterc"),
            Err(_) => return,
        },
    };
    match std::fs::File::open(&path) {
        Ok(f) => {
            let saved = sh.lineno;
            let mut r = std::io::BufReader::new(f);
            if sh.process_input(&mut r) && sh.bail {
                crate::exit(1);
            }
            sh.lineno = saved;
        }
        Err(_) if init.is_some() => {
            eprintln!("cannot open: \"{path}\"");
            if sh.bail {
                crate::exit(1);
            }
        }
        Err(_) => {}
    }
}

fn usage(argv0: &[u8]) {
    eprintln!(
        "Usage: {} [OPTIONS] FILENAME [SQL]\n\
         FILENAME is the name of an SQLite database. A new database is created\n\
         if the file does not previously exist.\n\
         OPTIONS include:\n   \
         -ascii               set output mode to 'ascii'\n   \
         -bail                stop after hitting an error\n   \
         -box                 set output mode to 'box'\n   \
         -cmd COMMAND         run \"COMMAND\" before reading stdin\n   \
         -column              set output mode to 'column'\n   \
         -csv                 set output mode to 'csv'\n   \
         -echo                print inputs before execution\n   \
         -init FILENAME       read/process named file\n   \
         -[no]header          turn headers on or off\n   \
         -html                set output mode to HTML\n   \
         -json                set output mode to 'json'\n   \
         -line                set output mode to 'line'\n   \
         -list                set output mode to 'list'\n   \
         -markdown            set output mode to 'markdown'\n   \
         -newline SEP         set output row separator. Default: '\\n'\n   \
         -nullvalue TEXT      set text string for NULL values. Default ''\n   \
         -quote               set output mode to 'quote'\n   \
         -readonly            open the database read-only\n   \
         -separator SEP       set output column separator. Default: '|'\n   \
         -table               set output mode to 'table'\n   \
         -tabs                set output mode to 'tabs'\n   \
         -version             show SQLite version",
        lossy(argv0)
    );
}
