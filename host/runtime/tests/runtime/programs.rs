//! Real WASI programs as workspace commands, each checked against an oracle:
//! the same tree is written to a workspace and to a host directory, the
//! wasm32-wasip2 build runs on the workspace through `Runtime::run_command`
//! and the native tool (a Debian package) on the host copy, with the same
//! arguments and cwd, and their stdout and exit codes must be equal.
//!
//! - ripgrep 15 (wasm) against Debian's ripgrep 13 (`/usr/bin/rg`);
//! - hexyl 0.8 (wasm) against Debian's hexyl 0.8 (`/usr/bin/hexyl`);
//! - our `sqlite-bench` fixture against its own native build.
//!
//! The wasm programs come from `scripts/build-wasi-programs.sh`; the native
//! ones from `scripts/setup.sh`. A missing one fails the test, naming which.
//!
//! One difference is the platform's, not the programs', and is spelled out
//! where it applies: an exit code above 1 arrives as 1 (see
//! [`wasm_exit_for`]). The tree sits at the workspace's root; cases run in
//! its subdirectories too (the cwd the host preopens for them).

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Arc, OnceLock};

use computer_runtime::{CommandOptions, Limits};
use computer_store::{MkdirOptions, Workspace, WriteOptions};

use crate::support::{bare_runtime, s};

// ---- where the programs are ----

fn programs_dir() -> PathBuf {
    std::env::var_os("COMPUTER_WASI_PROGRAMS_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/wasi-programs")
        })
}

/// The file `var` names, else `rel` under [`programs_dir`].
fn built(var: &str, rel: &str) -> PathBuf {
    std::env::var_os(var)
        .map(PathBuf::from)
        .unwrap_or_else(|| programs_dir().join(rel))
}

fn read_built(var: &str, rel: &str) -> Vec<u8> {
    let path = built(var, rel);
    std::fs::read(&path).unwrap_or_else(|e| {
        panic!(
            "cannot read {} ({e}): run scripts/build-wasi-programs.sh \
             (or point {var} at the file)",
            path.display()
        )
    })
}

fn native_tool(path: &str, package: &str) -> PathBuf {
    let p = PathBuf::from(path);
    assert!(
        p.is_file(),
        "{path} is missing: install the Debian package {package} (scripts/setup.sh does)"
    );
    p
}

fn rg_wasm() -> &'static [u8] {
    static B: OnceLock<Vec<u8>> = OnceLock::new();
    B.get_or_init(|| read_built("COMPUTER_RG_WASM", "bin/rg.wasm"))
}

fn hexyl_wasm() -> &'static [u8] {
    static B: OnceLock<Vec<u8>> = OnceLock::new();
    B.get_or_init(|| read_built("COMPUTER_HEXYL_WASM", "bin/hexyl.wasm"))
}

fn sqlite_bench_wasm() -> &'static [u8] {
    static B: OnceLock<Vec<u8>> = OnceLock::new();
    B.get_or_init(|| {
        read_built(
            "COMPUTER_SQLITE_BENCH_WASM",
            "target/wasm32-wasip2/release/sqlite_bench.wasm",
        )
    })
}

fn sqlite_bench_native() -> PathBuf {
    let p = built(
        "COMPUTER_SQLITE_BENCH_NATIVE",
        "target/release/sqlite_bench",
    );
    assert!(
        p.is_file(),
        "{} is missing: run scripts/build-wasi-programs.sh (or point \
         COMPUTER_SQLITE_BENCH_NATIVE at it)",
        p.display()
    );
    p
}

// ---- a tree on both sides ----

/// Files (path relative to the tree's root, content); parents are implied.
type Tree = Vec<(String, Vec<u8>)>;

/// The tree in a fresh workspace and in a fresh host directory.
struct Both {
    ws: Arc<Workspace>,
    host: tempfile::TempDir,
}

impl Both {
    fn new(tree: &Tree) -> Both {
        let ws = Arc::new(Workspace::in_memory().expect("workspace"));
        let host = tempfile::tempdir().expect("temp dir");
        let parents = WriteOptions {
            create_parents: true,
            ..Default::default()
        };
        for (rel, data) in tree {
            ws.write(&format!("/{rel}"), data, &parents)
                .unwrap_or_else(|e| panic!("writing {rel} to the workspace: {e}"));
            let p = host.path().join(rel);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(&p, data).unwrap();
        }
        Both { ws, host }
    }
}

/// What a run gave.
#[derive(Debug, PartialEq, Eq)]
struct Outcome {
    exit: i32,
    stdout: Vec<u8>,
}

fn run_wasm(
    ws: &Arc<Workspace>,
    name: &str,
    bytes: &[u8],
    args: &[&str],
    cwd: &str,
    stdin: &[u8],
) -> (Outcome, String) {
    let mut argv = vec![name.to_owned()];
    argv.extend(args.iter().map(|a| (*a).to_owned()));
    let options = CommandOptions {
        argv,
        cwd: cwd.to_owned(),
        stdin: stdin.to_vec(),
        limits: Limits {
            stdout_bytes: 16 << 20,
            ..Limits::default()
        },
        ..CommandOptions::default()
    };
    let r = bare_runtime()
        .run_command(ws.clone(), name, bytes, options)
        .unwrap_or_else(|e| panic!("{name} {args:?} did not run: {e}"));
    let stderr = s(&r.stderr);
    (
        Outcome {
            exit: r.exit_code,
            stdout: r.stdout,
        },
        stderr,
    )
}

fn run_native(bin: &Path, args: &[&str], cwd: &Path, stdin: &[u8]) -> (Outcome, String) {
    // No inherited environment: RIPGREP_CONFIG_PATH and the like would make
    // the native side differ from the wasm one, which gets none.
    let mut child = Command::new(bin)
        .args(args)
        .current_dir(cwd)
        .env_clear()
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("starting {}: {e}", bin.display()));
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    let out = child.wait_with_output().unwrap();
    (
        Outcome {
            exit: out.status.code().unwrap_or(-1),
            stdout: out.stdout,
        },
        s(&out.stderr),
    )
}

/// The exit code a wasm program gives for native `code`: Rust's
/// `std::process::exit` (and C's `exit`) end through `wasi:cli/exit.exit`,
/// whose `result` says only success or failure, so 2 (ripgrep's "error")
/// arrives as 1 (TOOLCHAIN.md, "WASI programs as workspace commands").
/// `exit_codes_above_1_reach_the_host` is the test to turn on when that
/// changes.
fn wasm_exit_for(code: i32) -> i32 {
    code.min(1)
}

/// One invocation, run on both sides.
struct Case<'a> {
    args: &'a [&'a str],
    /// The directory under the tree's root to run in ("" for the root).
    cwd: &'a str,
    stdin: &'a [u8],
    /// The exit code the native tool must give: keeps a case from passing
    /// because both sides failed, or both printed nothing, the same way.
    exit: i32,
}

impl<'a> Case<'a> {
    fn new(args: &'a [&'a str], exit: i32) -> Self {
        Case {
            args,
            cwd: "",
            stdin: b"",
            exit,
        }
    }
}

/// Runs every case on both sides and fails with all the differences found.
fn compare(tree: &Tree, name: &str, wasm: &[u8], native: &Path, cases: &[Case<'_>]) {
    let both = Both::new(tree);
    let mut failures = Vec::new();
    for case in cases {
        let ws_cwd = format!("/{}", case.cwd);
        let host_cwd = both.host.path().join(case.cwd);
        let (want, want_err) = run_native(native, case.args, &host_cwd, case.stdin);
        let (got, got_err) = run_wasm(&both.ws, name, wasm, case.args, &ws_cwd, case.stdin);
        let label = format!("{name} {:?} (cwd {ws_cwd})", case.args);
        if want.exit != case.exit {
            failures.push(format!(
                "{label}: the native tool exited {} (expected {}); stderr: {want_err}",
                want.exit, case.exit
            ));
        } else if want.exit == 0 && want.stdout.is_empty() {
            failures.push(format!("{label}: the native tool printed nothing"));
        }
        if got.stdout != want.stdout || got.exit != wasm_exit_for(want.exit) {
            failures.push(format!(
                "{label}: wasm exited {} (native {}), stderr {got_err:?} (native {want_err:?})\n{}",
                got.exit,
                want.exit,
                first_difference(&want.stdout, &got.stdout)
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases differ:\n\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n\n")
    );
}

/// The first line where two outputs part, with the line counts.
fn first_difference(want: &[u8], got: &[u8]) -> String {
    if want == got {
        return "stdout equal".into();
    }
    let (w, g) = (s(want), s(got));
    let (wl, gl): (Vec<&str>, Vec<&str>) = (w.lines().collect(), g.lines().collect());
    let at = wl.iter().zip(&gl).take_while(|(a, b)| a == b).count();
    format!(
        "stdout: native {} lines, wasm {} lines; first difference at line {}:\n  native: {:?}\n  wasm:   {:?}",
        wl.len(),
        gl.len(),
        at + 1,
        wl.get(at).unwrap_or(&"<end>"),
        gl.get(at).unwrap_or(&"<end>")
    )
}

/// A small deterministic pseudo-random sequence (no dependency, same on
/// every run).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) as usize
    }
    fn below(&mut self, n: usize) -> usize {
        self.next() % n
    }
}

/// Lines a source tree has: some match `TODO` (in several cases, as a word
/// and not), some look like it and do not.
const LINES: &[&str] = &[
    "fn handler_{n}(x: u32) -> u32 {{ x + {n} }}",
    "    // TODO: handle the error case {n}",
    "    // TODO(alice): remove after release {n}",
    "let todo_list = vec![{n}];",
    "# Todo: mixed case {n}",
    "TODOS are not one word {n}",
    "x = TODO_{n}",
    "    // FIXME: later, not a todo {n}",
    "plain line number {n}",
    "\tindented\tTODO\twith tabs {n}",
    "unicode: café TODO ünïcödé ✓ {n}",
    "a TODO( with a paren {n}",
    "",
    "}}",
];

fn source_file(rng: &mut Lcg, lines: usize) -> Vec<u8> {
    let mut out = String::new();
    for _ in 0..lines {
        let n = rng.below(1000);
        out.push_str(&LINES[rng.below(LINES.len())].replace("{n}", &n.to_string()));
        out.push('\n');
    }
    out.into_bytes()
}

/// A project tree of about 320 files: nested source directories, a
/// `.gitignore` (in a git work tree, so it applies) that hides some files
/// with TODOs, hidden files, unicode and spaced names, binary files, empty
/// files, a file without a final newline and one with CRLF line ends.
fn project_tree() -> &'static Tree {
    static TREE: OnceLock<Tree> = OnceLock::new();
    TREE.get_or_init(|| {
        let mut rng = Lcg(0x5eed);
        let dirs: &[(&str, &[&str])] = &[
            ("src", &["rs"]),
            ("src/util", &["rs"]),
            ("src/net/http", &["rs", "toml"]),
            ("src/net/tcp", &["rs"]),
            ("docs", &["md", "txt"]),
            ("docs/guide/advanced", &["md"]),
            ("tests", &["rs", "json"]),
            ("scripts", &["py", "sh"]),
            ("vendor/lib/deep/er/still", &["c", "h"]),
            ("données", &["md", "txt"]),
            ("日本語", &["txt", "rs"]),
        ];
        let mut tree: Tree = Vec::new();
        for (dir, exts) in dirs {
            for i in 0..28 {
                let ext = exts[i % exts.len()];
                let lines = rng.below(40);
                tree.push((
                    format!("{dir}/file_{i:02}.{ext}"),
                    source_file(&mut rng, lines),
                ));
            }
        }
        let mut text = |rel: &str, content: &str| tree.push((rel.to_owned(), content.into()));
        text(".git/HEAD", "ref: refs/heads/main\n");
        text(".gitignore", "target/\n*.log\n/generated.rs\n");
        text(".ignore", "docs/guide/advanced/file_0*.md\n");
        text("generated.rs", "// TODO: ignored, anchored in .gitignore\n");
        text(
            "src/generated.rs",
            "// TODO: not ignored: the pattern is anchored\n",
        );
        text("target/debug/build.rs", "// TODO: ignored build output\n");
        text("logs/app.log", "TODO ignored log line\n");
        text(".env", "TODO=hidden\n");
        text(".hidden/notes.md", "TODO: a hidden directory's note\n");
        text(
            ".github/workflows/ci.yml",
            "# TODO: cache\nrun: cargo test\n",
        );
        text(
            "docs/TODO.md",
            "# TODO\n\n- [ ] TODO item one\n- [x] done\n",
        );
        text("données/résumé.md", "résumé TODO à faire\n");
        text("日本語/メモ.txt", "TODO: 日本語のメモ\n");
        text("src/naïve.rs", "// TODO naïve implementation\n");
        text("emoji 🎉 file.txt", "party TODO 🎉\n");
        text(
            "src/no_newline.rs",
            "fn last() {} // TODO: no final newline",
        );
        text(
            "src/crlf.rs",
            "// TODO: windows\r\nfn crlf() {}\r\n// TODO again\r\n",
        );
        text("empty.txt", "");
        text("src/empty.rs", "");
        let mut blob = vec![0x89, b'P', b'N', b'G', 0, 0, 0, 13];
        blob.extend_from_slice(b"TODO inside a binary file\n");
        blob.extend((0..2000u32).map(|i| (i * 31 % 256) as u8));
        tree.push(("assets/logo.png".into(), blob));
        let mut late = b"TODO before the NUL\n".repeat(50);
        late.push(0);
        late.extend_from_slice(b"TODO after the NUL\n");
        tree.push(("assets/late-nul.dat".into(), late));
        tree
    })
}

// ---- ripgrep ----

fn rg(cases: &[Case<'_>]) {
    let native = native_tool("/usr/bin/rg", "ripgrep");
    compare(project_tree(), "rg", rg_wasm(), &native, cases);
}

/// `--sort path` on every case: natively, rg prints files in the order its
/// threads finish them otherwise.
macro_rules! sorted {
    ($($a:expr),* $(,)?) => { &["--sort", "path", $($a),*] };
}

#[test]
fn rg_search_output_matches_native() {
    rg(&[
        Case::new(sorted!["TODO", "."], 0),
        Case::new(sorted!["-n", "TODO", "."], 0),
        Case::new(sorted!["-i", "todo", "."], 0),
        Case::new(sorted!["-w", "TODO", "."], 0),
        Case::new(sorted!["-F", "TODO(", "."], 0),
        Case::new(sorted!["-C", "1", "-n", "TODO", "."], 0),
        Case::new(sorted!["-o", "-n", r"TODO\(\w+\)", "."], 0),
        Case::new(sorted!["-e", "FIXME", "-e", "TODO:", "--column", "."], 0),
        Case::new(sorted!["-v", "-c", "TODO", "src"], 0),
        Case::new(sorted!["-n", "TODO", "src/net"], 0),
        Case::new(sorted!["-n", "TODO", "src/crlf.rs"], 0),
        Case::new(sorted!["TODO", "données", "日本語"], 0),
        // Unlike natively, rg on WASI never guesses that stdin is readable
        // (grep-cli's heuristic is Unix and Windows only), so stdin is named.
        Case {
            stdin: b"one\nTODO two\nthree TODO\n",
            ..Case::new(sorted!["-n", "TODO", "-"], 0)
        },
    ]);
}

#[test]
fn rg_listing_and_counting_match_native() {
    rg(&[
        Case::new(sorted!["-l", "TODO", "."], 0),
        Case::new(sorted!["-c", "TODO", "."], 0),
        Case::new(sorted!["--files", "."], 0),
        Case::new(sorted!["--files"], 0),
        Case::new(sorted!["--files-without-match", "TODO", "."], 0),
        Case::new(sorted!["--count-matches", "-i", "todo", "."], 0),
    ]);
}

#[test]
fn rg_filters_match_native() {
    rg(&[
        Case::new(sorted!["-g", "*.rs", "TODO", "."], 0),
        Case::new(sorted!["-g", "!*.rs", "-l", "TODO", "."], 0),
        Case::new(sorted!["-t", "rust", "-c", "TODO", "."], 0),
        Case::new(sorted!["-T", "rust", "-l", "TODO", "."], 0),
        Case::new(sorted!["--hidden", "-l", "TODO", "."], 0),
        Case::new(sorted!["--no-ignore", "-l", "TODO", "."], 0),
        Case::new(sorted!["-uu", "--files"], 0),
        Case::new(sorted!["--max-depth", "2", "-l", "TODO", "."], 0),
        Case::new(sorted!["-a", "-c", "TODO", "assets"], 0),
        Case::new(sorted!["-c", "TODO", "assets/late-nul.dat"], 0),
    ]);
}

#[test]
fn rg_exit_codes_match_native() {
    rg(&[
        Case::new(sorted!["zzz_no_such_text_zzz", "."], 1),
        Case::new(sorted!["(", "."], 2),
        Case::new(sorted!["TODO", "no/such/dir"], 2),
        Case::new(sorted!["--no-such-flag", "TODO"], 2),
    ]);
}

/// A program run in a subdirectory, though wasi-libc starts every program
/// in `/` (`__wasilibc_cwd` is "/", never read from `initial-cwd` or `PWD`).
#[test]
fn rg_runs_in_the_cwd_it_is_given() {
    // The host preopens the cwd for a program whose wasi-libc starts in `/`
    // (wit/README.md, "Working directory"): relative paths, `.` and `..`
    // resolve from there, and a name only the root has is the root's.
    // `getcwd` still answers `/`, so rg finds no ignore files above its
    // cwd: these cases stay where the tree's ignore rules don't reach.
    rg(&[
        Case {
            cwd: "src/net",
            ..Case::new(sorted!["-n", "TODO", "."], 0)
        },
        Case {
            cwd: "src/net",
            ..Case::new(sorted!["-l", "TODO", "http", "../util"], 0)
        },
        Case {
            cwd: "src/net/tcp",
            ..Case::new(sorted!["--files", "..", "../../util"], 0)
        },
        Case {
            cwd: "src",
            ..Case::new(sorted!["TODO", "no-such-dir"], 2)
        },
    ]);
}

/// What exit codes should do; see [`wasm_exit_for`].
#[test]
#[ignore = "wasi:cli/exit.exit carries only ok/err: exit 2 arrives as 1"]
fn exit_codes_above_1_reach_the_host() {
    let both = Both::new(project_tree());
    let (got, err) = run_wasm(&both.ws, "rg", rg_wasm(), &["(", "."], "/", b"");
    assert_eq!(got.exit, 2, "stderr: {err}");
}

// ---- hexyl ----

fn hexyl_tree() -> Tree {
    let mut rng = Lcg(0x4e7);
    let mut random = |n: usize| -> Vec<u8> { (0..n).map(|_| rng.below(256) as u8).collect() };
    let mut zeros = vec![0u8; 4096];
    zeros.extend_from_slice(b"tail after the zeros\n");
    vec![
        ("empty".into(), vec![]),
        (
            "hello.txt".into(),
            b"hello, world\n\ttabs and \x7f DEL\n".to_vec(),
        ),
        ("random.bin".into(), random(1000)),
        ("zeros.bin".into(), zeros),
        // Bigger than one read, so the reads and the skip cross buffers.
        ("big.bin".into(), random(70 << 10)),
        ("données/ünï cødé.txt".into(), "unicode: ✓ ü 日本\n".into()),
    ]
}

#[test]
fn hexyl_matches_native() {
    let native = native_tool("/usr/bin/hexyl", "hexyl");
    compare(
        &hexyl_tree(),
        "hexyl",
        hexyl_wasm(),
        &native,
        &[
            Case::new(&["--color=never", "hello.txt"], 0),
            // Colors on: hexyl's default.
            Case::new(&["random.bin"], 0),
            Case::new(&["--color=never", "zeros.bin"], 0),
            Case::new(&["--color=never", "-v", "zeros.bin"], 0),
            Case::new(&["--color=never", "-s", "100", "-n", "64", "random.bin"], 0),
            Case::new(&["--skip", "1KiB", "--length", "2kB", "big.bin"], 0),
            Case::new(&["--color=never", "--border", "ascii", "big.bin"], 0),
            Case::new(&["--border", "none", "-o", "4096", "random.bin"], 0),
            Case::new(
                &[
                    "--block-size",
                    "256",
                    "-s",
                    "2block",
                    "-n",
                    "1block",
                    "big.bin",
                ],
                0,
            ),
            Case::new(&["--color=never", "-s", "5000", "random.bin"], 0),
            Case::new(&["--color=never", "empty"], 0),
            Case::new(&["--color=never", "données/ünï cødé.txt"], 0),
            Case {
                cwd: "données",
                ..Case::new(&["--color=never", "ünï cødé.txt"], 0)
            },
            Case {
                cwd: "données",
                ..Case::new(&["--color=never", "-n", "32", "../random.bin"], 0)
            },
            Case {
                stdin: b"from stdin\x00\x01\x02",
                ..Case::new(&["--color=never"], 0)
            },
            Case::new(&["no-such-file"], 1),
            Case::new(&["--no-such-flag", "hello.txt"], 1),
        ],
    );
}

// ---- SQLite ----

#[test]
fn sqlite_on_a_workspace_file_matches_native_sqlite() {
    let ws = Arc::new(Workspace::in_memory().expect("workspace"));
    ws.mkdir("/db", &MkdirOptions::default()).unwrap();
    let (got, err) = run_wasm(
        &ws,
        "sqlite_bench",
        sqlite_bench_wasm(),
        &["/db/bench.db", "2000"],
        "/",
        b"",
    );
    assert_eq!(got.exit, 0, "wasm sqlite_bench: {err}");
    let host = tempfile::tempdir().unwrap();
    let native = sqlite_bench_native();
    let host_db = host.path().join("bench.db");
    let (want, err) = run_native(
        &native,
        &[host_db.to_str().unwrap(), "2000"],
        host.path(),
        b"",
    );
    assert_eq!(want.exit, 0, "native sqlite_bench: {err}");
    // The last field is the time taken.
    let result = |o: &Outcome| {
        let out = s(&o.stdout);
        out.rsplit_once(' ')
            .map(|(r, _)| r.to_owned())
            .unwrap_or(out)
    };
    assert_eq!(result(&got), result(&want));
    assert_eq!(result(&want), "count=2000 sum=10014700 names=28890");

    // What the guest left is a whole database, its journal and lock gone,
    // and native SQLite reads it back (0 more rows: only the query runs).
    let names: Vec<String> = ws
        .readdir("/db", computer_store::Page::all())
        .unwrap()
        .into_iter()
        .map(|st| st.name)
        .collect();
    assert_eq!(names, ["bench.db"]);
    let copy = host.path().join("copy.db");
    std::fs::write(&copy, ws.read("/db/bench.db").unwrap()).unwrap();
    let (again, err) = run_native(&native, &[copy.to_str().unwrap(), "0"], host.path(), b"");
    assert_eq!(again.exit, 0, "native sqlite_bench on the copy: {err}");
    assert_eq!(result(&again), result(&want));
}
