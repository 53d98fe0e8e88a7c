//! The `sqlite3` corpus (`tests/sqlite3-corpus/`, see its README): every
//! case runs once with the host's `/usr/bin/sqlite3` (Debian 12's 3.40, the
//! oracle) in a temporary copy of the fixture, and once with the built-in
//! `sqlite3` command through the library (`command` backend) on a fresh
//! workspace seeded from the same copy. Standard output, standard error, the
//! exit code and the files left behind must match; database files are
//! compared by the host sqlite3's `.dump` of each.
//!
//! `SQLITE3_CORPUS_FILTER=SUBSTRING` runs only the matching cases.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::Duration;

use computer_runtime::{ExecOptions, Limits, Runtime, RuntimeConfig};
use computer_store::{NodeKind, Page, Workspace};
use computer_tests::corpus::parallel_map;
use computer_tests::{component_cache_dir, workspace_root};

const ORACLE: &str = "/usr/bin/sqlite3";
const MIN_CASES: usize = 45;
const ROOT: &str = "/work";
const TIMEOUT: Duration = Duration::from_secs(60);

fn corpus_dir() -> PathBuf {
    workspace_root().join("tests/sqlite3-corpus")
}

/// One case: the command line, and what it reads on standard input.
struct Case {
    name: String,
    line: String,
    stdin: Vec<u8>,
}

/// `NNN-name.case`: `#` comment lines, the command line (it may span lines
/// inside quotes), then optionally a `--- stdin` line and the input.
fn load_cases() -> Vec<Case> {
    let dir = corpus_dir().join("cases");
    let mut cases: Vec<Case> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("reading the cases").path())
        .filter(|p| p.extension().is_some_and(|x| x == "case"))
        .map(|p| {
            let text = std::fs::read_to_string(&p).expect("a case is UTF-8");
            let (cmd, stdin) = match text.split_once("\n--- stdin\n") {
                Some((c, s)) => (c.to_owned(), s.as_bytes().to_vec()),
                None => (text.clone(), Vec::new()),
            };
            let line: Vec<&str> = cmd.lines().filter(|l| !l.starts_with('#')).collect();
            Case {
                name: p.file_name().unwrap().to_string_lossy().into_owned(),
                line: line.join("\n").trim().to_owned(),
                stdin,
            }
        })
        .collect();
    cases.sort_by(|a, b| a.name.cmp(&b.name));
    cases
}

/// POSIX shell words, as the `command` backend splits its source
/// (shell-words): quotes, backslashes, nothing else.
fn split_words(s: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' | '\n' => {
                if in_word {
                    words.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                for c in chars.by_ref() {
                    if c == '\'' {
                        break;
                    }
                    cur.push(c);
                }
            }
            '"' => {
                in_word = true;
                while let Some(c) = chars.next() {
                    match c {
                        '"' => break,
                        '\\' if matches!(chars.peek(), Some('"' | '\\' | '$' | '`' | '\n')) => {
                            let next = chars.next().unwrap();
                            if next != '\n' {
                                cur.push(next);
                            }
                        }
                        c => cur.push(c),
                    }
                }
            }
            '\\' => {
                in_word = true;
                if let Some(next) = chars.next()
                    && next != '\n'
                {
                    cur.push(next);
                }
            }
            c => {
                in_word = true;
                cur.push(c);
            }
        }
    }
    if in_word {
        words.push(cur);
    }
    words
}

/// The fixture as both sides start from it: every file copied, and each
/// `NAME.db.sql` run by the host sqlite3 into `NAME.db` (so every case
/// reads a database the real sqlite3 wrote).
fn prepare_fixture(dir: &Path) {
    let fixture = corpus_dir().join("fixture");
    for entry in std::fs::read_dir(&fixture).expect("the fixture") {
        let path = entry.expect("a fixture file").path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if let Some(db) = name.strip_suffix(".sql").filter(|n| n.ends_with(".db")) {
            let status = Command::new(ORACLE)
                .arg(dir.join(db))
                .stdin(std::fs::File::open(&path).expect("the fixture SQL"))
                .status()
                .expect("running the host sqlite3");
            assert!(status.success(), "building {db} from {name}");
        } else {
            std::fs::copy(&path, dir.join(&name)).expect("copying the fixture");
        }
    }
}

fn copy_dir(from: &Path, to: &Path) {
    for entry in std::fs::read_dir(from).expect("the prepared fixture") {
        let path = entry.expect("an entry").path();
        std::fs::copy(&path, to.join(path.file_name().unwrap())).expect("copying");
    }
}

#[derive(Debug, PartialEq)]
struct Outcome {
    exit: i32,
    stdout: String,
    stderr: String,
    /// Every file left in the directory: a database as its `.dump`, any
    /// other file as its bytes (lossy), a directory as `<dir>`.
    files: BTreeMap<String, String>,
}

/// The directory's files as `Outcome::files` shows them.
fn snapshot(dir: &Path) -> BTreeMap<String, String> {
    let mut files = BTreeMap::new();
    for entry in std::fs::read_dir(dir).expect("the case directory") {
        let path = entry.expect("an entry").path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let shown = if path.is_dir() {
            "<dir>".to_owned()
        } else if name.ends_with(".db") {
            let out = Command::new(ORACLE)
                .arg(&path)
                .arg(".dump")
                .output()
                .expect("dumping with the host sqlite3");
            format!(
                "{}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            )
        } else {
            String::from_utf8_lossy(&std::fs::read(&path).expect("reading")).into_owned()
        };
        files.insert(name, shown);
    }
    files
}

fn run_oracle(case: &Case, fixture: &Path) -> Outcome {
    let dir = tempfile::tempdir().expect("a temp dir");
    copy_dir(fixture, dir.path());
    let words = split_words(&case.line);
    assert_eq!(
        words[0], "sqlite3",
        "{}: the command must be sqlite3",
        case.name
    );
    let mut child = {
        use std::os::unix::process::CommandExt;
        Command::new(ORACLE)
            .arg0("sqlite3")
            .args(&words[1..])
            .current_dir(dir.path())
            .env_clear()
            .env("HOME", dir.path())
            .env("PATH", "/usr/bin:/bin")
            .env("LC_ALL", "C")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("starting the host sqlite3")
    };
    let mut stdin = child.stdin.take().expect("stdin");
    let input = case.stdin.clone();
    let writer = std::thread::spawn(move || {
        use std::io::Write;
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().expect("the host sqlite3");
    writer.join().expect("the stdin writer");
    Outcome {
        exit: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        files: snapshot(dir.path()),
    }
}

/// Copies the workspace directory `ws_dir` out to `to`.
fn export(ws: &Workspace, ws_dir: &str, to: &Path) {
    for st in ws.readdir(ws_dir, Page::all()).expect("readdir") {
        let path = format!("{ws_dir}/{}", st.name);
        match st.kind {
            NodeKind::File => {
                std::fs::write(to.join(&st.name), ws.read(&path).expect("read")).expect("write")
            }
            _ => std::fs::create_dir(to.join(&st.name)).expect("mkdir"),
        }
    }
}

fn run_ours(rt: &Runtime, case: &Case, fixture: &Path) -> Result<Outcome, String> {
    let ws = Arc::new(Workspace::in_memory().map_err(|e| e.to_string())?);
    ws.import(fixture, ROOT, &mut |_| {})
        .map_err(|e| format!("seeding the workspace: {e}"))?;
    let env = [("HOME", ROOT), ("PATH", "/usr/bin:/bin"), ("LC_ALL", "C")]
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect();
    let options = ExecOptions {
        backend: "command".into(),
        cwd: Some(ROOT.into()),
        env,
        stdin: case.stdin.clone(),
        limits: Some(Limits {
            timeout: TIMEOUT,
            ..Limits::default()
        }),
        ..Default::default()
    };
    let result = rt
        .exec(ws.clone(), &case.line, options)
        .map_err(|e| format!("exec refused the run: {e}"))?
        .wait();
    if let Some(e) = &result.error {
        return Err(format!("run error: {e}"));
    }
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    export(&ws, ROOT, dir.path());
    Ok(Outcome {
        exit: result.exit_code,
        stdout: String::from_utf8_lossy(&result.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&result.stderr).into_owned(),
        files: snapshot(dir.path()),
    })
}

fn differences(want: &Outcome, got: &Outcome) -> Vec<String> {
    let mut d = Vec::new();
    if want.exit != got.exit {
        d.push(format!("exit: want {}, got {}", want.exit, got.exit));
    }
    if want.stdout != got.stdout {
        d.push(format!(
            "stdout:\n  want {:?}\n  got  {:?}",
            want.stdout, got.stdout
        ));
    }
    if want.stderr != got.stderr {
        d.push(format!(
            "stderr:\n  want {:?}\n  got  {:?}",
            want.stderr, got.stderr
        ));
    }
    if want.files != got.files {
        for name in want.files.keys().chain(got.files.keys()) {
            let (w, g) = (want.files.get(name), got.files.get(name));
            if w != g {
                d.push(format!("file {name}:\n  want {w:?}\n  got  {g:?}"));
            }
        }
        d.dedup();
    }
    d
}

#[test]
fn sqlite3_matches_the_cli() {
    if !Path::new(ORACLE).exists() {
        panic!("{ORACLE} is missing: apt-get install sqlite3 (scripts/setup.sh)");
    }
    let rt = Runtime::with_builtin_guests(RuntimeConfig {
        cache_dir: Some(component_cache_dir()),
        ..Default::default()
    })
    .expect("the runtime");
    computer_builtins::register(&rt).expect("the built-in commands");
    if !computer_builtins::built_in().contains(&"sqlite3") {
        panic!("sqlite3 is not built in: run scripts/build-sqlite3.sh, then rebuild");
    }
    let all = load_cases();
    assert!(all.len() >= MIN_CASES, "only {} cases", all.len());
    let filter = std::env::var("SQLITE3_CORPUS_FILTER").unwrap_or_default();
    let cases: Vec<&Case> = all.iter().filter(|c| c.name.contains(&filter)).collect();
    assert!(
        !cases.is_empty(),
        "SQLITE3_CORPUS_FILTER={filter} matches no case"
    );
    let fixture = tempfile::tempdir().expect("a temp dir");
    prepare_fixture(fixture.path());
    let failures: Vec<String> = parallel_map(&cases, |case| {
        let want = run_oracle(case, fixture.path());
        let diffs = match run_ours(&rt, case, fixture.path()) {
            Ok(got) => differences(&want, &got),
            Err(e) => vec![e],
        };
        (!diffs.is_empty()).then(|| format!("{} ({}):\n{}", case.name, case.line, diffs.join("\n")))
    })
    .into_iter()
    .flatten()
    .collect();
    println!(
        "sqlite3 corpus: {}/{} cases identical to {ORACLE}",
        cases.len() - failures.len(),
        cases.len()
    );
    assert!(
        failures.is_empty(),
        "{} cases differ:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}
