//! Crafted trees do not make our git write outside the work tree (issue 41,
//! item 3). A tree is data from whoever made the commit: entries named `..`,
//! `../x`, `/x`, `.git` (in any case, or as NTFS spells it: `git~1`, `.git.`)
//! and a symlink with a directory of the same name must not reach the disk.
//!
//! Our git cannot make such trees (it has no `mktree` or `hash-object
//! --literally`), so real git (2.39, `/usr/bin/git`) builds the repository on
//! the host; the workspace imports it, and each case's script runs twice, in
//! the shell backend with our git and under `/bin/bash` with real git on a
//! copy. stdout, stderr, the exit code (echoed) and listings the script prints
//! must agree, and nothing may appear outside the repository.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use computer_tests::{Ws, text};

const REAL_GIT: &str = "/usr/bin/git";

/// Both sides run with these (and nothing of the host's).
const ENV: &[(&str, &str)] = &[
    ("GIT_AUTHOR_NAME", "A U Thor"),
    ("GIT_AUTHOR_EMAIL", "author@example.com"),
    ("GIT_AUTHOR_DATE", "2024-01-01T00:00:00+00:00"),
    ("GIT_COMMITTER_NAME", "C O Mitter"),
    ("GIT_COMMITTER_EMAIL", "committer@example.com"),
    ("GIT_COMMITTER_DATE", "2024-01-01T00:00:00+00:00"),
    ("GIT_CONFIG_NOSYSTEM", "1"),
    ("LANG", "C"),
    ("LC_ALL", "C"),
    ("TZ", "UTC"),
];

fn host_git(dir: &Path, args: &[&str], stdin: &[u8]) -> String {
    let mut child = Command::new(REAL_GIT)
        .args(args)
        .current_dir(dir)
        .envs(ENV.iter().copied())
        .env("HOME", dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run /usr/bin/git");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stdin)
        .expect("write stdin");
    let out = child.wait_with_output().expect("wait for git");
    assert!(out.status.success(), "git {args:?}: {}", text(&out.stderr));
    text(&out.stdout).trim().to_owned()
}

/// A tree object written as raw bytes, so that any name goes in: entries
/// are `(mode, name, object id)`, in the order given.
fn raw_tree(repo: &Path, entries: &[(&str, &str, &str)]) -> String {
    let mut bytes = Vec::new();
    for (mode, name, id) in entries {
        bytes.extend_from_slice(format!("{mode} {name}\0").as_bytes());
        let id: Vec<u8> = (0..id.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&id[i..i + 2], 16).expect("hex id"))
            .collect();
        bytes.extend_from_slice(&id);
    }
    host_git(
        repo,
        &["hash-object", "-t", "tree", "--literally", "-w", "--stdin"],
        &bytes,
    )
}

fn blob(repo: &Path, content: &str) -> String {
    host_git(repo, &["hash-object", "-w", "--stdin"], content.as_bytes())
}

/// A commit of `tree` on top of `parent`, as branch `name`.
fn branch(repo: &Path, name: &str, tree: &str, parent: &str) -> String {
    let c = host_git(repo, &["commit-tree", "-p", parent, "-m", name, tree], b"");
    host_git(repo, &["branch", "-f", name, &c], b"");
    c
}

/// `<root>/work/repo`: `main` with `base.txt`, and one branch per crafted
/// tree, each keeping `base.txt` so a checkout only has the crafted entry
/// to write; `<root>/work/victim`, an empty directory next to it.
fn crafted(root: &Path) {
    let work = root.join("work");
    let repo = work.join("repo");
    std::fs::create_dir_all(work.join("victim")).expect("mkdir victim");
    std::fs::create_dir_all(&repo).expect("mkdir repo");
    host_git(&repo, &["init", "-q", "-b", "main"], b"");
    std::fs::write(repo.join("base.txt"), "base\n").expect("write");
    host_git(&repo, &["add", "base.txt"], b"");
    host_git(&repo, &["commit", "-q", "-m", "base"], b"");
    let main = host_git(&repo, &["rev-parse", "HEAD"], b"");
    let base = host_git(&repo, &["rev-parse", "HEAD:base.txt"], b"");
    let pwned = blob(&repo, "pwned\n");
    let config = blob(&repo, "[core]\n\tbare = true\n\tpwned = yes\n");
    let one = |name: &str| {
        raw_tree(
            &repo,
            &[("100644", "base.txt", &base), ("100644", name, &pwned)],
        )
    };
    for (b, name) in [
        ("dotdot", ".."),
        ("parent", "../escaped"),
        ("absolute", "/absolute"),
        ("upper", ".GIT"),
        ("ntfs-short", "git~1"),
        ("ntfs-dot", ".git."),
    ] {
        let t = one(name);
        branch(&repo, b, &t, &main);
    }
    // An entry with no name at all: git's tree decoder stops there.
    let t = raw_tree(
        &repo,
        &[("100644", "", &pwned), ("100644", "base.txt", &base)],
    );
    branch(&repo, "empty-name", &t, &main);
    // A `.git` directory whose `config` would replace the repository's.
    let dotgit = raw_tree(&repo, &[("100644", "config", &config)]);
    let t = raw_tree(
        &repo,
        &[("40000", ".git", &dotgit), ("100644", "base.txt", &base)],
    );
    branch(&repo, "dotgit", &t, &main);
    // Symlinks: `a -> ../victim`, and a tree with a directory `a` too.
    let link = blob(&repo, "../victim");
    let sub = raw_tree(&repo, &[("100644", "x", &pwned)]);
    let t = raw_tree(
        &repo,
        &[("120000", "a", &link), ("100644", "base.txt", &base)],
    );
    let linked = branch(&repo, "link", &t, &main);
    let t = raw_tree(
        &repo,
        &[
            ("120000", "a", &link),
            ("40000", "a", &sub),
            ("100644", "base.txt", &base),
        ],
    );
    branch(&repo, "link-and-dir", &t, &linked);
    let t = raw_tree(
        &repo,
        &[("40000", "a", &sub), ("100644", "base.txt", &base)],
    );
    branch(&repo, "dir", &t, &main);
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("read_dir") {
        let entry = entry.expect("entry");
        let (src, dst) = (entry.path(), to.join(entry.file_name()));
        let meta = std::fs::symlink_metadata(&src).expect("lstat");
        if meta.file_type().is_symlink() {
            let target = std::fs::read_link(&src).expect("readlink");
            std::os::unix::fs::symlink(target, &dst).expect("symlink");
        } else if meta.is_dir() {
            copy_tree(&src, &dst);
        } else {
            std::fs::copy(&src, &dst).expect("copy");
        }
    }
}

#[derive(Debug, PartialEq, Eq)]
struct Outcome {
    stdout: String,
    stderr: String,
    code: Option<i32>,
}

/// The script under `/bin/bash` with real git, in a copy of `fixture`.
fn run_real(fixture: &Path, script: &str) -> Outcome {
    let root = tempfile::tempdir().expect("tempdir");
    copy_tree(fixture, root.path());
    let bin = root.path().join("bin");
    std::fs::create_dir_all(&bin).expect("mkdir bin");
    std::os::unix::fs::symlink(REAL_GIT, bin.join("git")).expect("symlink git");
    let out = Command::new("/bin/bash")
        .args(["-c", script])
        .current_dir(root.path().join("work"))
        .env_clear()
        .envs(ENV.iter().copied())
        .env("HOME", root.path())
        .env("PATH", format!("{}:/usr/bin:/bin", bin.display()))
        .env("GIT_CEILING_DIRECTORIES", root.path())
        .stdin(Stdio::null())
        .output()
        .expect("run bash");
    let shown = root.path().display().to_string();
    Outcome {
        stdout: text(&out.stdout).replace(&shown, ""),
        stderr: text(&out.stderr).replace(&shown, ""),
        code: out.status.code(),
    }
}

/// The script in the shell backend with our git, on a workspace that
/// imported `fixture` at `/`; the workspace is returned for inspection.
fn run_ours(fixture: &Path, script: &str) -> (Outcome, Ws) {
    let ws = Ws::new();
    let host = fixture.join("work");
    ws.ok(&["import", host.to_str().expect("UTF-8 path"), "/work"]);
    let exports: String = ENV
        .iter()
        .map(|(k, v)| format!("export {k}='{v}'\n"))
        .collect();
    let full = format!("{exports}cd /work\n{script}");
    let out = ws.run(&["exec", "--backend", "shell", &full], "");
    let outcome = Outcome {
        stdout: text(&out.stdout),
        stderr: text(&out.stderr),
        code: out.status.code(),
    };
    (outcome, ws)
}

fn fixture() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    crafted(dir.path());
    dir
}

/// Runs `script` both ways; returns every difference, labelled.
fn compare(fixture: &Path, name: &str, script: &str) -> (Vec<String>, Ws) {
    let expected = run_real(fixture, script);
    let (actual, ws) = run_ours(fixture, script);
    let mut diffs = Vec::new();
    if expected != actual {
        diffs.push(format!(
            "{name}: real git vs ours\n--- real git\n{expected:#?}\n--- ours\n{actual:#?}"
        ));
    }
    (diffs, ws)
}

/// What must never happen on our side: a file outside `/work/repo`.
fn escapes(ws: &Ws) -> Vec<String> {
    let mut found = Vec::new();
    // stdout only: a first run may say on stderr that it compiles the shell.
    let out = ws.run(
        &[
            "exec",
            "--backend",
            "shell",
            "ls -A /work/victim || echo gone",
        ],
        "",
    );
    let victim = text(&out.stdout);
    if !victim.trim().is_empty() {
        found.push(format!("/work/victim holds (or is) {victim:?}"));
    }
    for p in ["/absolute", "/work/escaped", "/escaped"] {
        if ws.exists(p) {
            found.push(format!("{p} exists"));
        }
    }
    let config = text(&ws.read("/work/repo/.git/config"));
    if config.contains("pwned") {
        found.push(format!(".git/config was replaced: {config:?}"));
    }
    found
}

/// Each refusal, command by command, as git 2.39 words it, and what it
/// makes of symlinks where directories go.
const CASES: &[(&str, &str)] = &[
    (
        "checkout",
        "cd repo\nfor b in dotdot parent absolute dotgit upper ntfs-short ntfs-dot; do\n  git checkout -q $b; echo \"checkout $b: exit $?\"\ndone\nls -A . ../victim\ngit status --porcelain\n",
    ),
    (
        "checkout-force",
        "cd repo\ngit checkout -q -f dotgit; echo \"exit $?\"\nls -A\n",
    ),
    (
        "switch",
        "cd repo\ngit switch -q parent; echo \"exit $?\"\ngit switch -q --detach dotdot; echo \"exit $?\"\nls -A\n",
    ),
    (
        "reset-hard",
        "cd repo\ngit reset -q --hard parent; echo \"exit $?\"\ngit rev-parse --abbrev-ref HEAD\nls -A\n",
    ),
    (
        "reset-mixed",
        "cd repo\ngit reset -q upper; echo \"exit $?\"\ngit ls-files\n",
    ),
    (
        "restore-paths",
        "cd repo\nrm base.txt\ngit checkout dotgit -- .; echo \"exit $?\"\ngit restore -s ntfs-dot .; echo \"exit $?\"\nls -A\n",
    ),
    (
        "merge-fast-forward",
        "cd repo\ngit merge dotdot; echo \"exit $?\"\ngit rev-parse --abbrev-ref HEAD\nls -A\n",
    ),
    (
        "merge-three-way",
        "cd repo\ngit checkout -q -b side\necho s > s.txt\ngit add s.txt\ngit commit -q -m side\ngit merge -m m dotgit; echo \"exit $?\"\nls -A\n",
    ),
    (
        "clone",
        "git -C repo symbolic-ref HEAD refs/heads/dotgit\ngit clone repo copy; echo \"exit $?\"\nls -A copy\n",
    ),
    (
        "add",
        "cd repo\necho y > .GIT\nmkdir -p 'git~1' sub\necho z > 'git~1/f'\necho q > sub/.Git\nfor p in .GIT 'git~1' sub .; do git add \"$p\"; echo \"add $p: exit $?\"; done\ngit ls-files\n",
    ),
    (
        "empty-name",
        "cd repo\ngit checkout -q empty-name; echo \"exit $?\"\ngit ls-tree empty-name; echo \"exit $?\"\ngit log --oneline -1 empty-name\nls -A\n",
    ),
    (
        "stash-untracked",
        "cd repo\necho y > .GIT\necho m >> base.txt\ngit stash -u; echo \"exit $?\"\nls -A\ngit stash list\ngit ls-tree -r 'stash^3'; echo \"exit $?\"\ngit rev-parse 'stash^3'\n",
    ),
    (
        "mv",
        "cd repo\nfor d in .GIT 'git~1' .git; do\n  git mv base.txt \"$d\"; echo \"mv $d: exit $?\"\n  git ls-files; ls -A\n  git reset -q --hard\ndone\n",
    ),
    (
        "untracked-symlink-in-the-way",
        "cd repo\nln -s ../victim a\ngit checkout -q dir; echo \"exit $?\"\nls -A . ../victim\n",
    ),
    (
        "symlink-and-directory-in-one-tree",
        "cd repo\ngit checkout -q link-and-dir; echo \"exit $?\"\nls -A . a ../victim\ngit status --short\ngit reset -q --hard link-and-dir; echo \"exit $?\"\nls -A . a ../victim\ngit status --short\n",
    ),
    (
        "symlink-then-directory",
        "cd repo\ngit checkout -q link; echo \"exit $?\"\ngit checkout -q dir; echo \"exit $?\"\nls -A . a ../victim\n",
    ),
];

#[test]
fn crafted_trees_are_refused_as_git_refuses_them() {
    let fixture = fixture();
    let mut diffs = Vec::new();
    for (name, script) in CASES {
        let (d, ws) = compare(fixture.path(), name, script);
        diffs.extend(d);
        diffs.extend(escapes(&ws).into_iter().map(|e| format!("{name}: {e}")));
    }
    assert!(diffs.is_empty(), "{}", diffs.join("\n\n"));
}

/// A tree with a symlink `a` and a directory `a/`: whatever git makes of
/// it, nothing is written through the link, checked out in either order
/// and with the link already there.
#[test]
fn a_symlink_and_a_directory_of_one_name_write_nothing_through_the_link() {
    let fixture = fixture();
    for script in [
        "cd /work/repo && git checkout -q link-and-dir; echo \"exit $?\"",
        "cd /work/repo && git checkout -q link && git checkout -q link-and-dir; echo \"exit $?\"",
        "cd /work/repo && git reset -q --hard link-and-dir; echo \"exit $?\"",
        "cd /work/repo && git checkout -q link && git checkout -q -f dir; echo \"exit $?\"",
    ] {
        let (outcome, ws) = run_ours(fixture.path(), script);
        let found = escapes(&ws);
        assert!(found.is_empty(), "{script}: {found:?}\n{outcome:#?}");
    }
}

/// An absolute link target is the workspace's own root on our side (real
/// git would write to the host's): only ours is run.
#[test]
fn an_absolute_symlink_is_not_written_through() {
    let fixture = fixture();
    let repo = fixture.path().join("work/repo");
    let base = host_git(&repo, &["rev-parse", "main:base.txt"], b"");
    let main = host_git(&repo, &["rev-parse", "main"], b"");
    let link = blob(&repo, "/victim");
    let pwned = blob(&repo, "pwned\n");
    let sub = raw_tree(&repo, &[("100644", "x", &pwned)]);
    let t = raw_tree(
        &repo,
        &[
            ("120000", "a", &link),
            ("40000", "a", &sub),
            ("100644", "base.txt", &base),
        ],
    );
    branch(&repo, "absolute-link", &t, &main);
    let (outcome, ws) = run_ours(
        fixture.path(),
        "mkdir /victim && cd /work/repo && git checkout -q absolute-link; echo \"exit $?\"; ls -A /victim",
    );
    assert!(!ws.exists("/victim/x"), "{outcome:#?}");
}
