//! Shared helpers for the black-box tests in `tests/`: they find the
//! `computer` binary and drive it, as a user would, against a throwaway
//! workspace file.
//!
//! Nothing here links against the host crates: every check goes through the
//! CLI's exit code, stdout and stderr.

use std::ffi::OsStr;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;

pub use serde_json::{Value, json};

pub mod corpus;

/// The `computer` binary under test.
///
/// Cargo only sets `CARGO_BIN_EXE_<name>` for binaries of the package being
/// tested, and `computer` belongs to `computer-cli`, so it is located by hand:
///
/// 1. `$COMPUTER_BIN`, if set, is used as is (nothing is built);
/// 2. otherwise `<target>/debug/computer`, where `<target>` is
///    `$CARGO_TARGET_DIR` (a relative one is taken from the workspace root)
///    or `<workspace>/target`, the workspace being `CARGO_MANIFEST_DIR/..`.
///
/// In the second case `cargo build -p computer-cli` runs once per test
/// process (guarded by a `OnceLock`) before the first use. It builds the
/// binary if it does not exist yet, and otherwise only costs a fingerprint
/// check; running it every time keeps the tests from silently exercising a
/// stale binary after the CLI's sources changed, since `cargo test -p
/// computer-tests` does not rebuild other packages' binaries by itself.
pub fn computer_bin() -> &'static Path {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| {
        if let Some(bin) = std::env::var_os("COMPUTER_BIN") {
            return PathBuf::from(bin);
        }
        let workspace = workspace_root();
        let target = target_dir(&workspace);
        let bin = target
            .join("debug")
            .join(format!("computer{}", std::env::consts::EXE_SUFFIX));
        build_cli(&workspace, &target);
        assert!(
            bin.is_file(),
            "`cargo build -p computer-cli` succeeded but {} does not exist",
            bin.display()
        );
        bin
    })
}

/// The cargo workspace holding this crate.
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ lives inside the workspace")
        .to_path_buf()
}

/// `$CARGO_TARGET_DIR` (a relative one from the workspace root), else
/// `<workspace>/target`.
fn target_dir(workspace: &Path) -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) => workspace.join(dir),
        None => workspace.join("target"),
    }
}

fn build_cli(workspace: &Path, target: &Path) {
    cargo_build(workspace, target, "computer-cli", "computer");
}

/// Binary `bin` of workspace package `package` (an example), built first
/// with `cargo build` into the target directory [`computer_bin`] uses, for
/// the same reason: a test never runs a stale one.
pub fn package_bin(package: &str, bin: &str) -> PathBuf {
    let workspace = workspace_root();
    let target = target_dir(&workspace);
    cargo_build(&workspace, &target, package, bin);
    target
        .join("debug")
        .join(format!("{bin}{}", std::env::consts::EXE_SUFFIX))
}

fn cargo_build(workspace: &Path, target: &Path, package: &str, bin: &str) {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let out = Command::new(cargo)
        .args(["build", "--quiet", "-p", package, "--bin", bin])
        .arg("--target-dir")
        .arg(target)
        .current_dir(workspace)
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("could not run cargo to build {package}: {e}"));
    assert!(
        out.status.success(),
        "building {package} failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A bare `computer` command run in `cwd`, with no workspace selected: the
/// caller's `$COMPUTER_WORKSPACE` is removed so it cannot leak into a test.
pub fn computer(cwd: &Path) -> Command {
    let mut cmd = Command::new(computer_bin());
    cmd.current_dir(cwd)
        .env_remove("COMPUTER_WORKSPACE")
        .env_remove("COMPUTER_LOG");
    cmd
}

/// Runs `cmd` to completion with `stdin` as its standard input.
pub fn run_command(cmd: &mut Command, stdin: &[u8]) -> Output {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("could not start the computer binary");
    let mut pipe = child.stdin.take().expect("stdin is piped");
    let stdin = stdin.to_vec();
    // Fed from a thread, so a child that writes a lot before reading all of
    // its input cannot deadlock against us.
    let feeder = std::thread::spawn(move || {
        // The child may legitimately exit without reading everything.
        let _ = pipe.write_all(&stdin);
    });
    let out = child.wait_with_output().expect("waiting for computer");
    feeder.join().expect("stdin feeder panicked");
    out
}

/// Bytes as text, for assertions; panics with the bytes if they are not UTF-8.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap_or_else(|_| panic!("not UTF-8: {bytes:?}"))
}

/// A readable account of a finished command, for assertion messages.
pub fn describe(args: &[&str], out: &Output) -> String {
    format!(
        "computer {}\nstatus: {}\nstdout: {}\nstderr: {}",
        args.join(" "),
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// Parses `stdout` as exactly one JSON document (surrounding whitespace
/// allowed) and panics if there is none, more than one, or trailing junk.
pub fn one_json(stdout: &[u8]) -> Value {
    let mut docs = serde_json::Deserializer::from_slice(stdout).into_iter::<Value>();
    let first = match docs.next() {
        Some(Ok(v)) => v,
        Some(Err(e)) => panic!(
            "stdout is not JSON ({e}): {}",
            String::from_utf8_lossy(stdout)
        ),
        None => panic!("stdout holds no JSON document"),
    };
    if let Some(extra) = docs.next() {
        panic!(
            "stdout holds more than one JSON document (next: {extra:?}): {}",
            String::from_utf8_lossy(stdout)
        );
    }
    first
}

/// Splits a plain-mode error line `computer: CODE: message\n` into
/// `(CODE, message)`, panicking if stderr has any other shape.
pub fn parse_error_line(stderr: &[u8]) -> (String, String) {
    let stderr = text(stderr);
    let line = stderr
        .strip_suffix('\n')
        .unwrap_or_else(|| panic!("stderr does not end in a newline: {stderr:?}"));
    assert!(!line.contains('\n'), "stderr is not one line: {stderr:?}");
    let rest = line
        .strip_prefix("computer: ")
        .unwrap_or_else(|| panic!("stderr does not start with `computer: `: {stderr:?}"));
    let (code, message) = rest
        .split_once(": ")
        .unwrap_or_else(|| panic!("stderr is not `computer: CODE: message`: {stderr:?}"));
    assert!(
        !code.is_empty() && code.chars().all(|c| c.is_ascii_uppercase()),
        "not an error code: {code:?} in {stderr:?}"
    );
    (code.to_owned(), message.to_owned())
}

/// Splits a `--json` error document `{"error":{"code":..,"message":..}}`
/// into `(code, message)`, panicking on any other shape.
pub fn parse_error_json(doc: &Value) -> (String, String) {
    let error = doc
        .as_object()
        .filter(|o| o.len() == 1)
        .and_then(|o| o.get("error"))
        .and_then(Value::as_object)
        .filter(|e| e.len() == 2)
        .unwrap_or_else(|| panic!("not {{\"error\":{{\"code\",\"message\"}}}}: {doc}"));
    let field = |k: &str| {
        error
            .get(k)
            .and_then(Value::as_str)
            .unwrap_or_else(|| panic!("error.{k} is not a string: {doc}"))
            .to_owned()
    };
    (field("code"), field("message"))
}

/// One throwaway workspace: a temporary directory holding the workspace file
/// (`ws.db`, made empty by [`Ws::new`]; [`Ws::without_file`] leaves it to
/// the first command) and used as the current directory of every command,
/// plus room for host-side scratch files.
pub struct Ws {
    dir: tempfile::TempDir,
    db: PathBuf,
}

impl Default for Ws {
    fn default() -> Self {
        Self::new()
    }
}

impl Ws {
    /// A fresh, initialized workspace: read-only commands refuse a
    /// missing file, so tests can start with any command.
    pub fn new() -> Self {
        let ws = Self::without_file();
        computer_store::Workspace::open(&ws.db).expect("creating the workspace file");
        ws
    }

    /// As [`Ws::new`] with no workspace file yet.
    pub fn without_file() -> Self {
        let dir = tempfile::tempdir().expect("creating a temporary directory");
        let db = dir.path().join("ws.db");
        Ws { dir, db }
    }

    /// The workspace file.
    pub fn db(&self) -> &Path {
        &self.db
    }

    /// The temporary directory: the commands' working directory, and a
    /// place for host files (import sources, export targets).
    pub fn dir(&self) -> &Path {
        self.dir.path()
    }

    /// A host path inside [`Ws::dir`].
    pub fn host(&self, rel: &str) -> PathBuf {
        self.dir().join(rel)
    }

    /// `computer --workspace <db> ARGS...`, not yet run.
    pub fn command<S: AsRef<OsStr>>(&self, args: &[S]) -> Command {
        let mut cmd = computer(self.dir());
        cmd.arg("--workspace").arg(&self.db).args(args);
        cmd
    }

    /// Runs `computer --workspace <db> ARGS...` with `stdin`.
    pub fn run(&self, args: &[&str], stdin: impl AsRef<[u8]>) -> Output {
        run_command(&mut self.command(args), stdin.as_ref())
    }

    /// Runs a command that must succeed silently on stderr; returns stdout.
    pub fn ok_bytes(&self, args: &[&str], stdin: impl AsRef<[u8]>) -> Vec<u8> {
        let out = self.run(args, stdin);
        assert!(
            out.status.success() && out.stderr.is_empty(),
            "expected success with empty stderr\n{}",
            describe(args, &out)
        );
        out.stdout
    }

    /// [`Ws::ok_bytes`] with stdin, stdout as text.
    pub fn ok_with(&self, args: &[&str], stdin: impl AsRef<[u8]>) -> String {
        text(&self.ok_bytes(args, stdin))
    }

    /// [`Ws::ok_bytes`] with empty stdin, stdout as text.
    pub fn ok(&self, args: &[&str]) -> String {
        self.ok_with(args, "")
    }

    /// Runs ARGS with `--json` appended: it must succeed, print nothing on
    /// stderr and exactly one JSON document on stdout, which is returned.
    pub fn json_with(&self, args: &[&str], stdin: impl AsRef<[u8]>) -> Value {
        let args = with_json(args);
        let out = self.run(&args, stdin);
        assert!(
            out.status.success() && out.stderr.is_empty(),
            "expected success with empty stderr\n{}",
            describe(&args, &out)
        );
        one_json(&out.stdout)
    }

    /// [`Ws::json_with`] with empty stdin.
    pub fn json(&self, args: &[&str]) -> Value {
        self.json_with(args, "")
    }

    /// Runs a command that must fail, twice: plainly, where it must exit 1
    /// with an empty stdout and `computer: CODE: message` on stderr; and
    /// with `--json`, where it must exit 1 with an empty stderr and
    /// `{"error":{"code","message"}}` on stdout. Both runs must report the
    /// same error, which is returned as `(code, message)`.
    ///
    /// Failed operations change nothing, so running twice is harmless.
    pub fn err_with(&self, args: &[&str], stdin: impl AsRef<[u8]>) -> (String, String) {
        let stdin = stdin.as_ref();
        let out = self.run(args, stdin);
        assert!(
            out.status.code() == Some(1) && out.stdout.is_empty(),
            "expected exit 1 with empty stdout\n{}",
            describe(args, &out)
        );
        let plain = parse_error_line(&out.stderr);

        let json_args = with_json(args);
        let out = self.run(&json_args, stdin);
        assert!(
            out.status.code() == Some(1) && out.stderr.is_empty(),
            "expected exit 1 with empty stderr\n{}",
            describe(&json_args, &out)
        );
        let json = parse_error_json(&one_json(&out.stdout));
        assert_eq!(plain, json, "plain and --json report different errors");
        plain
    }

    /// [`Ws::err_with`] with empty stdin.
    pub fn err(&self, args: &[&str]) -> (String, String) {
        self.err_with(args, "")
    }

    /// Only the code of [`Ws::err`].
    pub fn errno(&self, args: &[&str]) -> String {
        self.err(args).0
    }

    /// Only the code of [`Ws::err_with`].
    pub fn errno_with(&self, args: &[&str], stdin: impl AsRef<[u8]>) -> String {
        self.err_with(args, stdin).0
    }

    /// Runs a command clap must reject: exit 2, empty stdout, and clap's
    /// `error: ...` on stderr, which is returned.
    pub fn usage_err(&self, args: &[&str]) -> String {
        let out = self.run(args, "");
        assert!(
            out.status.code() == Some(2) && out.stdout.is_empty(),
            "expected a usage error (exit 2, empty stdout)\n{}",
            describe(args, &out)
        );
        let stderr = text(&out.stderr);
        assert!(
            stderr.starts_with("error: "),
            "not clap's error: {stderr:?}"
        );
        stderr
    }

    /// `fs write --parents PATH` with `content` on stdin.
    pub fn put(&self, path: &str, content: impl AsRef<[u8]>) {
        self.ok_with(&["fs", "write", "--parents", path], content);
    }

    /// `fs read PATH`, as bytes.
    pub fn read(&self, path: &str) -> Vec<u8> {
        self.ok_bytes(&["fs", "read", path], "")
    }

    /// `fs read PATH`, as text.
    pub fn cat(&self, path: &str) -> String {
        text(&self.read(path))
    }

    /// Whether PATH exists (without following a final symlink).
    pub fn exists(&self, path: &str) -> bool {
        let out = self.run(&["fs", "stat", "--no-follow", path, "--json"], "");
        let doc = one_json(&out.stdout);
        if out.status.success() {
            return true;
        }
        assert_eq!(parse_error_json(&doc).0, "ENOENT", "{doc}");
        false
    }

    /// `fs stat --json PATH`.
    pub fn stat(&self, path: &str) -> Value {
        self.json(&["fs", "stat", path])
    }

    /// The entry names `fs ls --json DIR` reports, in order.
    pub fn names(&self, dir: &str) -> Vec<String> {
        entry_strings(&self.json(&["fs", "ls", dir]), "entries", "name")
    }

    /// Every path under DIR, as `fs find --json DIR '**'` lists them.
    pub fn tree(&self, dir: &str) -> Vec<String> {
        entry_strings(&self.json(&["fs", "find", dir, "**"]), "entries", "path")
    }

    /// The workspace revision, from `info --json`.
    pub fn rev(&self) -> u64 {
        self.json(&["info"])["rev"]
            .as_u64()
            .expect("info reports rev as a number")
    }
}

/// `args` with `--json` appended.
pub fn with_json<'a>(args: &[&'a str]) -> Vec<&'a str> {
    let mut v = args.to_vec();
    v.push("--json");
    v
}

/// `doc[list][*][field]` as strings.
pub fn entry_strings(doc: &Value, list: &str, field: &str) -> Vec<String> {
    doc[list]
        .as_array()
        .unwrap_or_else(|| panic!("{list} is not an array: {doc}"))
        .iter()
        .map(|e| {
            e[field]
                .as_str()
                .unwrap_or_else(|| panic!("{field} is not a string: {e}"))
                .to_owned()
        })
        .collect()
}

/// Convenience for `vec!["a", "b"]` comparisons against `Vec<String>`.
pub fn strings(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| (*s).to_owned()).collect()
}

// ---------------------------------------------------------------- exec

/// Where the `computer` processes started by [`Ws::exec`] cache compiled
/// guest components: under the target directory (`<target>/tmp`), so the
/// tests neither write to `$HOME` nor compile a guest in every process.
pub fn component_cache_dir() -> PathBuf {
    let workspace = workspace_root();
    let target = target_dir(&workspace);
    target.join("tmp").join("component-cache")
}

/// The JS guest component as `scripts/build-guests.sh` builds it; panics
/// with instructions if it has not been built.
pub fn js_guest_wasm() -> PathBuf {
    let path = workspace_root().join("guests/target/wasm32-wasip2/release/computer_guest_js.wasm");
    assert!(
        path.is_file(),
        "{} does not exist: run scripts/build-guests.sh",
        path.display()
    );
    path
}

impl Ws {
    /// `computer --workspace <db> exec ARGS...`, not yet run, with the
    /// component cache in [`component_cache_dir`].
    pub fn exec_command(&self, args: &[&str]) -> Command {
        let mut cmd = self.command(&["exec"]);
        // These tests are about JS unless they pick a backend; the CLI's
        // default is the shell.
        if !args.contains(&"--backend") {
            cmd.args(["--backend", "js"]);
        }
        cmd.args(args)
            .env("COMPUTER_CACHE_DIR", component_cache_dir());
        cmd
    }

    /// Runs `computer --workspace <db> exec ARGS...` with `stdin`.
    pub fn exec(&self, args: &[&str], stdin: impl AsRef<[u8]>) -> Output {
        run_command(&mut self.exec_command(args), stdin.as_ref())
    }

    /// Runs `exec ARGS... --json`: stderr must be empty and stdout exactly
    /// one JSON document. Returns the process exit code and the document.
    pub fn exec_json(&self, args: &[&str], stdin: impl AsRef<[u8]>) -> (i32, Value) {
        let args = with_json(args);
        let out = self.exec(&args, stdin);
        let shown = [&["exec"][..], &args].concat();
        assert!(
            out.stderr.is_empty(),
            "expected an empty stderr with --json\n{}",
            describe(&shown, &out)
        );
        let code = out
            .status
            .code()
            .unwrap_or_else(|| panic!("killed by a signal\n{}", describe(&shown, &out)));
        (code, one_json(&out.stdout))
    }
}
