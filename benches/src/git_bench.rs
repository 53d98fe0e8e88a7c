//! git (the real program, registered from `target/programs/git`) against the machine's
//! git 2.39 (`/usr/bin/git`), side by side in this process on the same
//! repositories: ours in a workspace whose SQLite file is on tmpfs, run as
//! `command`-backend runs (recorded and durable, what an agent's `exec` of
//! one command is), native git as a process in a tmpfs directory.
//!
//! Each side builds its own copy of the same repository with its own git
//! (the same files, the same pinned identities and dates, so the same
//! commit ids), except the 1,000-commit history: real git makes it with
//! `fast-import`, its objects are unpacked to loose ones (what our git
//! writes), and the directory is imported into the workspace.
//!
//! `COMPUTER_GIT_BENCH_ONLY=version|status|add|log|diff|init` runs one
//! workload. `COMPUTER_GIT_BENCH_PROFILE=1` also prints, per row, one of
//! our runs' store operations by kind (from the audit log) and the same
//! run unjournalled (`on_interrupt = fail`), to say where the time goes.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use computer_runtime::{ExecOptions, OnInterrupt, RunResult, Runtime, RuntimeConfig};
use computer_store::{AuditQuery, MkdirOptions, Page, Workspace, WriteOptions};

use crate::report::{Row, median, us};

const NATIVE: &str = "/usr/bin/git";
const HOME: &str = "/home/agent";

/// Identities and dates every commit gets on both sides, so both make the
/// same objects.
const PINNED: &[(&str, &str)] = &[
    ("GIT_AUTHOR_NAME", "A U Thor"),
    ("GIT_AUTHOR_EMAIL", "author@example.com"),
    ("GIT_AUTHOR_DATE", "2024-01-01T00:00:00+00:00"),
    ("GIT_COMMITTER_NAME", "C O Mitter"),
    ("GIT_COMMITTER_EMAIL", "committer@example.com"),
    ("GIT_COMMITTER_DATE", "2024-01-01T00:00:00+00:00"),
    ("GIT_CONFIG_NOSYSTEM", "1"),
    ("GIT_PAGER", "cat"),
    ("LANG", "C"),
    ("LC_ALL", "C"),
    ("TZ", "UTC"),
];

/// Both sides of one benchmark: our runtime and workspace, and the tmpfs
/// directory native git works in (`native/` mirrors the workspace's `/`).
struct Sides {
    rt: Runtime,
    ws: Arc<Workspace>,
    root: PathBuf,
    home: PathBuf,
    profile: bool,
}

/// What one side's run printed, to check both sides did the same work.
struct Ran {
    took: Duration,
    stdout: Vec<u8>,
}

impl Sides {
    fn new(base: &Path) -> Result<(Sides, tempfile::TempDir)> {
        let rt = Runtime::with_builtin_guests(RuntimeConfig::default())?;
        computer_builtins::register(&rt)?;
        let dir = tempfile::tempdir_in(base)?;
        let ws = Arc::new(Workspace::open(dir.path().join("ws.db"))?);
        let home = dir.path().join("home");
        std::fs::create_dir_all(&home)?;
        let sides = Sides {
            rt,
            ws,
            root: dir.path().join("native"),
            home,
            profile: std::env::var_os("COMPUTER_GIT_BENCH_PROFILE").is_some(),
        };
        Ok((sides, dir))
    }

    fn host(&self, ws_dir: &str) -> PathBuf {
        self.root.join(ws_dir.trim_start_matches('/'))
    }

    fn options(&self, cwd: &str, on_interrupt: Option<OnInterrupt>) -> ExecOptions {
        let mut env: BTreeMap<String, String> = PINNED
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect();
        env.insert("HOME".into(), HOME.into());
        ExecOptions {
            backend: "command".into(),
            cwd: Some(cwd.into()),
            env,
            on_interrupt,
            ..Default::default()
        }
    }

    fn exec_ours(&self, cwd: &str, line: &str, oi: Option<OnInterrupt>) -> Result<RunResult> {
        let r = self
            .rt
            .exec(self.ws.clone(), line, self.options(cwd, oi))?
            .wait();
        if r.exit_code != 0 {
            bail!(
                "our `{line}` in {cwd} exited {}: {}{}",
                r.exit_code,
                String::from_utf8_lossy(&r.stderr),
                r.error.as_deref().unwrap_or("")
            );
        }
        Ok(r)
    }

    /// Our git: each line is one run of the `command` backend, in turn.
    fn ours(&self, cwd: &str, lines: &[&str]) -> Result<Ran> {
        let t = Instant::now();
        let mut stdout = Vec::new();
        for line in lines {
            stdout.extend(self.exec_ours(cwd, line, None)?.stdout);
        }
        Ok(Ran {
            took: t.elapsed(),
            stdout,
        })
    }

    /// Native git: each argument list is one process, in turn.
    fn native(&self, ws_dir: &str, runs: &[&[&str]]) -> Result<Ran> {
        let dir = self.host(ws_dir);
        let t = Instant::now();
        let mut stdout = Vec::new();
        for args in runs {
            let out = Command::new(NATIVE)
                .args(*args)
                .current_dir(&dir)
                .env_clear()
                .envs(PINNED.iter().copied())
                .env("HOME", &self.home)
                .env("PATH", "/usr/bin:/bin")
                .stdin(Stdio::null())
                .output()?;
            if !out.status.success() {
                bail!(
                    "native git {args:?} in {}: {}",
                    dir.display(),
                    String::from_utf8_lossy(&out.stderr)
                );
            }
            stdout.extend(out.stdout);
        }
        Ok(Ran {
            took: t.elapsed(),
            stdout,
        })
    }

    /// The same git work on both sides; `lines` are our command lines and
    /// also, split on spaces, native git's arguments.
    fn both(&self, ws_dir: &str, lines: &[&str]) -> Result<(Ran, Ran)> {
        let args: Vec<Vec<&str>> = lines
            .iter()
            .map(|l| l.split(' ').skip(1).collect())
            .collect();
        let args: Vec<&[&str]> = args.iter().map(Vec::as_slice).collect();
        let ours = self.ours(ws_dir, lines)?;
        let native = self.native(ws_dir, &args)?;
        Ok((ours, native))
    }

    /// Writes `files` (relative path, contents) under `ws_dir` on both sides.
    fn write_files(&self, ws_dir: &str, files: &[(String, Vec<u8>)]) -> Result<()> {
        let mkdir = MkdirOptions {
            recursive: true,
            mode: None,
        };
        let mut made = std::collections::BTreeSet::new();
        for (rel, data) in files {
            let ws_path = format!("{ws_dir}/{rel}");
            let parent = ws_path.rsplit_once('/').map_or("/", |(p, _)| p).to_owned();
            if made.insert(parent.clone()) {
                self.ws.mkdir(&parent, &mkdir)?;
                std::fs::create_dir_all(self.host(&parent))?;
            }
            self.ws.write(&ws_path, data, &WriteOptions::default())?;
            std::fs::write(self.host(&ws_path), data)?;
        }
        Ok(())
    }

    /// With `COMPUTER_GIT_BENCH_PROFILE`: `lines` once more in `dirs[0]`,
    /// each run's store operations by kind, and the same in `dirs[1]`
    /// without the journal (two directories, for work that changes the
    /// repository; the same one twice otherwise).
    fn profile(&self, work: &str, dirs: [&str; 2], lines: &[&str]) -> Result<()> {
        if !self.profile {
            return Ok(());
        }
        for line in lines {
            let t = Instant::now();
            let r = self.exec_ours(dirs[0], line, None)?;
            let journalled = t.elapsed();
            let t = Instant::now();
            self.exec_ours(dirs[1], line, Some(OnInterrupt::Fail))?;
            let bare = t.elapsed();
            let ops = self.store_operations(&r.run_id)?;
            let total: usize = ops.values().sum();
            eprintln!(
                "{work}: `{line}` {journalled:?} journalled, {bare:?} not; \
                 {total} store operations: {ops:?}"
            );
        }
        Ok(())
    }

    /// With `COMPUTER_GIT_BENCH_PROFILE`: what the store alone takes for
    /// the lookups a status needs, called from the host (no guest, no
    /// journal): one `lstat` per file, against one `readdir` per directory
    /// (which returns every entry's size and mtime too).
    fn store_floor(&self, dir: &str, files: usize) -> Result<()> {
        if !self.profile {
            return Ok(());
        }
        let paths: Vec<String> = tree("", files)
            .into_iter()
            .map(|(p, _)| format!("{dir}/{p}"))
            .collect();
        let t = Instant::now();
        for p in &paths {
            self.ws.lstat(p)?;
        }
        let lstats = t.elapsed();
        let dirs: std::collections::BTreeSet<&str> = paths
            .iter()
            .filter_map(|p| p.rsplit_once('/'))
            .map(|(d, _)| d)
            .collect();
        let t = Instant::now();
        let mut listed = 0;
        for d in &dirs {
            listed += self.ws.readdir(d, Page::all())?.len();
        }
        let readdirs = t.elapsed();
        eprintln!(
            "store alone: {files} lstat {lstats:?} ({:.1} µs each); {} readdir \
             ({listed} entries with their stat) {readdirs:?}",
            lstats.as_secs_f64() * 1e6 / files as f64,
            dirs.len()
        );
        Ok(())
    }

    /// With `COMPUTER_GIT_BENCH_PROFILE`: `n` object-sized files written
    /// from the host, one `Workspace::write` (one transaction) each: what
    /// storing `n` loose objects costs at one store call per object.
    fn write_floor(&self, n: usize) -> Result<()> {
        if !self.profile {
            return Ok(());
        }
        self.ws.mkdir("/floor", &MkdirOptions::default())?;
        let t = Instant::now();
        for i in 0..n {
            let body = format!("x{i} {}", "compressed object bytes ".repeat(6));
            self.ws.write(
                &format!("/floor/{i}"),
                body.as_bytes(),
                &WriteOptions::default(),
            )?;
        }
        let took = t.elapsed();
        eprintln!(
            "store alone: {n} writes of 150 bytes {took:?} ({:.1} µs each)",
            took.as_secs_f64() * 1e6 / n as f64
        );
        Ok(())
    }

    /// A run's store operations by kind, from the audit log.
    fn store_operations(&self, run_id: &str) -> Result<BTreeMap<String, usize>> {
        self.ws.audit().flush()?;
        let rows = self.ws.audit().query(&AuditQuery {
            run: Some(run_id.to_owned()),
            page: Page::all(),
            ..Default::default()
        })?;
        let mut by_op: BTreeMap<String, usize> = BTreeMap::new();
        for row in &rows {
            *by_op.entry(row.operation.clone()).or_default() += 1;
        }
        Ok(by_op)
    }
}

/// `n` small text files spread over directories of 100, as
/// (relative path, contents).
fn tree(prefix: &str, n: usize) -> Vec<(String, Vec<u8>)> {
    (0..n)
        .map(|i| {
            let path = format!("{prefix}d{:02}/f{i:05}.txt", i / 100);
            let body = format!("file {i}\n{}\n", "some text of a source file. ".repeat(8));
            (path, body.into_bytes())
        })
        .collect()
}

/// Runs `trials` of `lines` on both sides, after `prepare(trial)` (not
/// timed), and checks the first trial's outputs agree.
fn measure(
    s: &Sides,
    work: &str,
    target: &str,
    trials: usize,
    mut prepare: impl FnMut(usize) -> Result<String>,
    lines: &[&str],
) -> Result<Row> {
    let mut ours = Vec::new();
    let mut native = Vec::new();
    for t in 0..trials {
        let dir = prepare(t)?;
        let (o, n) = s.both(&dir, lines).with_context(|| work.to_owned())?;
        if t == 0 && o.stdout != n.stdout {
            eprintln!(
                "warning: {work}: the outputs differ ({} bytes ours, {} native)",
                o.stdout.len(),
                n.stdout.len()
            );
        }
        ours.push(o.took);
        native.push(n.took);
    }
    Ok(Row {
        work: work.to_owned(),
        computer_us: us(median(ours)),
        native_us: Some(us(median(native))),
        target: target.to_owned(),
    })
}

/// A repository at `dir` on both sides holding `files`, committed by each
/// side's own git.
fn committed_repo(s: &Sides, dir: &str, files: &[(String, Vec<u8>)]) -> Result<()> {
    s.write_files(dir, files)?;
    s.both(
        dir,
        &["git init -q", "git add -A", "git commit -q -m initial"],
    )?;
    Ok(())
}

/// Status of a clean 5,000-file repository, then with 10 changed files.
fn status_rows(s: &Sides, files: usize, trials: usize) -> Result<Vec<Row>> {
    committed_repo(s, "/status", &tree("", files))?;
    // Native git refreshes racy index entries on its first status.
    s.both("/status", &["git status"])?;
    let work = format!("`git status` on a {files}-file repository, clean");
    let clean = measure(
        s,
        &work,
        "≤ 3x",
        trials,
        |_| Ok("/status".into()),
        &["git status"],
    )?;
    s.profile(&work, ["/status"; 2], &["git status"])?;
    s.store_floor("/status", files)?;
    let changed: Vec<(String, Vec<u8>)> = tree("", files)
        .into_iter()
        .step_by(files / 10)
        .take(10)
        .map(|(p, mut body)| {
            body.extend_from_slice(b"a change\n");
            (p, body)
        })
        .collect();
    s.write_files("/status", &changed)?;
    let work = "same, with 10 changes";
    let dirty = measure(
        s,
        work,
        "≤ 3x",
        trials,
        |_| Ok("/status".into()),
        &["git status"],
    )?;
    s.profile(work, ["/status"; 2], &["git status"])?;
    Ok(vec![clean, dirty])
}

/// `git add -A && git commit` of 1,000 new files, each trial in a fresh
/// repository holding one committed file.
fn add_commit_row(s: &Sides, files: usize, trials: usize) -> Result<Row> {
    let prepare = |t: usize| {
        let dir = format!("/add{t}");
        committed_repo(s, &dir, &[("README".into(), b"hello\n".to_vec())])?;
        s.write_files(&dir, &tree("new/", files))?;
        Ok(dir)
    };
    let work = format!("`git add -A && git commit` of {files} new files");
    let lines = ["git add -A", "git commit -m batch"];
    let row = measure(s, &work, "≤ 3x", trials, prepare, &lines)?;
    if s.profile {
        let dirs = [prepare(trials)?, prepare(trials + 1)?];
        s.profile(&work, [&dirs[0], &dirs[1]], &lines)?;
        s.write_floor(files)?;
    }
    Ok(row)
}

/// A `git fast-import` stream of `n` commits, each changing one file.
fn history_stream(n: usize) -> String {
    let mut out = String::new();
    for i in 1..=n {
        let body = format!("version {i}\n");
        let msg = format!("change {i}\n");
        out.push_str(&format!(
            "commit refs/heads/master\nmark :{i}\n\
             author A U Thor <author@example.com> {} +0000\n\
             committer C O Mitter <committer@example.com> {} +0000\n\
             data {}\n{msg}",
            1_700_000_000 + i,
            1_700_000_000 + i,
            msg.len()
        ));
        if i > 1 {
            out.push_str(&format!("from :{}\n", i - 1));
        }
        out.push_str(&format!(
            "M 100644 inline file{}.txt\ndata {}\n{body}\n",
            i % 10,
            body.len()
        ));
    }
    out
}

fn run_git_stdin(dir: &Path, args: &[&str], stdin: &[u8]) -> Result<()> {
    use std::io::Write;
    let mut child = Command::new(NATIVE)
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()?;
    child
        .stdin
        .take()
        .context("git's stdin")?
        .write_all(stdin)?;
    if !child.wait()?.success() {
        bail!("git {args:?} failed");
    }
    Ok(())
}

/// `n` commits made by real git, as loose objects, then imported into
/// the workspace: both sides read the same repository.
fn history_repo(s: &Sides, dir: &str, n: usize) -> Result<()> {
    let host = s.host(dir);
    std::fs::create_dir_all(&host)?;
    s.native(dir, &[&["init", "-q"]])?;
    run_git_stdin(
        &host,
        &["fast-import", "--quiet"],
        history_stream(n).as_bytes(),
    )?;
    s.native(dir, &[&["reset", "-q", "--hard"]])?;
    let pack_dir = host.join(".git/objects/pack");
    for entry in std::fs::read_dir(&pack_dir)? {
        let path = entry?.path();
        if path.extension().is_some_and(|x| x == "pack") {
            let pack = std::fs::read(&path)?;
            std::fs::remove_file(&path)?;
            std::fs::remove_file(path.with_extension("idx"))?;
            run_git_stdin(&host, &["unpack-objects", "-q"], &pack)?;
        }
    }
    s.ws.import(&host, dir, &mut |_| {})?;
    Ok(())
}

fn log_row(s: &Sides, commits: usize, trials: usize) -> Result<Row> {
    history_repo(s, "/log", commits)?;
    let work = format!("`git log --oneline` of {commits} commits");
    let line = "git log --oneline";
    let row = measure(s, &work, "≤ 3x", trials, |_| Ok("/log".into()), &[line])?;
    s.profile(&work, ["/log"; 2], &[line])?;
    Ok(row)
}

/// `git diff` of a 10,000-line file with every tenth line changed: 1,000
/// changed lines, in 1,000 hunks.
fn diff_row(s: &Sides, lines: usize, trials: usize) -> Result<Row> {
    let text = |changed: bool| -> Vec<u8> {
        (0..lines * 10)
            .map(|i| {
                if changed && i % 10 == 5 {
                    format!("line {i} was changed\n")
                } else {
                    format!("line {i} of a long file\n")
                }
            })
            .collect::<String>()
            .into_bytes()
    };
    let name = "big.txt".to_owned();
    committed_repo(s, "/diff", &[(name.clone(), text(false))])?;
    s.write_files("/diff", &[(name, text(true))])?;
    let work = format!("`git diff` of a {lines}-line change");
    let row = measure(
        s,
        &work,
        "≤ 3x",
        trials,
        |_| Ok("/diff".into()),
        &["git diff"],
    )?;
    s.profile(&work, ["/diff"; 2], &["git diff"])?;
    Ok(row)
}

/// `git init`, `git add .` and the first commit of a 100-file tree, each
/// trial in a fresh directory.
fn init_row(s: &Sides, files: usize, trials: usize) -> Result<Row> {
    let prepare = |t: usize| {
        let dir = format!("/init{t}");
        s.write_files(&dir, &tree("", files))?;
        Ok(dir)
    };
    let work = format!("`git init` + `git add .` + first commit of a {files}-file tree");
    let lines = ["git init -q", "git add .", "git commit -q -m first"];
    let row = measure(s, &work, "≤ 50 ms", trials, prepare, &lines)?;
    if s.profile {
        let dirs = [prepare(trials)?, prepare(trials + 1)?];
        s.profile(&work, [&dirs[0], &dirs[1]], &lines)?;
    }
    Ok(row)
}

pub fn run(base: &Path, quick: bool) -> Result<Vec<Row>> {
    if !computer_builtins::built_in().contains(&"git") {
        bail!("this binary has no git: run scripts/build-guests.sh, then rebuild");
    }
    let version = Command::new(NATIVE).arg("--version").output()?;
    eprintln!(
        "native: {}",
        String::from_utf8_lossy(&version.stdout).trim()
    );
    let (s, _dir) = Sides::new(base)?;
    s.ws.mkdir(
        HOME,
        &MkdirOptions {
            recursive: true,
            mode: None,
        },
    )?;
    let scale = |full: usize, small: usize| if quick { small } else { full };
    let trials = scale(11, 1);
    // The first run compiles the component (or loads it from the cache).
    committed_repo(&s, "/warm", &tree("", 3)).context("the first git runs")?;
    // `COMPUTER_GIT_BENCH_ONLY=...` runs one workload (for a profiler).
    let only = std::env::var("COMPUTER_GIT_BENCH_ONLY").ok();
    let wanted = |name: &str| only.as_deref().is_none_or(|o| o == name);
    let mut rows = Vec::new();
    if wanted("version") {
        // The fixed cost of a run: the rows above pay it once per command.
        let work = "warm `git --version` (the cost of one run)";
        rows.push(measure(
            &s,
            work,
            "report",
            trials,
            |_| Ok("/".into()),
            &["git --version"],
        )?);
    }
    if wanted("status") {
        rows.extend(status_rows(&s, scale(5_000, 50), trials)?);
    }
    if wanted("add") {
        rows.push(add_commit_row(&s, scale(1_000, 20), scale(5, 1))?);
    }
    if wanted("log") {
        rows.push(log_row(&s, scale(1_000, 20), trials)?);
    }
    if wanted("diff") {
        rows.push(diff_row(&s, scale(1_000, 20), trials)?);
    }
    if wanted("init") {
        rows.push(init_row(&s, scale(100, 10), trials)?);
    }
    Ok(rows)
}
