//! wasi:filesystem over the workspace: a `std::fs` command component
//! (`tests/fixtures/wasi-fs-probe`) run with `Runtime::run_command`, one
//! check per test, and what it wrote looked at through the store.

use std::path::PathBuf;
use std::sync::Arc;

use computer_runtime::{CommandOptions, FileTree, Mount, MountSource, RunResult, RunStatus};
use computer_store::{Workspace, WriteOptions};

use crate::support::{bare_runtime, s};

fn probe_bytes() -> &'static [u8] {
    static BYTES: std::sync::OnceLock<Vec<u8>> = std::sync::OnceLock::new();
    BYTES.get_or_init(|| {
        let path = std::env::var_os("COMPUTER_WASI_FS_PROBE_WASM")
            .map(PathBuf::from)
            .unwrap_or_else(|| {
                PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                    .join("../../guests/target/wasm32-wasip2/release/wasi_fs_probe.wasm")
            });
        std::fs::read(&path).unwrap_or_else(|e| {
            panic!(
                "cannot read {} ({e}): run scripts/build-guests.sh to build the probe",
                path.display()
            )
        })
    })
}

fn run_with(ws: &Arc<Workspace>, args: &[&str], mounts: Vec<Mount>) -> RunResult {
    let mut argv = vec!["wasi_fs_probe".to_owned()];
    argv.extend(args.iter().map(|a| (*a).to_owned()));
    let options = CommandOptions {
        argv,
        mounts,
        ..CommandOptions::default()
    };
    bare_runtime()
        .run_command(ws.clone(), "wasi_fs_probe", probe_bytes(), options)
        .expect("the probe runs")
}

/// The probe run in `cwd`; `own_cwd` says it changes there itself.
fn run_in(ws: &Arc<Workspace>, cwd: &str, own_cwd: bool, args: &[&str]) -> RunResult {
    let mut argv = vec!["wasi_fs_probe".to_owned()];
    argv.extend(args.iter().map(|a| (*a).to_owned()));
    let options = CommandOptions {
        argv,
        cwd: cwd.to_owned(),
        own_cwd,
        ..CommandOptions::default()
    };
    bare_runtime()
        .run_command(ws.clone(), "wasi_fs_probe", probe_bytes(), options)
        .expect("the probe runs")
}

fn check(ws: &Arc<Workspace>, args: &[&str]) -> RunResult {
    let r = run_with(ws, args, vec![]);
    assert_eq!(
        r.exit_code,
        0,
        "{args:?}: stdout {} stderr {}",
        s(&r.stdout),
        s(&r.stderr)
    );
    assert_eq!(s(&r.stdout).trim(), format!("ok {}", args[0]));
    r
}

fn ws() -> Arc<Workspace> {
    Arc::new(Workspace::in_memory().expect("workspace"))
}

#[test]
fn descriptors_stat_unlink_rmdir() {
    let ws = ws();
    check(&ws, &["descriptors"]);
    assert!(!ws.exists("/probe/d").unwrap());
}

#[test]
fn seek_pread_pwrite_and_holes() {
    let ws = ws();
    check(&ws, &["seek"]);
    let data = ws.read("/probe/seek.bin").unwrap();
    assert_eq!(data.len(), 20001);
    assert_eq!(&data[4096..4102], b"MIDDLE");
}

#[test]
fn append_and_truncate() {
    let ws = ws();
    check(&ws, &["append"]);
    assert_eq!(ws.read("/probe/log.txt").unwrap(), b"one\ntwo\nthree\n");
    check(&ws, &["truncate"]);
    assert_eq!(ws.stat("/probe/t.txt").unwrap().size, 0);
}

#[test]
fn readdir_pages_through_many_entries() {
    let ws = ws();
    check(&ws, &["readdir", "1000"]);
    let listed = ws
        .readdir("/probe/many", computer_store::Page::all())
        .unwrap();
    assert_eq!(listed.len(), 1000);
}

#[test]
fn rename_over_files_and_directories() {
    let ws = ws();
    check(&ws, &["rename"]);
    assert_eq!(ws.read("/probe/r/b").unwrap(), b"A");
    assert!(ws.exists("/probe/r/d2/sub").unwrap());
}

#[test]
fn symlinks_follow_readlink_and_loops() {
    let ws = ws();
    ws.mkdir(
        "/probe/l",
        &computer_store::MkdirOptions {
            recursive: true,
            mode: None,
        },
    )
    .unwrap();
    ws.write("/probe/l/target", b"T", &Default::default())
        .unwrap();
    ws.symlink("target", "/probe/l/link").unwrap();
    ws.symlink("loop2", "/probe/l/loop1").unwrap();
    ws.symlink("loop1", "/probe/l/loop2").unwrap();
    check(&ws, &["symlinks"]);
}

#[test]
fn hard_links_share_one_node_and_its_open_file() {
    let ws = ws();
    check(&ws, &["hardlinks"]);
    let b = ws.stat("/probe/h/b").unwrap();
    assert_eq!(b.nlink, 1, "a's name is gone");
    assert_eq!(ws.read("/probe/h/b").unwrap(), b"two");
    assert!(!ws.exists("/probe/h2").unwrap());
    let report = ws.fsck().unwrap();
    assert!(report.is_clean(), "{:?}", report.problems);
}

#[test]
fn dotdot_stays_inside_the_tree() {
    let ws = ws();
    check(&ws, &["dotdot"]);
    assert_eq!(ws.read("/dd/probe-root.txt").unwrap(), b"r");
    assert!(ws.read("/probe-root.txt").is_err());
}

#[test]
fn read_only_subtrees_answer_read_only() {
    let ws = ws();
    ws.mkdir("/ro", &Default::default()).unwrap();
    ws.write("/ro/f.txt", b"locked", &Default::default())
        .unwrap();
    ws.set_readonly("/ro", true).unwrap();
    check(&ws, &["readonly"]);
    assert_eq!(ws.read("/ro/f.txt").unwrap(), b"locked");
    assert!(!ws.exists("/ro/new.txt").unwrap());
}

#[test]
fn exclusive_create_and_unicode_names() {
    let ws = ws();
    check(&ws, &["exclusive"]);
    check(&ws, &["unicode"]);
    assert_eq!(ws.read("/probe/ünï cødé ✓ 日本.txt").unwrap(), b"ok");
}

#[test]
fn tmp_is_private_to_each_run_and_not_in_the_workspace() {
    let ws = ws();
    check(&ws, &["tmp"]);
    // A second run starts with an empty /tmp (the probe checks), and
    // nothing reached the workspace.
    check(&ws, &["tmp"]);
    assert!(!ws.exists("/tmp").unwrap());
}

#[test]
fn writes_are_visible_through_the_store_afterwards() {
    let ws = ws();
    check(&ws, &["write", "/probe/out.txt", "from wasi"]);
    assert_eq!(ws.read("/probe/out.txt").unwrap(), b"from wasi");
}

#[test]
fn a_missing_parent_fails_and_exits_1() {
    let ws = ws();
    let r = run_with(&ws, &["write", "/no/such/dir/x", "y"], vec![]);
    assert_eq!(r.exit_code, 1, "{}", s(&r.stderr));
    assert_eq!(r.status, RunStatus::Failed);
}

#[test]
fn mounts_are_read_only_host_dirs_or_bytes() {
    let ws = ws();
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("data.txt"), "host bytes").unwrap();
    let host = Mount {
        guest_path: "/usr/lib/probe".into(),
        source: MountSource::HostDir(dir.path().to_path_buf()),
    };
    let r = run_with(
        &ws,
        &["mount", "/usr/lib/probe/data.txt", "host bytes"],
        vec![host],
    );
    assert_eq!(r.exit_code, 0, "{}", s(&r.stderr));
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    let files = FileTree::new([(
        "sub/file.txt".to_owned(),
        computer_runtime::Bytes::from_static(b"embedded"),
    )]);
    let bytes = Mount {
        guest_path: "/opt/emb".into(),
        source: MountSource::Files(Arc::new(files)),
    };
    let r = run_with(
        &ws,
        &["mount", "/opt/emb/sub/file.txt", "embedded"],
        vec![bytes],
    );
    assert_eq!(r.exit_code, 0, "{}", s(&r.stderr));
    assert!(!ws.exists("/usr").unwrap() && !ws.exists("/opt").unwrap());
}

#[test]
fn a_mounts_fifo_is_refused_at_once() {
    let ws = ws();
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("pipe");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let host = Mount {
        guest_path: "/mnt/host".into(),
        source: MountSource::HostDir(dir.path().to_path_buf()),
    };
    // On a thread: before the fix the host waited for a writer forever.
    let (tx, rx) = std::sync::mpsc::channel();
    let probe_ws = ws.clone();
    std::thread::spawn(move || {
        let _ = tx.send(run_with(
            &probe_ws,
            &["special", "/mnt/host/pipe"],
            vec![host],
        ));
    });
    let r = rx
        .recv_timeout(std::time::Duration::from_secs(120))
        .expect("opening a mount's FIFO hung the host");
    assert_eq!(r.exit_code, 0, "{} {}", s(&r.stdout), s(&r.stderr));
    assert!(s(&r.stdout).starts_with("refused: "), "{}", s(&r.stdout));
}

#[test]
fn stdin_reaches_the_command() {
    let ws = ws();
    let options = CommandOptions {
        argv: vec!["wasi_fs_probe".into(), "cat".into()],
        stdin: b"piped in\n".to_vec(),
        ..CommandOptions::default()
    };
    let r = bare_runtime()
        .run_command(ws, "wasi_fs_probe", probe_bytes(), options)
        .unwrap();
    assert_eq!(s(&r.stdout), "piped in\nok cat\n");
}

/// A program whose wasi-libc starts in `/` (it never changes to `$PWD`)
/// reads and writes relative to the cwd it is run in; absolute paths and
/// `..` still reach the rest of the workspace.
#[test]
fn a_third_party_program_works_in_its_cwd() {
    let ws = ws();
    let parents = WriteOptions {
        create_parents: true,
        ..Default::default()
    };
    for (path, text) in [
        ("/proj/sub/notes.txt", "in sub"),
        ("/proj/both.txt", "the cwd's"),
        ("/both.txt", "the root's"),
        ("/top.txt", "at the root"),
        ("/data/x.txt", "data"),
    ] {
        ws.write(path, text.as_bytes(), &parents).unwrap();
    }
    let read = |cwd: &str, own: bool, path: &str| {
        let r = run_in(&ws, cwd, own, &["read", path]);
        let out = s(&r.stdout);
        (r.exit_code, out.trim_end_matches("ok read\n").to_owned())
    };
    assert_eq!(read("/proj", false, "sub/notes.txt"), (0, "in sub".into()));
    assert_eq!(
        read("/proj", false, "./sub/notes.txt"),
        (0, "in sub".into())
    );
    assert_eq!(read("/proj/sub", false, "notes.txt"), (0, "in sub".into()));
    assert_eq!(
        read("/proj/sub", false, "../both.txt"),
        (0, "the cwd's".into())
    );
    assert_eq!(
        read("/proj/sub", false, "../../top.txt"),
        (0, "at the root".into())
    );
    assert_eq!(read("/proj", false, "both.txt"), (0, "the cwd's".into()));
    assert_eq!(read("/proj", false, "/top.txt"), (0, "at the root".into()));
    assert_eq!(read("/proj/sub", false, "/data/x.txt"), (0, "data".into()));
    // The host's devices, though this workspace has no `/dev`.
    assert_eq!(read("/proj/sub", false, "/dev/null"), (0, String::new()));
    // A file it creates lands in its cwd, and it reads it back there.
    let w = run_in(&ws, "/proj/sub", false, &["write", "made.txt", "new"]);
    assert_eq!(w.exit_code, 0, "stderr {}", s(&w.stderr));
    assert_eq!(ws.read("/proj/sub/made.txt").unwrap(), b"new");
    assert!(ws.read("/made.txt").is_err(), "nothing is made at the root");
    // A program that changes to `$PWD` itself is left at `/` by the host.
    assert_eq!(read("/proj", true, "both.txt"), (0, "the root's".into()));
    assert_ne!(read("/proj", true, "sub/notes.txt").0, 0);
}
