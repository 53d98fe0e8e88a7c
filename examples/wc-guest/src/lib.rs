//! `wc` as a runner guest: counts the lines, words and bytes of workspace
//! files (or of stdin), prints them like wc(1) and returns them as JSON.
//!
//! A runner guest decides what `request.source` means: the JavaScript runner
//! evaluates it, the shell runs it. `wc` has no program text to interpret,
//! so it ignores `source` and takes everything from `argv`, `cwd`,
//! `input-json` and stdin.

/// The generated bindings, in a module of their own so that lints about
/// their shape (generated functions with many parameters) stay out of our
/// code.
mod bindings {
    #![allow(clippy::too_many_arguments)]

    wit_bindgen::generate!({
        path: "../../wit",
        world: "computer:workspace/runner@0.1.0",
        // The world imports WASI interfaces as well as `fs`; generate
        // bindings for them too instead of mapping them with `with`.
        generate_all,
    });
}

use std::fmt::Write as _;
use std::io::Read as _;

use bindings::computer::workspace::fs;
use bindings::{Guest, RunOutcome, RunRequest};
use serde::{Deserialize, Serialize};

/// Bytes per `fs::read` call and per stdin read. A file of any size streams
/// through one buffer this big, and each call stays far below the host's
/// per-call read cap (`efbig`).
const CHUNK: u64 = 64 * 1024;

struct Wc;

impl Guest for Wc {
    fn run(request: RunRequest) -> RunOutcome {
        // argv[0] is the program name (the backend name); operands follow.
        let args = request.argv.get(1..).unwrap_or_default();
        let (show, mut operands) = match parse_args(args) {
            Ok(parsed) => parsed,
            Err(message) => return usage(&message),
        };
        if let Some(json) = &request.input_json {
            match serde_json::from_str::<Input>(json) {
                Ok(input) => operands.extend(input.paths),
                Err(e) => return usage(&format!("bad input-json: {e}")),
            }
        }
        // No operands: count stdin, and print no name (as wc(1) does).
        let named = !operands.is_empty();
        if !named {
            operands.push("-".into());
        }

        let mut report = Report::default();
        for operand in &operands {
            let counted = if operand == "-" {
                count_stdin()
            } else {
                count_file(&resolve(&request.cwd, operand))
            };
            match counted {
                Ok(counts) => {
                    print_line(show, &counts, named.then_some(operand.as_str()));
                    report.total.add(&counts);
                    report.files.push(FileCounts {
                        path: operand.clone(),
                        counts,
                    });
                }
                // Like wc(1): report it, go on with the other files, exit 1.
                Err(message) => {
                    eprintln!("wc: {operand}: {message}");
                    report.errors.push(FileError {
                        path: operand.clone(),
                        message,
                    });
                }
            }
        }
        if operands.len() > 1 {
            print_line(show, &report.total, Some("total"));
        }

        RunOutcome {
            exit_code: if report.errors.is_empty() { 0 } else { 1 },
            value_json: serde_json::to_string(&report).ok(),
        }
    }
}

bindings::export!(Wc with_types_in bindings);

/// The accepted shape of `input-json`: `{"paths": [...]}`, more operands.
#[derive(Deserialize)]
struct Input {
    #[serde(default)]
    paths: Vec<String>,
}

/// The run's JSON value.
#[derive(Default, Serialize)]
struct Report {
    files: Vec<FileCounts>,
    total: Counts,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    errors: Vec<FileError>,
}

#[derive(Serialize)]
struct FileCounts {
    /// The operand as given (relative paths stay relative); `-` is stdin.
    path: String,
    #[serde(flatten)]
    counts: Counts,
}

#[derive(Serialize)]
struct FileError {
    path: String,
    message: String,
}

#[derive(Default, Serialize)]
struct Counts {
    lines: u64,
    words: u64,
    bytes: u64,
}

impl Counts {
    fn add(&mut self, other: &Counts) {
        self.lines += other.lines;
        self.words += other.words;
        self.bytes += other.bytes;
    }
}

/// Counts data fed in pieces; `in_word` carries a word across a piece
/// boundary so it is not counted twice.
#[derive(Default)]
struct Counter {
    counts: Counts,
    in_word: bool,
}

impl Counter {
    fn feed(&mut self, data: &[u8]) {
        for &b in data {
            // wc's whitespace in the C locale: space, \t, \n, \v, \f, \r.
            let space = b == b' ' || (b'\t'..=b'\r').contains(&b);
            if b == b'\n' {
                self.counts.lines += 1;
            }
            if !space && !self.in_word {
                self.counts.words += 1;
            }
            self.in_word = !space;
        }
        self.counts.bytes += data.len() as u64;
    }
}

/// Reads a workspace file in `CHUNK`-sized ranges.
fn count_file(path: &str) -> Result<Counts, String> {
    let mut counter = Counter::default();
    let mut offset = 0;
    loop {
        let data = fs::read(path, Some(offset), Some(CHUNK)).map_err(|e| e.message)?;
        counter.feed(&data);
        offset += data.len() as u64;
        // A short read is the end of the file: stopping here saves the host
        // call (recorded, in a durable run) that would return nothing.
        if (data.len() as u64) < CHUNK {
            return Ok(counter.counts);
        }
    }
}

/// Reads `wasi:cli/stdin` through Rust's std.
fn count_stdin() -> Result<Counts, String> {
    let mut counter = Counter::default();
    let mut buf = vec![0; CHUNK as usize];
    let mut stdin = std::io::stdin().lock();
    loop {
        match stdin.read(&mut buf) {
            Ok(0) => return Ok(counter.counts),
            Ok(n) => counter.feed(&buf[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e.to_string()),
        }
    }
}

/// `fs` takes absolute paths only, so relative operands are joined to the
/// run's cwd here (`fs` itself resolves `.`, `..` and symlinks).
fn resolve(cwd: &str, path: &str) -> String {
    if path.starts_with('/') {
        path.to_owned()
    } else {
        format!("{}/{path}", cwd.trim_end_matches('/'))
    }
}

/// Which counts to print; wc prints them in this order whatever the order
/// of the options.
#[derive(Clone, Copy)]
struct Show {
    lines: bool,
    words: bool,
    bytes: bool,
}

/// Splits `-l`, `-w`, `-c` (also combined, as `-lw`) from the operands.
/// `--` ends the options; `-` alone is an operand (stdin).
fn parse_args(args: &[String]) -> Result<(Show, Vec<String>), String> {
    let mut show = Show {
        lines: false,
        words: false,
        bytes: false,
    };
    let mut operands = Vec::new();
    let mut options_done = false;
    for arg in args {
        match arg.strip_prefix('-') {
            Some("-") if !options_done => options_done = true,
            Some(flags) if !options_done && !flags.is_empty() => {
                for flag in flags.chars() {
                    match flag {
                        'l' => show.lines = true,
                        'w' => show.words = true,
                        'c' => show.bytes = true,
                        _ => return Err(format!("invalid option -- '{flag}'")),
                    }
                }
            }
            _ => operands.push(arg.clone()),
        }
    }
    if !(show.lines || show.words || show.bytes) {
        show = Show {
            lines: true,
            words: true,
            bytes: true,
        };
    }
    Ok((show, operands))
}

/// One output line. Each count is `" %7d"` (BSD wc's format): the same as
/// `%8d` up to 7 digits, and still separated beyond.
fn print_line(show: Show, counts: &Counts, name: Option<&str>) {
    let mut line = String::new();
    for (on, n) in [
        (show.lines, counts.lines),
        (show.words, counts.words),
        (show.bytes, counts.bytes),
    ] {
        if on {
            let _ = write!(line, " {n:>7}");
        }
    }
    if let Some(name) = name {
        line.push(' ');
        line.push_str(name);
    }
    println!("{line}");
}

/// A usage error: exit code 2, the runner world's convention.
fn usage(message: &str) -> RunOutcome {
    eprintln!("wc: {message}\nusage: wc [-lwc] [file ...]");
    RunOutcome {
        exit_code: 2,
        value_json: None,
    }
}
