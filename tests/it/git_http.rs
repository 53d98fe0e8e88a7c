//! The real git over smart HTTP: clone, fetch and push from the sandbox to
//! real git's `git http-backend` on 127.0.0.1 (tests/fixtures/git-http),
//! through our `git-remote-http` on wasi:http, with the workspace's
//! allow-list. Real git (/usr/bin/git) is the oracle: it reads what the
//! sandbox pushed, `fsck --strict` included.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};

use computer_tests::{Ws, component_cache_dir, describe, run_command, text};

const ORACLE_GIT: &str = "/usr/bin/git";

/// `git http-backend` behind a small HTTP server, over the bare
/// repositories under `root`; killed when dropped.
struct Backend {
    child: Child,
    port: u16,
    log: PathBuf,
}

impl Backend {
    fn start(root: &Path) -> Backend {
        Backend::start_with(root, None)
    }

    /// With `auth`, every request must carry that `Authorization` header.
    fn start_with(root: &Path, auth: Option<&str>) -> Backend {
        let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/git-http/server.py");
        let log = root.join("requests.jsonl");
        let mut cmd = Command::new("python3");
        if let Some(auth) = auth {
            cmd.env("GIT_HTTP_REQUIRE_AUTH", auth);
        }
        let mut child = cmd
            .arg(&script)
            .arg(root)
            .arg(&log)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("python3 starts the git HTTP server");
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("piped"))
            .read_line(&mut line)
            .expect("the server prints its port");
        let port = line.trim().parse().expect("a port number");
        Backend { child, port, log }
    }

    fn url(&self, repo: &str) -> String {
        format!("http://127.0.0.1:{}/{repo}", self.port)
    }
}

impl Drop for Backend {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn oracle(dir: &Path, args: &[&str]) -> String {
    let out = Command::new(ORACLE_GIT)
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("HOME", dir)
        .env("GIT_AUTHOR_NAME", "Host")
        .env("GIT_AUTHOR_EMAIL", "host@example.com")
        .env("GIT_COMMITTER_NAME", "Host")
        .env("GIT_COMMITTER_EMAIL", "host@example.com")
        .output()
        .expect("real git runs");
    assert!(
        out.status.success(),
        "real git {args:?}: {}",
        text(&out.stderr)
    );
    text(&out.stdout)
}

fn run(ws: &Ws, args: &[&str]) -> Output {
    let mut cmd = ws.command(args);
    cmd.env("COMPUTER_CACHE_DIR", component_cache_dir());
    run_command(&mut cmd, b"")
}

/// `computer net allow ARGS...`, which must succeed.
fn allow(ws: &Ws, args: &[&str]) {
    let mut all = vec!["net", "allow"];
    all.extend_from_slice(args);
    let out = run(ws, &all);
    assert!(out.status.success(), "{}", describe(&all, &out));
}

fn holds(bytes: &[u8], needle: &str) -> bool {
    bytes.windows(needle.len()).any(|w| w == needle.as_bytes())
}

fn exec_ok(ws: &Ws, script: &str) -> String {
    let out = run(ws, &["exec", "--timeout", "120", script]);
    assert!(
        out.status.success(),
        "{}",
        describe(&["exec", script], &out)
    );
    text(&out.stdout)
}

/// A bare repository made by real git, with two commits on main.
fn seeded(root: &Path) {
    let seed = root.join("seed");
    std::fs::create_dir_all(&seed).unwrap();
    oracle(root, &["init", "-q", "--bare", "-b", "main", "repo.git"]);
    oracle(&seed, &["init", "-q", "-b", "main"]);
    std::fs::write(seed.join("a.txt"), "one\n").unwrap();
    oracle(&seed, &["add", "a.txt"]);
    oracle(&seed, &["commit", "-q", "-m", "first"]);
    std::fs::write(seed.join("a.txt"), "one\ntwo\n").unwrap();
    oracle(&seed, &["commit", "-q", "-am", "second"]);
    let bare = root.join("repo.git");
    oracle(&seed, &["push", "-q", bare.to_str().unwrap(), "main"]);
}

const IDENTITY: &str = "export HOME=/home/agent GIT_AUTHOR_NAME=Agent GIT_AUTHOR_EMAIL=agent@example.com \
     GIT_COMMITTER_NAME=Agent GIT_COMMITTER_EMAIL=agent@example.com; mkdir -p /home/agent; ";

#[test]
fn clone_fetch_and_push_over_http_reach_real_gits_backend() {
    let root = tempfile::tempdir().unwrap();
    seeded(root.path());
    let backend = Backend::start(root.path());
    let bare = root.path().join("repo.git");
    let ws = Ws::new();
    allow(&ws, &[&format!("127.0.0.1:{}", backend.port)]);

    // Clone: the same history as real git sees.
    let url = backend.url("repo.git");
    let log = exec_ok(
        &ws,
        &format!("{IDENTITY} git clone -q {url} /work && cd /work && git log --format='%H %s'"),
    );
    assert_eq!(log, oracle(&bare, &["log", "--format=%H %s", "main"]));

    // Push a new branch and main, then delete the branch.
    let pushed = exec_ok(
        &ws,
        &format!(
            "{IDENTITY} cd /work && echo three >> a.txt && git commit -qam third && \
             git push -q origin main && git push -q origin main:refs/heads/topic && \
             git rev-parse HEAD"
        ),
    );
    let head = pushed.trim();
    assert_eq!(oracle(&bare, &["rev-parse", "main"]).trim(), head);
    assert_eq!(oracle(&bare, &["rev-parse", "topic"]).trim(), head);
    assert_eq!(
        oracle(&bare, &["log", "-1", "--format=%an %s", "main"]),
        "Agent third\n"
    );
    oracle(&bare, &["fsck", "--strict"]);
    exec_ok(
        &ws,
        &format!("{IDENTITY} cd /work && git push -q origin :topic"),
    );
    assert_eq!(oracle(&bare, &["branch", "--list"]), "* main\n");

    // Someone else pushes; fetch and a fast-forward pull see it.
    let other = root.path().join("other");
    oracle(
        root.path(),
        &[
            "clone",
            "-q",
            bare.to_str().unwrap(),
            other.to_str().unwrap(),
        ],
    );
    std::fs::write(other.join("b.txt"), "from the host\n").unwrap();
    oracle(&other, &["add", "b.txt"]);
    oracle(&other, &["commit", "-q", "-m", "host change"]);
    oracle(&other, &["push", "-q", "origin", "main"]);
    let pulled = exec_ok(
        &ws,
        &format!(
            "{IDENTITY} cd /work && git pull -q --ff-only && git log -1 --format=%s && cat b.txt"
        ),
    );
    assert_eq!(pulled, "host change\nfrom the host\n");
    let remote = exec_ok(&ws, &format!("{IDENTITY} cd /work && git ls-remote origin"));
    assert_eq!(
        remote,
        oracle(
            &bare,
            &["for-each-ref", "--format=%(objectname)\t%(refname)"]
        )
        .lines()
        .map(|l| l.to_owned())
        .fold(
            format!("{}\tHEAD\n", oracle(&bare, &["rev-parse", "HEAD"]).trim()),
            |acc, l| acc + &l + "\n"
        )
    );

    // Every request went through the host's client: they are in the audit
    // log, and the server saw smart HTTP (protocol v2 for the fetches).
    let audit = text(&run(&ws, &["audit"]).stdout);
    assert!(audit.contains("git-upload-pack"), "{audit}");
    assert!(audit.contains("git-receive-pack"), "{audit}");
    let requests = std::fs::read_to_string(&backend.log).unwrap();
    assert!(
        requests.contains("version=2"),
        "no protocol v2 request: {requests}"
    );
}

#[test]
fn a_host_off_the_allow_list_is_refused_and_nothing_is_written() {
    let root = tempfile::tempdir().unwrap();
    seeded(root.path());
    let backend = Backend::start(root.path());
    let ws = Ws::new();
    let out = run(
        &ws,
        &[
            "exec",
            &format!(
                "{IDENTITY} git clone {} /work; echo exit $?",
                backend.url("repo.git")
            ),
        ],
    );
    let stdout = text(&out.stdout);
    let stderr = text(&out.stderr);
    assert!(stdout.contains("exit 128"), "{}", describe(&["exec"], &out));
    assert!(
        stderr.contains("allow-list"),
        "{}",
        describe(&["exec"], &out)
    );
    assert!(
        !std::fs::read_to_string(&backend.log)
            .unwrap_or_default()
            .contains("info/refs"),
        "the request reached the server"
    );
    let ls = run(&ws, &["exec", "ls /work 2>&1; true"]);
    assert!(
        text(&ls.stdout).contains("No such file"),
        "{}",
        text(&ls.stdout)
    );
}

#[test]
fn a_redirect_is_followed_on_the_allow_list_and_refused_off_it() {
    let root = tempfile::tempdir().unwrap();
    seeded(root.path());
    let backend = Backend::start(root.path());
    let ws = Ws::new();
    allow(&ws, &[&format!("127.0.0.1:{}", backend.port)]);

    // Moved on the same (allowed) host: git follows it and clones.
    let moved = format!("http://127.0.0.1:{}/moved/repo.git", backend.port);
    let log = exec_ok(
        &ws,
        &format!("{IDENTITY} git clone -q {moved} /one && git -C /one log --format=%s"),
    );
    assert_eq!(log, "second\nfirst\n");

    // Moved to a host that is not allowed: refused, nothing cloned, and
    // nothing asked of the other host.
    let away = format!("http://127.0.0.1:{}/away/repo.git", backend.port);
    let out = run(
        &ws,
        &[
            "exec",
            &format!("{IDENTITY} git clone {away} /two; echo exit $?; ls /two"),
        ],
    );
    let stdout = text(&out.stdout);
    assert!(stdout.contains("exit 128"), "{}", describe(&["exec"], &out));
    assert!(
        text(&out.stderr).contains("allow-list"),
        "{}",
        describe(&["exec"], &out)
    );
    let requests = std::fs::read_to_string(&backend.log).unwrap();
    assert!(
        !requests.contains("127.0.0.2"),
        "the other host was asked: {requests}"
    );
}

#[test]
fn a_token_from_the_hosts_secrets_reaches_the_server_and_nothing_in_the_workspace() {
    const TOKEN: &str = "gho_sandboxNeverSeesThis1234567890";
    let root = tempfile::tempdir().unwrap();
    seeded(root.path());
    let backend = Backend::start_with(root.path(), Some(&format!("Bearer {TOKEN}")));
    let ws = Ws::new();
    let mut set = ws.command(&["secrets", "set", "GIT_TOKEN"]);
    set.env("COMPUTER_CACHE_DIR", component_cache_dir());
    let out = run_command(&mut set, TOKEN.as_bytes());
    assert!(
        out.status.success(),
        "{}",
        describe(&["secrets", "set"], &out)
    );
    let entry = format!("127.0.0.1:{}", backend.port);
    allow(
        &ws,
        &[
            &entry,
            "--header",
            "Authorization: Bearer {secret:GIT_TOKEN}",
        ],
    );

    // The server answers 401 to a request without the header: clone and push
    // work only if the host attached it.
    let url = backend.url("repo.git");
    let out = run(
        &ws,
        &[
            "exec",
            &format!(
                "{IDENTITY} GIT_CURL_VERBOSE=1 GIT_TRACE=1 git clone -q {url} /work && cd /work && \
                 echo more >> a.txt && git commit -qam third && git push -q origin main && \
                 env && git config --list && cat .git/config"
            ),
        ],
    );
    assert!(out.status.success(), "{}", describe(&["exec"], &out));
    let bare = root.path().join("repo.git");
    assert_eq!(
        oracle(&bare, &["log", "-1", "--format=%s", "main"]),
        "third\n"
    );
    // Nothing the sandbox printed, stored or logged holds the token.
    for (what, bytes) in [
        ("stdout", out.stdout.clone()),
        ("stderr", out.stderr.clone()),
        ("audit", run(&ws, &["audit"]).stdout),
        ("runs", run(&ws, &["runs"]).stdout),
        ("workspace file", std::fs::read(ws.db()).unwrap()),
    ] {
        assert!(!holds(&bytes, TOKEN), "the token is in the {what}");
    }
    for entry in std::fs::read_dir(ws.db().parent().unwrap()).unwrap() {
        let path = entry.unwrap().path();
        if path.is_file() && !path.to_string_lossy().contains("key") {
            let bytes = std::fs::read(&path).unwrap();
            assert!(!holds(&bytes, TOKEN), "the token is in {}", path.display());
        }
    }
    // The server did get it.
    let requests = std::fs::read_to_string(&backend.log).unwrap();
    assert!(requests.contains(TOKEN), "the server never saw the token");
}
