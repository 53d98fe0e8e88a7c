//! `computer import HOST_DIR [WS_DIR]` and `computer export WS_DIR HOST_DIR`.

use std::collections::BTreeMap;
use std::fs;
use std::os::unix::fs::{PermissionsExt, symlink};
use std::path::Path;
use std::process::Command;
use std::time::{Duration, UNIX_EPOCH};

use computer_tests::{Ws, describe, json, text};

/// What a host tree holds, path by path (relative, `/`-separated).
#[derive(Debug, PartialEq, Eq)]
enum Host {
    Dir { mode: u32 },
    File { mode: u32, content: Vec<u8> },
    Link { target: String },
}

fn snapshot(root: &Path) -> BTreeMap<String, Host> {
    fn walk(dir: &Path, prefix: &str, out: &mut BTreeMap<String, Host>) {
        for entry in fs::read_dir(dir).expect("read_dir") {
            let entry = entry.expect("dir entry");
            let name = entry.file_name().into_string().expect("UTF-8 name");
            let rel = if prefix.is_empty() {
                name
            } else {
                format!("{prefix}/{name}")
            };
            let path = entry.path();
            let meta = fs::symlink_metadata(&path).expect("lstat");
            let mode = meta.permissions().mode() & 0o7777;
            if meta.file_type().is_symlink() {
                let target = fs::read_link(&path).expect("readlink");
                let target = target.into_os_string().into_string().expect("UTF-8 target");
                out.insert(rel, Host::Link { target });
            } else if meta.is_dir() {
                walk(&path, &rel, out);
                out.insert(rel, Host::Dir { mode });
            } else {
                let content = fs::read(&path).expect("read");
                out.insert(rel, Host::File { mode, content });
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(root, "", &mut out);
    out
}

fn write_file(path: &Path, content: &[u8], mode: u32) {
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent).expect("mkdir -p");
    }
    fs::write(path, content).expect("write");
    fs::set_permissions(path, fs::Permissions::from_mode(mode)).expect("chmod");
}

/// A host tree: `a.txt`, `sub/run.sh` (755), `sub/deep/data.bin` (600,
/// binary) and an empty directory `empty`.
fn host_tree(root: &Path) {
    write_file(&root.join("a.txt"), b"a\n", 0o644);
    write_file(&root.join("sub/run.sh"), b"#!/bin/sh\necho hi\n", 0o755);
    write_file(&root.join("sub/deep/data.bin"), b"\x00\x01\xff", 0o600);
    fs::create_dir_all(root.join("empty")).expect("mkdir");
}

// ---------------------------------------------------------------- import

#[test]
fn import_copies_files_directories_and_modes() {
    let ws = Ws::new();
    let host = ws.host("src");
    host_tree(&host);
    let doc = ws.json(&["import", host.to_str().expect("UTF-8"), "/proj"]);
    assert_eq!(
        doc,
        json!({"files": 3, "dirs": 3, "symlinks": 0, "bytes": 23, "skipped": []})
    );
    assert_eq!(
        ws.tree("/proj"),
        [
            "/proj/a.txt",
            "/proj/empty",
            "/proj/sub",
            "/proj/sub/deep",
            "/proj/sub/deep/data.bin",
            "/proj/sub/run.sh"
        ]
    );
    assert_eq!(ws.cat("/proj/a.txt"), "a\n");
    assert_eq!(ws.read("/proj/sub/deep/data.bin"), b"\x00\x01\xff");
    assert_eq!(ws.stat("/proj/sub/run.sh")["mode"], "755");
    assert_eq!(ws.stat("/proj/sub/deep/data.bin")["mode"], "600");
    assert_eq!(ws.stat("/proj/a.txt")["mode"], "644");
}

#[test]
fn import_plain_output_and_default_destination() {
    let ws = Ws::new();
    let host = ws.host("src");
    host_tree(&host);
    let out = ws.ok(&["import", host.to_str().expect("UTF-8")]);
    assert_eq!(
        out,
        "imported 3 files, 3 directories, 0 symlinks (23 bytes) into /\n"
    );
    assert_eq!(ws.names("/"), ["a.txt", "empty", "sub"]);
}

#[test]
fn import_keeps_modification_times() {
    let ws = Ws::new();
    let host = ws.host("src");
    write_file(&host.join("old.txt"), b"old", 0o644);
    let when = UNIX_EPOCH + Duration::new(1_000_000_000, 123_456_789);
    fs::File::options()
        .write(true)
        .open(host.join("old.txt"))
        .and_then(|f| f.set_modified(when))
        .expect("set mtime");
    ws.ok(&["import", host.to_str().expect("UTF-8"), "/p"]);
    let st = ws.stat("/p/old.txt");
    assert_eq!(st["mtime_ns"], 1_000_000_000_123_456_789u64);
    assert_eq!(st["mtime"], "2001-09-09T01:46:40Z");
}

#[test]
fn import_replaces_files_and_keeps_the_rest() {
    let ws = Ws::new();
    ws.put("/proj/a.txt", "old content\n");
    ws.put("/proj/keep.txt", "kept\n");
    let host = ws.host("src");
    host_tree(&host);
    ws.ok(&["import", host.to_str().expect("UTF-8"), "/proj"]);
    assert_eq!(ws.cat("/proj/a.txt"), "a\n");
    assert_eq!(ws.cat("/proj/keep.txt"), "kept\n");
}

#[test]
fn import_stores_host_symlinks_as_symlinks_and_never_follows_them() {
    let ws = Ws::new();
    let outside = ws.host("outside");
    write_file(&outside.join("secret.txt"), b"TOP SECRET\n", 0o644);
    let host = ws.host("src");
    write_file(&host.join("a.txt"), b"a\n", 0o644);
    symlink("a.txt", host.join("inside")).expect("symlink");
    symlink(&outside, host.join("escape-dir")).expect("symlink");
    symlink(outside.join("secret.txt"), host.join("escape-file")).expect("symlink");

    let doc = ws.json(&["import", host.to_str().expect("UTF-8"), "/proj"]);
    assert_eq!(
        doc,
        json!({"files": 1, "dirs": 0, "symlinks": 3, "bytes": 2, "skipped": []})
    );
    assert_eq!(
        ws.tree("/"),
        [
            "/proj",
            "/proj/a.txt",
            "/proj/escape-dir",
            "/proj/escape-file",
            "/proj/inside"
        ]
    );
    let outside_str = outside.to_str().expect("UTF-8");
    assert_eq!(
        ws.ok(&["fs", "readlink", "/proj/escape-dir"]),
        format!("{outside_str}\n")
    );
    assert_eq!(
        ws.ok(&["fs", "readlink", "/proj/escape-file"]),
        format!("{outside_str}/secret.txt\n")
    );
    assert_eq!(
        ws.json(&["fs", "stat", "--no-follow", "/proj/escape-dir"])["kind"],
        "symlink"
    );
    // Inside the workspace the link resolves against the workspace, where
    // nothing of the host's outside directory exists.
    assert_eq!(ws.errno(&["fs", "read", "/proj/escape-file"]), "ENOENT");
    let out = ws.run(&["fs", "grep", "SECRET", "/"], "");
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        describe(&["fs", "grep"], &out)
    );
    // A relative link inside the tree works as before.
    assert_eq!(ws.cat("/proj/inside"), "a\n");
}

#[test]
fn import_skips_special_files_and_non_utf8_names_and_says_so() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;

    let ws = Ws::new();
    let host = ws.host("src");
    write_file(&host.join("ok.txt"), b"ok\n", 0o644);
    write_file(&host.join(OsStr::from_bytes(b"bad\xffname")), b"x", 0o644);
    let status = Command::new("mkfifo")
        .arg(host.join("pipe"))
        .status()
        .expect("mkfifo must be installed to run this test");
    assert!(status.success());
    let host = host.to_str().expect("UTF-8");

    let out = ws.run(&["import", host, "/h"], "");
    assert!(out.status.success(), "{}", describe(&["import"], &out));
    assert_eq!(
        text(&out.stdout),
        "imported 1 file, 0 directories, 0 symlinks (3 bytes) into /h\n"
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "skipped: /h/bad\u{fffd}name: name is not UTF-8\nskipped: /h/pipe: special file (fifo, socket or device)\n"
    );
    let doc = ws.json(&["import", host, "/h"]);
    assert_eq!(
        doc["skipped"],
        json!([
            "/h/bad\u{fffd}name: name is not UTF-8",
            "/h/pipe: special file (fifo, socket or device)"
        ])
    );
    assert_eq!(ws.names("/h"), ["ok.txt"]);
}

#[test]
fn import_of_a_git_repository_includes_dot_git() {
    let ws = Ws::new();
    let repo = ws.host("repo");
    write_file(&repo.join("README.md"), b"# repo\n", 0o644);
    write_file(&repo.join("src/lib.rs"), b"pub fn f() {}\n", 0o644);
    git(&ws, &repo, &["init", "--quiet", "--initial-branch=main"]);
    git(&ws, &repo, &["add", "."]);
    git(&ws, &repo, &["commit", "--quiet", "-m", "first commit"]);

    ws.ok(&["import", repo.to_str().expect("UTF-8"), "/repo"]);
    assert_eq!(ws.cat("/repo/.git/HEAD"), "ref: refs/heads/main\n");
    assert_eq!(
        ws.read("/repo/.git/index"),
        fs::read(repo.join(".git/index")).expect("index")
    );
    assert!(ws.tree("/repo/.git/objects").len() > 3);

    // Exported back out, it is still the same repository.
    let out = ws.host("out");
    ws.ok(&["export", "/repo", out.to_str().expect("UTF-8")]);
    assert_eq!(snapshot(&out), snapshot(&repo));
    assert_eq!(git(&ws, &out, &["log", "--format=%s"]), "first commit\n");
    assert_eq!(git(&ws, &out, &["status", "--porcelain"]), "");
    git(&ws, &out, &["fsck", "--no-progress"]);
}

/// Runs git in `dir`, isolated from the user's configuration; returns stdout.
fn git(ws: &Ws, dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .current_dir(dir)
        .env("HOME", ws.dir())
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .args(["-c", "user.name=Test", "-c", "user.email=test@example.com"])
        .args(args)
        .output()
        .expect("git must be installed to run this test");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    text(&out.stdout)
}

#[test]
fn import_errors() {
    let ws = Ws::new();
    let missing = ws.host("missing");
    let (code, message) = ws.err(&["import", missing.to_str().expect("UTF-8"), "/x"]);
    assert_eq!(code, "ENOENT");
    assert!(
        message.contains(missing.to_str().expect("UTF-8")),
        "{message}"
    );

    let host = ws.host("src");
    host_tree(&host);
    let host = host.to_str().expect("UTF-8");
    assert_eq!(ws.errno(&["import", host, "relative"]), "EINVAL");
    ws.put("/file", "");
    let (code, message) = ws.err(&["import", host, "/file"]);
    assert_eq!(code, "ENOTDIR");
    assert!(message.starts_with("not a directory: /file"), "{message}");
    ws.ok(&["fs", "mkdir", "/locked"]);
    ws.ok(&["fs", "readonly", "/locked"]);
    assert_eq!(ws.errno(&["import", host, "/locked"]), "EROFS");
    assert_eq!(ws.tree("/locked"), Vec::<String>::new());
}

// ---------------------------------------------------------------- export

#[test]
fn export_writes_files_directories_symlinks_and_modes() {
    let ws = Ws::new();
    ws.put("/proj/a.txt", "a\n");
    ws.ok_with(
        &["fs", "write", "-p", "--mode", "755", "/proj/bin/run.sh"],
        "#!/bin/sh\n",
    );
    ws.ok_with(
        &["fs", "write", "-p", "--mode", "600", "/proj/private/key"],
        b"\x00key",
    );
    ws.ok(&["fs", "mkdir", "--mode", "700", "/proj/private/empty"]);
    ws.ok(&["fs", "ln", "-s", "../a.txt", "/proj/bin/link"]);
    ws.ok(&["fs", "ln", "-s", "/etc/passwd", "/proj/abs-link"]);

    let out = ws.host("out");
    let doc = ws.json(&["export", "/proj", out.to_str().expect("UTF-8")]);
    assert_eq!(
        doc,
        json!({"files": 3, "dirs": 3, "symlinks": 2, "bytes": 16, "skipped": []})
    );
    let want: BTreeMap<String, Host> = [
        (
            "a.txt",
            Host::File {
                mode: 0o644,
                content: b"a\n".to_vec(),
            },
        ),
        (
            "abs-link",
            Host::Link {
                target: "/etc/passwd".into(),
            },
        ),
        ("bin", Host::Dir { mode: 0o755 }),
        (
            "bin/link",
            Host::Link {
                target: "../a.txt".into(),
            },
        ),
        (
            "bin/run.sh",
            Host::File {
                mode: 0o755,
                content: b"#!/bin/sh\n".to_vec(),
            },
        ),
        ("private", Host::Dir { mode: 0o755 }),
        ("private/empty", Host::Dir { mode: 0o700 }),
        (
            "private/key",
            Host::File {
                mode: 0o600,
                content: b"\x00key".to_vec(),
            },
        ),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_owned(), v))
    .collect();
    assert_eq!(snapshot(&out), want);
}

#[test]
fn export_plain_output() {
    let ws = Ws::new();
    ws.put("/p/f", "12345");
    let out = ws.host("out");
    assert_eq!(
        ws.ok(&["export", "/p", out.to_str().expect("UTF-8")]),
        format!(
            "exported 1 file, 0 directories, 0 symlinks (5 bytes) to {}\n",
            out.display()
        )
    );
}

#[test]
fn import_then_export_round_trips_a_tree() {
    let ws = Ws::new();
    let src = ws.host("src");
    host_tree(&src);
    symlink("sub/run.sh", src.join("link")).expect("symlink");
    ws.ok(&["import", src.to_str().expect("UTF-8"), "/proj"]);
    let out = ws.host("out");
    ws.ok(&["export", "/proj", out.to_str().expect("UTF-8")]);
    assert_eq!(snapshot(&out), snapshot(&src));
    let mtime = |p: &Path| fs::metadata(p).and_then(|m| m.modified()).expect("mtime");
    assert_eq!(
        mtime(&out.join("sub/run.sh")),
        mtime(&src.join("sub/run.sh"))
    );
}

#[test]
fn export_replaces_host_symlinks_instead_of_writing_through_them() {
    let ws = Ws::new();
    let outside = ws.host("outside");
    write_file(&outside.join("victim.txt"), b"untouched\n", 0o644);
    let out = ws.host("out");
    fs::create_dir_all(&out).expect("mkdir");
    symlink(&outside, out.join("sub")).expect("symlink");
    symlink(outside.join("victim.txt"), out.join("file.txt")).expect("symlink");

    ws.put("/proj/sub/victim.txt", "overwritten?\n");
    ws.put("/proj/file.txt", "overwritten?\n");
    ws.ok(&["export", "/proj", out.to_str().expect("UTF-8")]);

    assert_eq!(
        fs::read(outside.join("victim.txt")).expect("read"),
        b"untouched\n"
    );
    assert_eq!(snapshot(&outside).len(), 1);
    assert!(
        fs::symlink_metadata(out.join("sub"))
            .expect("lstat")
            .is_dir()
    );
    assert!(
        fs::symlink_metadata(out.join("file.txt"))
            .expect("lstat")
            .is_file()
    );
    assert_eq!(
        fs::read(out.join("sub/victim.txt")).expect("read"),
        b"overwritten?\n"
    );
}

#[test]
fn export_errors() {
    let ws = Ws::new();
    ws.put("/proj/f", "x");
    let out = ws.host("out");
    let out = out.to_str().expect("UTF-8");
    assert_eq!(
        ws.err(&["export", "/missing", out]),
        (
            "ENOENT".into(),
            "no such file or directory: /missing".into()
        )
    );
    assert_eq!(
        ws.err(&["export", "/proj/f", out]),
        ("ENOTDIR".into(), "not a directory: /proj/f".into())
    );
    assert_eq!(ws.errno(&["export", "proj", out]), "EINVAL");
}
