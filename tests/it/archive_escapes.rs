//! Hostile archives do not make extraction write outside its directory
//! (issue 41, item 4): member names with `..` or a leading `/`, and a
//! symlink member followed by members under it (`lnk -> ../victim`, then
//! `lnk/x`), for our `unzip` (the shell guest's), `tar` (bashkit's) and
//! python3's `zipfile`/`tarfile`.
//!
//! The archives are made on the host by python3's `zipfile`/`tarfile`,
//! which write any name. For `unzip` Info-ZIP's `unzip` 6.0 (Debian's,
//! `/usr/bin/unzip`) is the oracle: the same script runs under `/bin/bash`
//! in a host directory and in the shell backend, and stdout, stderr, the
//! exit code and the extracted tree (`find`) must agree. Link targets are
//! relative (`../victim`), so the oracle's run stays inside its temporary
//! directory too; on our side nothing may appear in `/work/victim` or
//! outside `/work/out`.

use std::path::Path;
use std::process::{Command, Stdio};

use computer_tests::{Ws, text};

/// Writes the hostile archives into `dir`.
const MAKE_ARCHIVES: &str = r#"
import io, os, stat, sys, tarfile, zipfile

os.chdir(sys.argv[1])

def link(z, name, target):
    info = zipfile.ZipInfo(name)
    info.create_system = 3
    info.external_attr = (stat.S_IFLNK | 0o777) << 16
    z.writestr(info, target)

def entry(z, name, data="pwned\n"):
    info = zipfile.ZipInfo(name, date_time=(2024, 1, 1, 0, 0, 0))
    info.create_system = 3
    info.external_attr = ((stat.S_IFDIR | 0o755) if name.endswith("/") else (stat.S_IFREG | 0o644)) << 16
    z.writestr(info, data)

with zipfile.ZipFile("dotdot.zip", "w") as z:
    entry(z, "../x1"); entry(z, "a/../../x2"); entry(z, "ok.txt", "ok\n")
with zipfile.ZipFile("absolute.zip", "w") as z:
    entry(z, "/abs/x3"); entry(z, "//x4"); entry(z, "ok.txt", "ok\n")
with zipfile.ZipFile("link.zip", "w") as z:
    link(z, "lnk", "../victim"); entry(z, "lnk/x"); entry(z, "ok.txt", "ok\n")
with zipfile.ZipFile("linkdir.zip", "w") as z:
    link(z, "lnk", "../victim"); entry(z, "lnk/", ""); entry(z, "lnk/sub/", "")
with zipfile.ZipFile("dirs.zip", "w") as z:
    entry(z, "../evildir/", ""); entry(z, "/absdir/", ""); entry(z, "ok.txt", "ok\n")
with zipfile.ZipFile("dots.zip", "w") as z:
    for n in [".", "a/.", "./c", "f/..", "..", "...", ".../x"]:
        entry(z, n, "p")
with zipfile.ZipFile("abslink.zip", "w") as z:
    link(z, "lnk", "/victim"); entry(z, "lnk/x")

def member(t, name, data=b"pwned\n", kind=tarfile.REGTYPE, target=""):
    info = tarfile.TarInfo(name)
    info.type = kind
    info.linkname = target
    info.mtime = 1704067200
    if kind == tarfile.REGTYPE:
        info.size = len(data)
        t.addfile(info, io.BytesIO(data))
    else:
        t.addfile(info)

with tarfile.open("dotdot.tar", "w", format=tarfile.GNU_FORMAT) as t:
    member(t, "ok.txt", b"ok\n"); member(t, "../x1")
with tarfile.open("absolute.tar", "w", format=tarfile.GNU_FORMAT) as t:
    member(t, "/abs/x3"); member(t, "ok.txt", b"ok\n")
with tarfile.open("link.tar", "w", format=tarfile.GNU_FORMAT) as t:
    member(t, "lnk", kind=tarfile.SYMTYPE, target="../victim"); member(t, "lnk/x"); member(t, "ok.txt", b"ok\n")
"#;

/// `<root>/work` with the archives, an empty `out` and an empty `victim`.
fn fixture() -> tempfile::TempDir {
    let root = tempfile::tempdir().expect("tempdir");
    let work = root.path().join("work");
    for d in ["out", "victim"] {
        std::fs::create_dir_all(work.join(d)).expect("mkdir");
    }
    let out = Command::new("python3")
        .args(["-c", MAKE_ARCHIVES])
        .arg(&work)
        .output()
        .expect("python3 on the host makes the archives");
    assert!(out.status.success(), "{}", text(&out.stderr));
    root
}

#[derive(Debug, PartialEq, Eq)]
struct Outcome {
    stdout: String,
    stderr: String,
    code: Option<i32>,
}

fn run_real(fixture: &Path, script: &str) -> Outcome {
    let root = tempfile::tempdir().expect("tempdir");
    let status = Command::new("cp")
        .arg("-a")
        .arg(fixture.join("work"))
        .arg(root.path())
        .status()
        .expect("cp");
    assert!(status.success());
    let out = Command::new("/bin/bash")
        .args(["-c", script])
        .current_dir(root.path().join("work/out"))
        .env_clear()
        .env("PATH", "/usr/bin:/bin")
        .env("LC_ALL", "C")
        .env("TZ", "UTC")
        .stdin(Stdio::null())
        .output()
        .expect("bash");
    let shown = root.path().display().to_string();
    Outcome {
        stdout: text(&out.stdout).replace(&shown, ""),
        stderr: text(&out.stderr).replace(&shown, ""),
        code: out.status.code(),
    }
}

fn run_ours(fixture: &Path, script: &str) -> (Outcome, Ws) {
    let ws = Ws::new();
    let host = fixture.join("work");
    ws.ok(&["import", host.to_str().expect("UTF-8 path"), "/work"]);
    let full = format!("export TZ=UTC\ncd /work/out\n{script}");
    let out = ws.run(&["exec", "--backend", "shell", &full], "");
    let outcome = Outcome {
        stdout: text(&out.stdout),
        stderr: text(&out.stderr),
        code: out.status.code(),
    };
    (outcome, ws)
}

/// Whatever landed outside `/work/out` on our side.
fn escapes(ws: &Ws) -> Vec<String> {
    // stdout only: a first run may say on stderr that it compiles the shell.
    let out = ws.run(
        &[
            "exec",
        "--backend",
        "shell",
        "ls -A /work/victim; ls -A /work | grep -v -x -e out -e victim -e '.*\\.zip' -e '.*\\.tar'; ls -A / | grep -x -e abs -e absdir -e evildir -e x1 -e x2 -e x3 -e x4 -e victim; true",
        ],
        "",
    );
    let mut found: Vec<String> = text(&out.stdout).lines().map(str::to_owned).collect();
    if ws.exists("/victim/x") {
        found.push("/victim/x".to_owned());
    }
    found
}

/// Info-ZIP's `unzip` on each hostile archive, quiet and not, and into `-d`.
const UNZIP_CASES: &[(&str, &str)] = &[
    (
        "dotdot",
        "unzip ../dotdot.zip; echo \"exit $?\"; find . | sort",
    ),
    (
        "dotdot-quiet",
        "unzip -q ../dotdot.zip; echo \"exit $?\"; find . | sort",
    ),
    (
        "dotdot-junk",
        "unzip -j ../dotdot.zip; echo \"exit $?\"; find . | sort",
    ),
    (
        "absolute",
        "unzip ../absolute.zip; echo \"exit $?\"; find . | sort",
    ),
    (
        "link",
        "unzip ../link.zip; echo \"exit $?\"; find . | sort; cat lnk/x 2>&1",
    ),
    (
        "link-quiet",
        "unzip -q ../link.zip; echo \"exit $?\"; find . | sort",
    ),
    (
        "link-into-dir",
        "unzip -o -d dd ../link.zip; echo \"exit $?\"; find . | sort",
    ),
    (
        "linkdir",
        "unzip ../linkdir.zip; echo \"exit $?\"; find . | sort",
    ),
    ("dirs", "unzip ../dirs.zip; echo \"exit $?\"; find . | sort"),
    ("dots", "unzip ../dots.zip; echo \"exit $?\"; find . | sort"),
];

#[test]
fn unzip_keeps_hostile_members_inside_as_info_zip_does() {
    let fixture = fixture();
    let mut diffs = Vec::new();
    for (name, script) in UNZIP_CASES {
        let expected = run_real(fixture.path(), script);
        let (actual, ws) = run_ours(fixture.path(), script);
        if expected != actual {
            diffs.push(format!(
                "{name}: Info-ZIP vs ours\n--- Info-ZIP\n{expected:#?}\n--- ours\n{actual:#?}"
            ));
        }
        for e in escapes(&ws) {
            diffs.push(format!("{name}: escaped: {e}"));
        }
    }
    assert!(diffs.is_empty(), "{}", diffs.join("\n\n"));
}

/// An absolute link target would be the host's own on the oracle's side:
/// ours only. The link is made, last; nothing goes through it.
#[test]
fn unzip_does_not_write_through_an_absolute_link_it_extracted() {
    let fixture = fixture();
    let (outcome, ws) = run_ours(
        fixture.path(),
        "mkdir /victim; unzip ../abslink.zip; echo \"exit $?\"; ls -A /victim",
    );
    assert!(!ws.exists("/victim/x"), "{outcome:#?}");
    assert!(
        outcome
            .stderr
            .contains("checkdir error:  lnk exists but is not directory"),
        "{outcome:#?}"
    );
    assert_eq!(
        outcome.stdout,
        "Archive:  ../abslink.zip\n    linking: lnk                     -> /victim \nfinishing deferred symbolic links:\n  lnk                    -> /victim\nexit 2\n"
    );
}

/// bashkit's `tar` refuses a whole archive holding a `..` or absolute
/// member before writing anything (GNU tar skips the member, or strips the
/// `/`, and extracts the rest), and skips symlink members (GNU tar makes
/// them, and then will not write `lnk/x` through one). Either way nothing
/// lands outside; these pin what it says.
#[test]
fn tar_refuses_members_outside_the_directory() {
    let fixture = fixture();
    let cases = [
        (
            "tar xf ../dotdot.tar; echo \"exit $?\"; find . | sort",
            "tar: ../x1: path traversal blocked\n",
        ),
        (
            "tar xf ../absolute.tar; echo \"exit $?\"; find . | sort",
            "tar: /abs/x3: path traversal blocked\n",
        ),
        (
            "tar xf ../link.tar; echo \"exit $?\"; find . | sort",
            "tar: lnk: symbolic link skipped (not supported in VFS)\n",
        ),
    ];
    for (script, stderr) in cases {
        let (outcome, ws) = run_ours(fixture.path(), script);
        assert_eq!(escapes(&ws), Vec::<String>::new(), "{script}: {outcome:#?}");
        assert_eq!(outcome.stderr, stderr, "{script}: {outcome:#?}");
    }
}

/// python3's `zipfile` drops `..` and leading `/` and makes no symlinks (a
/// link member is a file holding its target, so `lnk/x` fails);
/// `tarfile`'s default filter in 3.14 (`data`) refuses `..`, absolute
/// names and links that point outside. Each archive's outcome is printed.
#[test]
fn python_extractors_stay_inside() {
    let fixture = fixture();
    let script = r#"python3 - <<'EOF'
import tarfile, zipfile
for name in ["dotdot.zip", "absolute.zip", "link.zip", "abslink.zip", "dirs.zip"]:
    try:
        with zipfile.ZipFile("../" + name) as z:
            z.extractall("zip-" + name)
        print(name, "ok")
    except Exception as e:
        print(name, type(e).__name__)
for name in ["dotdot.tar", "absolute.tar", "link.tar"]:
    try:
        with tarfile.open("../" + name) as t:
            t.extractall("tar-" + name)
        print(name, "ok")
    except Exception as e:
        print(name, type(e).__name__)
EOF
find . | sort"#;
    let (outcome, ws) = run_ours(fixture.path(), script);
    assert_eq!(escapes(&ws), Vec::<String>::new(), "{outcome:#?}");
    let stdout = &outcome.stdout;
    for refused in [
        "dotdot.tar OutsideDestinationError",
        "link.tar LinkOutsideDestinationError",
        "link.zip NotADirectoryError",
    ] {
        assert!(stdout.contains(refused), "{refused}: {outcome:#?}");
    }
    // zipfile keeps what it can, below the directory.
    for kept in [
        "./zip-dotdot.zip/x1",
        "./zip-dotdot.zip/a/x2",
        "./zip-absolute.zip/abs/x3",
    ] {
        assert!(stdout.contains(kept), "{kept}: {outcome:#?}");
    }
}
