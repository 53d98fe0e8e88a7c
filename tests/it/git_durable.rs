//! A crash in the middle of `git commit` leaves a repository that both gits
//! accept, and replay does not create a duplicate commit.
//!
//! A durable shell run (`durable-child exec-shell`, our git registered from
//! `$COMPUTER_TEST_GIT_WASM`) does `git add -A && git commit` in a
//! repository real git made and the workspace imported. The test counts the
//! run's journal rows from outside while it runs and SIGKILLs the child
//! once a chosen count is reached: the kill points are spread over the
//! whole run (one uncrashed run gives its length), so they land in the
//! object writes, the index write, the ref update and the reflog. Rows
//! become visible only when a mutation commits (the rows of reads wait for
//! it), so each kill lands just after one of the run's commits: exactly
//! the states a crash can leave behind. Then:
//!
//! - the crashed workspace, exported, passes real `git fsck --strict` and
//!   real `git log`, and our own `git status` and `git log` work on it;
//! - `recover` finishes the run, which completes with the uncrashed run's
//!   output (once), and both gits count exactly one new commit whose id is
//!   the uncrashed run's (identities and dates are pinned); both see a
//!   clean status, and no lock file or `tmp_obj_*` is left in `.git`.
//!
//! One trial also crashes the recovery itself, and the checks are shown to
//! fail on a repository where the commit ran twice. `GIT_DURABLE_TRIALS`
//! sets how many kill points are drawn each way (default 8; see `plans`).

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use computer_store::{RunStatus, Workspace};
use computer_tests::{component_cache_dir, workspace_root};

const REAL_GIT: &str = "/usr/bin/git";
const RUN: &str = "commit";

const PINNED: &[(&str, &str)] = &[
    ("GIT_AUTHOR_NAME", "A U Thor"),
    ("GIT_AUTHOR_EMAIL", "author@example.com"),
    ("GIT_AUTHOR_DATE", "2024-01-01T00:00:00+00:00"),
    ("GIT_COMMITTER_NAME", "C O Mitter"),
    ("GIT_COMMITTER_EMAIL", "committer@example.com"),
    ("GIT_COMMITTER_DATE", "2024-01-01T00:00:00+00:00"),
];

/// The crashed run: stage new, changed and deleted files, and commit.
fn commit_script() -> String {
    let mut s: String = PINNED
        .iter()
        .map(|(k, v)| format!("export {k}='{v}'\n"))
        .collect();
    s.push_str("cd /repo\ngit add -A && git commit -m 'add new/, change README, drop src/f03'\n");
    s
}

/// Our git looking at the repository: what (b) and (c) check.
const INSPECT: &str = "cd /repo\ngit status --porcelain\ngit log --oneline\n";
const FINAL: &str =
    "cd /repo\ngit rev-list --count HEAD\ngit rev-parse HEAD\ngit status --porcelain\n";

fn real_git(dir: &Path, args: &[&str]) -> (i32, String) {
    let out = Command::new(REAL_GIT)
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("HOME", dir)
        .envs(PINNED.iter().copied())
        .output()
        .expect("run /usr/bin/git");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.code().unwrap_or(-1), text)
}

fn real_git_ok(dir: &Path, args: &[&str]) -> Result<String, String> {
    match real_git(dir, args) {
        (0, out) => Ok(out),
        (code, out) => Err(format!("real git {args:?} exited {code}: {out}")),
    }
}

/// The repository every trial starts from, made by real git: one commit
/// of 31 files, then 20 new files, a changed one and a deleted one.
fn base_repo(dir: &Path) -> Result<(), String> {
    let write = |rel: &str, body: String| {
        let p = dir.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, body).unwrap();
    };
    write("README", "a repository\n".into());
    for i in 0..30 {
        write(&format!("src/f{i:02}"), format!("source {i}\n"));
    }
    real_git_ok(dir, &["init", "-q", "-b", "main"])?;
    real_git_ok(dir, &["add", "-A"])?;
    real_git_ok(dir, &["commit", "-q", "-m", "base"])?;
    for i in 0..20 {
        write(&format!("new/{}/n{i:02}", i % 2), format!("new {i}\n"));
    }
    write("README", "a repository, changed\n".into());
    std::fs::remove_file(dir.join("src/f03")).unwrap();
    Ok(())
}

/// Our git component, copied once so every child runs the same bytes even
/// if the build replaces the file meanwhile.
fn git_wasm(into: &Path) -> PathBuf {
    let built = std::env::var_os("COMPUTER_GIT_WASM").map_or_else(
        || workspace_root().join("guests/target/wasm32-wasip2/release/git.wasm"),
        PathBuf::from,
    );
    assert!(
        built.is_file(),
        "{} is missing: run scripts/build-guests.sh (or set COMPUTER_GIT_WASM)",
        built.display()
    );
    let copy = into.join("git.wasm");
    std::fs::copy(&built, &copy).expect("copy git.wasm");
    copy
}

struct Fixture {
    _dir: tempfile::TempDir,
    base: PathBuf,
    git: PathBuf,
    script: PathBuf,
    inspect: PathBuf,
    final_check: PathBuf,
}

impl Fixture {
    fn new() -> Fixture {
        let dir = tempfile::tempdir().unwrap();
        let base = dir.path().join("base");
        base_repo(&base).unwrap();
        let file = |name: &str, body: &str| {
            let p = dir.path().join(name);
            std::fs::write(&p, body).unwrap();
            p
        };
        Fixture {
            git: git_wasm(dir.path()),
            script: file("commit.sh", &commit_script()),
            inspect: file("inspect.sh", INSPECT),
            final_check: file("final.sh", FINAL),
            base,
            _dir: dir,
        }
    }

    /// A fresh workspace holding the base repository at `/repo`.
    fn trial(&self) -> Trial {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("ws.db");
        let ws = Workspace::open(&db).unwrap();
        ws.import(&self.base, "/repo", &mut |_| {}).unwrap();
        Trial { dir, db, ws }
    }

    fn child(&self, db: &Path, args: &[&str]) -> Child {
        Command::new(env!("CARGO_BIN_EXE_durable-child"))
            .arg(db)
            .args(args)
            .env("COUNTER_ADDR", "127.0.0.1:9")
            .env("COMPUTER_TEST_GIT_WASM", &self.git)
            .env("COMPUTER_CACHE_DIR", component_cache_dir())
            // Groups of 4 changes: git's bursts of object writes still commit
            // at many points to kill at, and each kill loses a group's tail.
            .env("COMPUTER_GROUP_COMMIT", "4")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn durable-child")
    }
}

struct Trial {
    dir: tempfile::TempDir,
    db: PathBuf,
    ws: Workspace,
}

/// How a watched child ended: killed once the run had `n` journal rows, or
/// by itself, after the run was seen with each of `counts` rows (in order).
#[derive(Debug)]
enum Ended {
    Killed(usize),
    Exited { counts: Vec<usize> },
}

impl Trial {
    fn rows(&self, run: &str) -> usize {
        self.ws.journal().entries(run).map_or(0, |e| e.len())
    }

    /// Waits for `child`, SIGKILLing it once run `RUN` has `kill_at` rows.
    fn watch(&self, mut child: Child, kill_at: Option<usize>) -> Ended {
        let mut counts: Vec<usize> = Vec::new();
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            if child.try_wait().unwrap().is_some() {
                return Ended::Exited { counts };
            }
            let n = self.rows(RUN);
            if n > counts.last().copied().unwrap_or(0) {
                counts.push(n);
            }
            if kill_at.is_some_and(|k| n >= k) || Instant::now() > deadline {
                let _ = child.kill();
                child.wait().unwrap();
                return Ended::Killed(n);
            }
            std::thread::sleep(Duration::from_micros(200));
        }
    }

    /// Runs `script` to its end as run `id` with our git; its stdout.
    fn ours(&self, fx: &Fixture, id: &str, script: &Path) -> Result<String, String> {
        let child = fx.child(&self.db, &["exec-shell", id, script.to_str().unwrap()]);
        self.watch(child, None);
        let record = self.ws.runs().get(id).unwrap().ok_or("no run record")?;
        let stdout = String::from_utf8_lossy(&record.stdout).into_owned();
        if record.exit_code != Some(0) {
            return Err(format!(
                "our git ({id}) exited {:?}: {stdout}{}",
                record.exit_code,
                String::from_utf8_lossy(&record.stderr)
            ));
        }
        Ok(stdout)
    }

    /// `/repo`, exported to a new host directory.
    fn export(&self, name: &str) -> PathBuf {
        let host = self.dir.path().join(name);
        self.ws.export("/repo", &host).unwrap();
        host
    }
}

/// What the uncrashed run gives: its output, the commit, and the journal
/// row counts seen while it ran (each one just after a commit of the run).
struct Reference {
    stdout: Vec<u8>,
    head: String,
    boundaries: Vec<usize>,
}

fn reference(fx: &Fixture) -> Reference {
    let t = fx.trial();
    let child = fx.child(&t.db, &["exec-shell", RUN, fx.script.to_str().unwrap()]);
    let Ended::Exited { mut counts } = t.watch(child, None) else {
        panic!("the uncrashed run did not end in 60 s");
    };
    let record = t.ws.runs().get(RUN).unwrap().expect("a run record");
    assert_eq!(
        (record.status, record.exit_code),
        (RunStatus::Completed, Some(0)),
        "the uncrashed run: {}",
        String::from_utf8_lossy(&record.stderr)
    );
    let host = t.export("reference");
    let head = real_git_ok(&host, &["rev-parse", "HEAD"]).unwrap();
    // The last count may be the rows of reads that no mutation follows,
    // written just before the run ends: a kill there would race the end.
    counts.pop();
    assert!(
        counts.len() >= 8,
        "only {counts:?} journal row counts seen during the run"
    );
    Reference {
        stdout: record.stdout,
        head: head.trim().to_owned(),
        boundaries: counts,
    }
}

/// (a) and (b): the crashed repository as both gits see it; what the
/// crash left behind (lock files, temporary objects), for the history.
fn check_crashed(fx: &Fixture, t: &Trial, n: usize) -> Result<String, String> {
    let host = t.export(&format!("crashed-{n}"));
    let fsck = real_git_ok(&host, &["fsck", "--strict", "--no-dangling"])?;
    if fsck.contains("error") || fsck.contains("warning") {
        return Err(format!("real git fsck complains: {fsck}"));
    }
    let log = real_git_ok(&host, &["log", "--oneline"])?;
    let commits = log.lines().count();
    if !(1..=2).contains(&commits) {
        return Err(format!("real git log shows {commits} commits: {log}"));
    }
    real_git_ok(&host, &["status", "--porcelain"])?;
    t.ours(fx, &format!("inspect-{n}"), &fx.inspect)?;
    let left: Vec<String> = locks(&host.join(".git"))
        .iter()
        .chain(&temporary_objects(&host.join(".git/objects")))
        .map(|p| p.trim_start_matches(host.to_str().unwrap()).to_owned())
        .collect();
    Ok(format!("{commits} commit(s), left {left:?}"))
}

/// `tmp_obj_*` files: objects written but not yet renamed into place.
fn temporary_objects(objects: &Path) -> Vec<String> {
    let mut out = Vec::new();
    for dir in std::fs::read_dir(objects).unwrap().flatten() {
        for f in std::fs::read_dir(dir.path())
            .into_iter()
            .flatten()
            .flatten()
        {
            if f.file_name().to_string_lossy().starts_with("tmp_obj_") {
                out.push(f.path().display().to_string());
            }
        }
    }
    out
}

/// Lock files left under `.git` (a torn ref or index update).
fn locks(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(locks(&path));
        } else if path.extension().is_some_and(|x| x == "lock") {
            out.push(path.display().to_string());
        }
    }
    out
}

/// (c): the run, recovered, made exactly the uncrashed run's commit once.
fn check_final(fx: &Fixture, t: &Trial, r: &Reference) -> Result<(), String> {
    let record = t.ws.runs().get(RUN).unwrap().ok_or("no run record")?;
    if (record.status, record.exit_code) != (RunStatus::Completed, Some(0)) {
        return Err(format!(
            "the recovered run ended {} {:?}: {:?} {}",
            record.status,
            record.exit_code,
            record.error,
            String::from_utf8_lossy(&record.stderr)
        ));
    }
    if record.stdout != r.stdout {
        return Err(format!(
            "the recovered run's output is not one execution's:\n{}",
            String::from_utf8_lossy(&record.stdout)
        ));
    }
    let host = t.export("final");
    let count = real_git_ok(&host, &["rev-list", "--count", "HEAD"])?;
    let head = real_git_ok(&host, &["rev-parse", "HEAD"])?;
    if (count.trim(), head.trim()) != ("2", r.head.as_str()) {
        return Err(format!(
            "real git: {} commits, HEAD {} (want 2, {})",
            count.trim(),
            head.trim(),
            r.head
        ));
    }
    real_git_ok(&host, &["fsck", "--strict", "--no-dangling"])?;
    let status = real_git_ok(&host, &["status", "--porcelain"])?;
    let mut left = locks(&host.join(".git"));
    left.extend(temporary_objects(&host.join(".git/objects")));
    if !status.is_empty() || !left.is_empty() {
        return Err(format!(
            "real git status: {status:?}; left behind: {left:?}"
        ));
    }
    let ours = t.ours(fx, "final", &fx.final_check)?;
    let want = format!("2\n{}\n", r.head);
    if ours != want {
        return Err(format!("our git says {ours:?}, want {want:?}"));
    }
    Ok(())
}

/// One trial: the run killed at each of `kill_at` in turn (the first in
/// the run itself, later ones in its recoveries), then recovered to its
/// end and checked. The history says where the kills landed; a run that
/// ended before the first kill point (the poll missed it) is checked too.
fn trial(fx: &Fixture, r: &Reference, n: usize, kill_at: &[usize]) -> Result<String, String> {
    let t = fx.trial();
    let mut history = Vec::new();
    let mut child = fx.child(&t.db, &["exec-shell", RUN, fx.script.to_str().unwrap()]);
    for (i, &k) in kill_at.iter().enumerate() {
        match t.watch(child, Some(k)) {
            Ended::Killed(at) => history.push(format!("killed at row {at}")),
            Ended::Exited { .. } => history.push("ended before the kill".into()),
        }
        if i == 0 {
            history.push(check_crashed(fx, &t, n)?);
        }
        child = fx.child(&t.db, &["recover"]);
    }
    history.push(match t.watch(child, None) {
        Ended::Exited { .. } => "recovered".to_owned(),
        Ended::Killed(at) => format!("recovery still running after 60 s, at row {at}"),
    });
    check_final(fx, &t, r).map_err(|e| format!("{e}\n  history: {history:?}"))?;
    Ok(history.join(" → "))
}

/// Kill points, from the reference's row counts: `trials` spread evenly
/// over the counts (most fall among the object writes, where the commits
/// are dense) and as many over the rows (the index write, the trees),
/// the last three (the commit object, the branch ref, the reflogs), and a
/// trial whose recovery is killed too (replayed rows are not rewritten, so
/// the count grows again only in the live part).
fn plans(r: &Reference, trials: usize) -> Vec<Vec<usize>> {
    let b = &r.boundaries;
    let last = b[b.len() - 1];
    let at = |i: usize| b[i.min(b.len() - 1)];
    let by_count = (0..trials).map(|k| at(k * b.len() / trials));
    let by_row = (0..trials).map(|k| {
        let row = last * k / trials;
        b.iter().copied().find(|&c| c >= row).unwrap_or(last)
    });
    let mut plans: Vec<Vec<usize>> = by_count
        .chain(by_row)
        .chain(b[b.len() - 3..].iter().copied())
        .map(|k| vec![k])
        .collect();
    plans.sort();
    plans.dedup();
    plans.push(vec![at(b.len() / 3), at(b.len() * 2 / 3)]);
    plans
}

/// The checks can fail: a second commit on top (what a replay that ran the
/// commit again would leave) is reported.
fn committing_twice_is_caught(fx: &Fixture, r: &Reference) {
    let t = fx.trial();
    t.ours(fx, RUN, &fx.script).expect("the commit");
    let again = format!("{}git commit -q --allow-empty -m again\n", commit_script());
    let path = t.dir.path().join("again.sh");
    std::fs::write(&path, again).unwrap();
    t.ours(fx, "again", &path).expect("the second commit");
    let err = check_final(fx, &t, r).expect_err("a duplicate commit must be caught");
    assert!(err.contains("3 commits"), "{err}");
}

#[test]
fn a_crash_in_git_commit_leaves_a_repository_both_gits_accept_and_one_commit() {
    let trials: usize = std::env::var("GIT_DURABLE_TRIALS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(8);
    let fx = Fixture::new();
    // Also warms the compile cache (the shell and git), so no kill point
    // waits on a compile.
    let r = reference(&fx);
    committing_twice_is_caught(&fx, &r);
    let plans = plans(&r, trials);
    let mut failures = Vec::new();
    let mut unkilled = 0;
    for (n, plan) in plans.iter().enumerate() {
        match trial(&fx, &r, n, plan) {
            Ok(history) => {
                unkilled += usize::from(history.starts_with("ended"));
                eprintln!("trial {n}: kill at {plan:?}: {history}");
            }
            Err(e) => failures.push(format!("trial {n} (kill at {plan:?}): {e}")),
        }
    }
    eprintln!("row counts seen in the uncrashed run: {:?}", r.boundaries);
    assert!(
        unkilled <= 2,
        "{unkilled} of {} trials ended before their kill point",
        plans.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
