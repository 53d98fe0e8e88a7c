//! Snapshots, diff and undo through the library (issue 37). The diff is
//! checked against `git diff --no-index` of the exported trees.

use std::path::Path;
use std::process::Command;

use computer_store::{
    DiffOptions, DiffStatus, Errno, NewRun, RunEnd, RunStatus, TreeRef, Workspace,
};

use crate::support::{assert_err, get, put, rmrf, ws};

fn clean(ws: &Workspace) {
    let report = ws.fsck().unwrap();
    assert!(report.is_clean(), "fsck: {:?}", report.problems);
}

fn snap(name: &str) -> TreeRef {
    TreeRef::Snapshot(name.into())
}

/// Every file, directory and symlink under `dir` with its content or target
/// and mode, for byte-for-byte comparison of exported trees.
fn host_listing(dir: &Path) -> Vec<String> {
    use std::os::unix::fs::PermissionsExt;
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let e = e.unwrap();
            let p = e.path();
            let rel = p.strip_prefix(dir).unwrap().display().to_string();
            let meta = std::fs::symlink_metadata(&p).unwrap();
            let mode = meta.permissions().mode() & 0o7777;
            if meta.file_type().is_symlink() {
                out.push(format!(
                    "L {rel} -> {}",
                    std::fs::read_link(&p).unwrap().display()
                ));
            } else if meta.is_dir() {
                out.push(format!("D {rel} {mode:o}"));
                stack.push(p);
            } else {
                let data = std::fs::read(&p).unwrap();
                out.push(format!("F {rel} {mode:o} {data:?}"));
            }
        }
    }
    out.sort();
    out
}

fn export(ws: &Workspace, tree: &TreeRef, into: &Path) -> Vec<String> {
    ws.export_tree(tree, into).unwrap();
    host_listing(into)
}

#[test]
fn restore_after_many_changes_gives_the_snapshot_back_byte_for_byte() {
    let ws = ws();
    for i in 0..40 {
        put(
            &ws,
            &format!("/src/m{}/f{i}.txt", i % 5),
            &format!("file {i}\n"),
        );
    }
    ws.symlink("../src/m1", "/links/m1").unwrap_or_else(|_| {
        put(&ws, "/links/.keep", "");
        ws.symlink("../src/m1", "/links/m1").unwrap();
    });
    ws.chmod("/src/m0/f0.txt", 0o755).unwrap();
    ws.link("/src/m2/f2.txt", "/src/hard").unwrap();
    ws.set_readonly("/src/m4", true).unwrap();
    ws.net().allow("example.com").unwrap();
    ws.set_quota(1 << 30).unwrap();
    let usage = ws.usage().unwrap();

    let info = ws.snapshot("base", "before the storm").unwrap();
    assert_eq!(info.message, "before the storm");
    assert_eq!(info.readonly_paths, vec!["/src/m4".to_string()]);
    assert_eq!(info.net_allow, vec!["example.com".to_string()]);
    // O(1) in space: no chunk was copied.
    assert_eq!(ws.usage().unwrap().chunks, usage.chunks);
    clean(&ws);

    let tmp = tempfile::tempdir().unwrap();
    let expected = export(&ws, &TreeRef::Live, &tmp.path().join("before"));

    ws.set_readonly("/src/m4", false).unwrap();
    for i in 0..40 {
        if i % 3 == 0 {
            put(&ws, &format!("/src/m{}/f{i}.txt", i % 5), "changed\n");
        }
    }
    put(&ws, "/src/hard", "through the hard link\n");
    rmrf(&ws, "/src/m3");
    ws.rename("/src/m1", "/moved").unwrap();
    ws.chmod("/src/m0/f0.txt", 0o600).unwrap();
    put(&ws, "/new/deep/file", "new\n");
    ws.net().deny("example.com").unwrap();
    ws.set_quota(2 << 30).unwrap();
    clean(&ws);

    ws.snapshots().restore("base").unwrap();
    clean(&ws);
    let restored = export(&ws, &TreeRef::Live, &tmp.path().join("after"));
    assert_eq!(restored, expected);
    assert_eq!(ws.readonly_paths().unwrap(), vec!["/src/m4".to_string()]);
    assert!(ws.net().contains("example.com").unwrap());
    assert_eq!(ws.quota().unwrap().limit, 1 << 30);
    // The hard link is a hard link again in the restored tree.
    ws.set_readonly("/src/m4", false).unwrap();
    put(&ws, "/src/hard", "both names\n");
    assert_eq!(get(&ws, "/src/m2/f2.txt"), "both names\n");
    // ... and the snapshot did not move.
    let snapshot = export(&ws, &snap("base"), &tmp.path().join("snap"));
    assert_eq!(snapshot, expected);
    clean(&ws);
}

#[test]
fn names_are_checked_and_missing_snapshots_are_named() {
    let ws = ws();
    put(&ws, "/a", "a");
    ws.snapshot("one", "").unwrap();
    assert_err(ws.snapshot("one", ""), Errno::EEXIST, "one");
    assert_err(ws.snapshot("bad name", ""), Errno::EINVAL, "bad name");
    assert_err(ws.snapshot("live", ""), Errno::EINVAL, "live");
    assert_err(ws.snapshot("-x", ""), Errno::EINVAL, "-x");
    assert_err(ws.snapshots().restore("nope"), Errno::ENOENT, "nope");
    assert_err(ws.snapshots().remove("nope"), Errno::ENOENT, "nope");
    assert_err(ws.snapshots().get("nope"), Errno::ENOENT, "nope");
    // Unnamed snapshots get the first free snap-N.
    let auto = ws.snapshots().create(None, "").unwrap();
    assert_eq!(auto.name, "snap-2");
    let names: Vec<_> = ws
        .snapshots()
        .list()
        .unwrap()
        .into_iter()
        .map(|s| s.name)
        .collect();
    assert_eq!(names, ["one", "snap-2"]);
    clean(&ws);
}

#[test]
fn removing_a_snapshot_frees_exactly_the_chunks_only_it_used() {
    let ws = ws();
    put(&ws, "/keep", "kept by both\n");
    put(&ws, "/gone", "only the snapshot keeps this\n");
    let base = ws.usage().unwrap();
    ws.snapshot("s", "").unwrap();
    rmrf(&ws, "/gone");
    put(&ws, "/keep", "kept by both\n");
    // The snapshot still holds /gone's chunk.
    assert_eq!(ws.usage().unwrap().chunks, base.chunks);
    assert_eq!(
        ws.diff(&snap("s"), &TreeRef::Live, &DiffOptions::default())
            .unwrap()
            .files
            .len(),
        1
    );
    ws.snapshots().remove("s").unwrap();
    assert_eq!(ws.usage().unwrap().chunks, base.chunks - 1);
    clean(&ws);
    assert!(ws.snapshots().list().unwrap().is_empty());
}

#[test]
fn a_snapshot_does_not_see_later_writes_and_survives_its_files_removal() {
    let ws = ws();
    put(&ws, "/d/x", "one\n");
    ws.snapshot("s", "").unwrap();
    put(&ws, "/d/x", "two\n");
    rmrf(&ws, "/d");
    clean(&ws);
    let tmp = tempfile::tempdir().unwrap();
    ws.export_tree(&snap("s"), tmp.path()).unwrap();
    assert_eq!(
        std::fs::read_to_string(tmp.path().join("d/x")).unwrap(),
        "one\n"
    );
}

fn git_diff(a: &Path, b: &Path, args: &[&str]) -> String {
    let out = Command::new("/usr/bin/git")
        .args([
            "-c",
            "core.quotepath=off",
            "diff",
            "--no-index",
            "--no-color",
        ])
        .args(args)
        .arg(a.file_name().unwrap())
        .arg(b.file_name().unwrap())
        .current_dir(a.parent().unwrap())
        .output()
        .expect("run git");
    assert!(
        out.status.code().is_some_and(|c| c <= 1),
        "git failed: {out:?}"
    );
    String::from_utf8(out.stdout).unwrap()
}

/// git's paths are `a/PATH` relative to the two directories given; ours are
/// absolute. Strips git's directory prefixes and its `index` lines (we do
/// not hash blobs the git way) and its hunk-header function context.
fn normalize_git(text: &str, a: &str, b: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        if line.starts_with("index ") {
            continue;
        }
        let line = line
            .replace(&format!("a/{a}/"), "a/")
            .replace(&format!("b/{b}/"), "b/")
            .replace(&format!("{a}/"), "")
            .replace(&format!("{b}/"), "");
        let line = match line.strip_prefix("@@ ") {
            Some(rest) => match rest.find(" @@") {
                Some(end) => format!("@@ {} @@", &rest[..end]),
                None => line,
            },
            None => line,
        };
        out.push_str(&line);
        out.push('\n');
    }
    out
}

#[test]
fn diff_matches_git_diff_no_index_of_the_exported_trees() {
    let ws = ws();
    for i in 0..30 {
        let body: String = (0..12).map(|l| format!("line {l} of file {i}\n")).collect();
        put(&ws, &format!("/p/d{}/f{i}.txt", i % 4), &body);
    }
    put(&ws, "/p/bin.dat", "\0\x01\x02binary");
    put(&ws, "/p/no-newline", "last line has none");
    put(&ws, "/p/a-b", "dash sorts before slash\n");
    put(&ws, "/p/a/z", "inside a\n");
    ws.symlink("d0", "/p/link").unwrap();
    ws.snapshot("before", "").unwrap();

    // Modified in the middle, at the ends, binary, no trailing newline.
    let mut body: String = (0..12).map(|l| format!("line {l} of file 5\n")).collect();
    body = body.replace("line 6 of file 5", "LINE SIX");
    put(&ws, "/p/d1/f5.txt", &body);
    put(&ws, "/p/d2/f6.txt", "replaced entirely\n");
    put(&ws, "/p/bin.dat", "\0\x01\x03binary");
    put(&ws, "/p/no-newline", "last line has none, still");
    put(&ws, "/p/a-b", "dash sorts before slash\nmore\n");
    put(&ws, "/p/a/z", "inside a, changed\n");
    rmrf(&ws, "/p/d3");
    put(&ws, "/p/new/file.txt", "brand new\n");
    ws.chmod("/p/d0/f0.txt", 0o755).unwrap();
    rmrf(&ws, "/p/link");
    ws.symlink("d1", "/p/link").unwrap();
    ws.snapshot("after", "").unwrap();

    let tmp = tempfile::tempdir().unwrap();
    ws.export_tree(&snap("before"), &tmp.path().join("A"))
        .unwrap();
    ws.export_tree(&snap("after"), &tmp.path().join("B"))
        .unwrap();
    let (a, b) = (tmp.path().join("A"), tmp.path().join("B"));

    let opts = DiffOptions {
        no_renames: true,
        patch: true,
        ..Default::default()
    };
    let ours = ws.diff(&snap("before"), &snap("after"), &opts).unwrap();
    let theirs = normalize_git(&git_diff(&a, &b, &["--no-renames"]), "A", "B");
    assert_eq!(ours.patch(), theirs);

    // --name-status, with the same letters and order.
    let names: String = ours
        .files
        .iter()
        .map(|f| {
            format!(
                "{}\t{}\n",
                f.status.letter(),
                f.path.trim_start_matches('/')
            )
        })
        .collect();
    let theirs = normalize_git(
        &git_diff(&a, &b, &["--no-renames", "--name-status"]),
        "A",
        "B",
    );
    assert_eq!(names, theirs);

    // --numstat: line counts, `-` for binary (git's --no-index spells the
    // paths as `{A => B}/...`, so only the counts are compared).
    let numstat: Vec<String> = ours
        .files
        .iter()
        .map(|f| match (f.insertions, f.deletions) {
            (Some(i), Some(d)) => format!("{i}\t{d}"),
            _ => "-\t-".to_owned(),
        })
        .collect();
    let theirs: Vec<String> = git_diff(&a, &b, &["--no-renames", "--numstat"])
        .lines()
        .map(|l| l.splitn(3, '\t').take(2).collect::<Vec<_>>().join("\t"))
        .collect();
    assert_eq!(numstat, theirs);

    // A path filter keeps only what is below it.
    let only = ws
        .diff(
            &snap("before"),
            &snap("after"),
            &DiffOptions {
                paths: vec!["/p/d1".into()],
                ..Default::default()
            },
        )
        .unwrap();
    let paths: Vec<_> = only.files.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(paths, ["/p/d1/f5.txt"]);
    clean(&ws);
}

#[test]
fn an_exact_rename_is_paired_as_git_pairs_it() {
    let ws = ws();
    put(&ws, "/old/name.txt", "the same content\n");
    ws.snapshot("a", "").unwrap();
    ws.rename("/old/name.txt", "/new-name.txt").unwrap();
    ws.snapshot("b", "").unwrap();
    let tmp = tempfile::tempdir().unwrap();
    ws.export_tree(&snap("a"), &tmp.path().join("A")).unwrap();
    ws.export_tree(&snap("b"), &tmp.path().join("B")).unwrap();
    let theirs = normalize_git(
        &git_diff(&tmp.path().join("A"), &tmp.path().join("B"), &["-M"]),
        "A",
        "B",
    );
    let ours = ws
        .diff(
            &snap("a"),
            &snap("b"),
            &DiffOptions {
                patch: true,
                ..Default::default()
            },
        )
        .unwrap();
    assert_eq!(ours.files.len(), 1);
    assert_eq!(ours.files[0].status, DiffStatus::Renamed);
    assert_eq!(ours.files[0].old_path.as_deref(), Some("/old/name.txt"));
    assert_eq!(ours.patch(), theirs);
}

#[test]
fn diff_of_identical_trees_is_empty_and_unknown_trees_are_named() {
    let ws = ws();
    put(&ws, "/x", "x");
    ws.snapshot("s", "").unwrap();
    let d = ws
        .diff(&snap("s"), &TreeRef::Live, &DiffOptions::default())
        .unwrap();
    assert!(d.files.is_empty());
    assert_err(
        ws.diff(&snap("nope"), &TreeRef::Live, &DiffOptions::default()),
        Errno::ENOENT,
        "nope",
    );
    assert_err(
        TreeRef::parse("no such/thing"),
        Errno::EINVAL,
        "no such/thing",
    );
    assert_eq!(
        TreeRef::parse("run:r1:before").unwrap(),
        TreeRef::RunBefore("r1".into())
    );
    assert_eq!(
        TreeRef::parse("run:r1").unwrap(),
        TreeRef::RunAfter("r1".into())
    );
}

/// A run as the runtime records one: created, some writes, finished.
fn run(ws: &Workspace, id: &str, body: impl FnOnce()) {
    ws.runs()
        .create(&NewRun {
            id,
            backend: "test",
            source: "",
            options: "{}",
        })
        .unwrap();
    body();
    ws.runs()
        .finish(id, &RunEnd::new(RunStatus::Completed))
        .unwrap();
}

#[test]
fn undo_reverts_exactly_what_the_run_changed() {
    let ws = ws();
    put(&ws, "/app/keep.txt", "keep\n");
    put(&ws, "/app/edit.txt", "original\n");
    put(&ws, "/app/old/gone.txt", "will be removed\n");
    let tmp = tempfile::tempdir().unwrap();
    let before = export(&ws, &TreeRef::Live, &tmp.path().join("before"));
    run(&ws, "r1", || {
        put(&ws, "/app/edit.txt", "edited by the run\n");
        rmrf(&ws, "/app/old");
        put(&ws, "/app/new/made.txt", "made by the run\n");
        ws.chmod("/app/keep.txt", 0o700).unwrap();
    });
    // A later, unrelated change stays.
    put(&ws, "/other.txt", "after the run\n");
    let d = ws.run_diff("r1", &DiffOptions::default()).unwrap();
    let paths: Vec<_> = d.files.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "/app/edit.txt",
            "/app/keep.txt",
            "/app/new/made.txt",
            "/app/old/gone.txt"
        ]
    );

    let report = ws.undo("r1").unwrap();
    assert!(report.conflicts.is_empty());
    assert_eq!(
        report.reverted,
        ["/app/edit.txt", "/app/keep.txt", "/app/new", "/app/old"]
    );
    rmrf(&ws, "/other.txt");
    assert_eq!(
        export(&ws, &TreeRef::Live, &tmp.path().join("undone")),
        before
    );
    clean(&ws);
}

#[test]
fn undo_refuses_when_something_changed_the_same_paths_since_and_force_reverts_the_rest() {
    let ws = ws();
    put(&ws, "/a.txt", "a0\n");
    put(&ws, "/b.txt", "b0\n");
    run(&ws, "r1", || {
        put(&ws, "/a.txt", "a1\n");
        put(&ws, "/b.txt", "b1\n");
        put(&ws, "/c.txt", "c1\n");
    });
    // Someone else changes b and removes c after the run.
    put(&ws, "/b.txt", "b2\n");
    rmrf(&ws, "/c.txt");
    let rev = ws.rev().unwrap();
    let err = ws.undo("r1").unwrap_err();
    assert_eq!(err.code, Errno::EPERM);
    assert!(
        err.message.contains("/b.txt") && err.message.contains("/c.txt"),
        "{}",
        err.message
    );
    assert!(!err.message.contains("/a.txt"), "{}", err.message);
    // Nothing changed.
    assert_eq!(ws.rev().unwrap(), rev);
    assert_eq!(get(&ws, "/a.txt"), "a1\n");

    let report = ws.undo_with("r1", true).unwrap();
    assert_eq!(report.reverted, ["/a.txt"]);
    assert_eq!(report.conflicts, ["/b.txt", "/c.txt"]);
    assert_eq!(get(&ws, "/a.txt"), "a0\n");
    assert_eq!(get(&ws, "/b.txt"), "b2\n");
    clean(&ws);
}

#[test]
fn undo_names_runs_it_cannot_undo() {
    let ws = ws();
    assert_err(ws.undo("missing"), Errno::ENOENT, "missing");
    ws.runs()
        .create(&NewRun {
            id: "open",
            backend: "test",
            source: "",
            options: "{}",
        })
        .unwrap();
    let err = ws.undo("open").unwrap_err();
    assert_eq!(err.code, Errno::ENOENT);
    assert!(err.message.contains("not ended"), "{}", err.message);
}

#[test]
fn runs_that_change_nothing_share_one_pinned_tree_and_fsck_stays_clean() {
    let ws = ws();
    put(&ws, "/f", "f\n");
    for i in 0..5 {
        run(&ws, &format!("idle{i}"), || {});
    }
    let usage = ws.usage().unwrap();
    run(&ws, "busy", || put(&ws, "/f", "g\n"));
    clean(&ws);
    // Only the run's new content and the paths it cloned were added.
    assert_eq!(ws.usage().unwrap().chunks, usage.chunks + 1);
    assert!(
        ws.run_diff("idle3", &DiffOptions::default())
            .unwrap()
            .files
            .is_empty()
    );
}

#[test]
fn info_counts_what_only_a_snapshot_holds_and_gc_frees_what_only_old_runs_hold() {
    let ws = ws();
    put(&ws, "/shared", "in every tree\n");
    put(&ws, "/mine", "only the snapshot will keep this\n");
    ws.snapshot("s", "").unwrap();
    rmrf(&ws, "/mine");
    let space = ws.snapshot_space().unwrap();
    assert_eq!(space.len(), 1);
    assert_eq!(space[0].exclusive_chunks, 1);
    assert_eq!(
        space[0].exclusive_bytes,
        "only the snapshot will keep this\n".len() as u64
    );

    // A run overwrites a file: its before tree keeps the old content.
    put(&ws, "/big", "content the run replaces\n");
    run(&ws, "r", || put(&ws, "/big", "the run's content\n"));
    let before = ws.usage().unwrap().chunks;
    let kept = ws.gc(1).unwrap();
    assert_eq!(kept.chunks_freed, 0, "the newest run keeps its trees");
    let report = ws.gc(0).unwrap();
    assert_eq!(report.runs_dropped, 1);
    assert_eq!(report.chunks_freed, 1);
    assert_eq!(report.chunks_left, before - 1);
    clean(&ws);
    assert_err(ws.undo("r"), Errno::ENOENT, "r");
    // The snapshot's exclusive chunk is still there until it goes.
    ws.snapshots().remove("s").unwrap();
    assert_eq!(ws.usage().unwrap().chunks, 2);
    clean(&ws);
}

#[test]
fn forks_start_from_the_same_state_and_stay_isolated_from_the_parent_and_each_other() {
    let dir = tempfile::tempdir().unwrap();
    let parent = Workspace::open(dir.path().join("parent.db")).unwrap();
    put(&parent, "/app/main.txt", "v1\n");
    parent.net().allow("example.com").unwrap();
    parent.snapshot("v1", "").unwrap();
    put(&parent, "/app/main.txt", "v2\n");
    // A run that has not ended stays with the parent.
    parent
        .runs()
        .create(&NewRun {
            id: "busy",
            backend: "test",
            source: "",
            options: "{}",
        })
        .unwrap();

    let a = parent
        .fork("a", &dir.path().join("forks/a.db"), None)
        .unwrap();
    let b = parent
        .fork("b", &dir.path().join("forks/b.db"), Some("v1"))
        .unwrap();
    let fa = Workspace::open(&a.path).unwrap();
    let fb = Workspace::open(&b.path).unwrap();
    assert_eq!(get(&fa, "/app/main.txt"), "v2\n");
    assert_eq!(get(&fb, "/app/main.txt"), "v1\n");
    assert!(fb.net().contains("example.com").unwrap());
    assert!(fa.runs().get("busy").unwrap().is_none());
    assert!(parent.runs().get("busy").unwrap().is_some());
    // The forks keep the snapshots; each can restore and diff on its own.
    assert_eq!(fa.snapshots().list().unwrap().len(), 1);

    put(&fa, "/app/main.txt", "written in a\n");
    put(&fb, "/app/only-b.txt", "b\n");
    rmrf(&parent, "/app");
    assert_eq!(get(&fa, "/app/main.txt"), "written in a\n");
    assert!(!fa.exists("/app/only-b.txt").unwrap());
    assert_eq!(get(&fb, "/app/main.txt"), "v1\n");
    assert!(!parent.exists("/app").unwrap());
    // gc in one never frees what another uses.
    fa.gc(0).unwrap();
    parent.gc(0).unwrap();
    for w in [&parent, &fa, &fb] {
        clean(w);
    }
    assert_eq!(get(&fb, "/app/main.txt"), "v1\n");

    let names: Vec<_> = parent
        .forks()
        .unwrap()
        .into_iter()
        .map(|f| f.name)
        .collect();
    assert_eq!(names, ["a", "b"]);
    assert!(fa.forks().unwrap().is_empty());
    assert_err(
        parent.fork("a", &dir.path().join("other.db"), None),
        Errno::EEXIST,
        "a",
    );
    assert_err(parent.fork("c", &a.path, None), Errno::EEXIST, "a.db");
    assert_err(
        parent.fork("d", &dir.path().join("d.db"), Some("nope")),
        Errno::ENOENT,
        "nope",
    );
    assert_err(
        parent.fork("bad name", &dir.path().join("e.db"), None),
        Errno::EINVAL,
        "bad name",
    );
    assert!(!dir.path().join("d.db").exists());
}

#[test]
fn diff_across_forks_matches_git_diff_no_index_of_the_exported_trees() {
    let dir = tempfile::tempdir().unwrap();
    let parent = Workspace::open(dir.path().join("parent.db")).unwrap();
    for i in 0..12 {
        let body: String = (0..8).map(|l| format!("line {l} of {i}\n")).collect();
        put(&parent, &format!("/p/d{}/f{i}.txt", i % 3), &body);
    }
    put(&parent, "/p/bin.dat", "\0\x01binary");
    parent.symlink("d0", "/p/link").unwrap();
    parent.snapshot("base", "").unwrap();
    parent
        .fork("a", &dir.path().join("forks/a.db"), None)
        .unwrap();
    parent
        .fork("b", &dir.path().join("forks/b.db"), Some("base"))
        .unwrap();
    let fa = Workspace::open(dir.path().join("forks/a.db")).unwrap();
    let fb = Workspace::open(dir.path().join("forks/b.db")).unwrap();
    // Each side changes on its own, so node ids diverge between the files
    // (new nodes in each get the same ids for different content).
    put(&fa, "/p/d0/f3.txt", "changed in a\n");
    put(&fa, "/p/new-in-a.txt", "a\n");
    fa.chmod("/p/d1/f1.txt", 0o755).unwrap();
    rmrf(&fa, "/p/d2");
    put(&fb, "/p/new-in-b.txt", "b\n");
    put(&fb, "/p/bin.dat", "\0\x02binary");
    rmrf(&fb, "/p/link");
    fb.symlink("d1", "/p/link").unwrap();
    put(&parent, "/p/d1/f4.txt", "changed in the parent\n");

    let tmp = tempfile::tempdir().unwrap();
    let opts = DiffOptions {
        no_renames: true,
        patch: true,
        ..Default::default()
    };
    let fork = |n: &str| TreeRef::Fork(n.into());
    for (x, y, xn, yn) in [
        (fork("a"), fork("b"), "A", "B"),
        (TreeRef::Live, fork("a"), "L", "A2"),
        (fork("b"), snap("base"), "B2", "S"),
        (fork("a"), fork("a"), "A3", "A4"),
    ] {
        let (px, py) = (tmp.path().join(xn), tmp.path().join(yn));
        parent.export_tree(&x, &px).unwrap();
        parent.export_tree(&y, &py).unwrap();
        let ours = parent.diff(&x, &y, &opts).unwrap();
        let theirs = normalize_git(&git_diff(&px, &py, &["--no-renames"]), xn, yn);
        assert_eq!(ours.patch(), theirs, "{x} against {y}");
        assert_eq!(ours.to, y.to_string());
    }
    // An unknown fork, and one whose file is gone, are named.
    assert_err(
        parent.diff(&TreeRef::Live, &fork("nope"), &opts),
        Errno::ENOENT,
        "nope",
    );
    std::fs::remove_file(dir.path().join("forks/b.db")).unwrap();
    assert_err(
        parent.diff(&TreeRef::Live, &fork("b"), &opts),
        Errno::ENOENT,
        "b.db",
    );
    assert_eq!(TreeRef::parse("fork:a").unwrap(), fork("a"));
    assert_eq!(
        TreeRef::parse("fork:bad name").unwrap_err().code,
        Errno::EINVAL
    );
}

#[test]
fn a_snapshot_shares_the_root_itself_and_every_kind_of_change_at_the_top_leaves_it_alone() {
    let ws = ws();
    for i in 0..20 {
        put(&ws, &format!("/top{i}.txt"), &format!("{i}\n"));
    }
    put(&ws, "/dir/inner.txt", "inner\n");
    let nodes = ws.usage().unwrap().nodes;
    ws.snapshot("s", "").unwrap();
    // O(1): not one node was made, whatever `/` holds.
    assert_eq!(ws.usage().unwrap().nodes, nodes);
    let tmp = tempfile::tempdir().unwrap();
    let expected = export(&ws, &snap("s"), &tmp.path().join("s0"));
    clean(&ws);

    // Every kind of change that touches `/` itself.
    ws.chmod("/", 0o700).unwrap();
    put(&ws, "/top0.txt", "rewritten\n");
    put(&ws, "/new.txt", "new\n");
    ws.rename("/top1.txt", "/renamed.txt").unwrap();
    rmrf(&ws, "/top2.txt");
    ws.symlink("dir", "/link").unwrap();
    ws.link("/top3.txt", "/hard").unwrap();
    put(&ws, "/hard", "through a hard link\n");
    ws.copy("/dir", "/dir2", true).unwrap();
    put(&ws, "/dir/inner.txt", "changed inside\n");
    ws.mkdir(
        "/a/b/c",
        &computer_store::MkdirOptions {
            recursive: true,
            mode: None,
        },
    )
    .unwrap();
    clean(&ws);
    assert_eq!(get(&ws, "/top3.txt"), "through a hard link\n");
    assert_eq!(export(&ws, &snap("s"), &tmp.path().join("s1")), expected);

    // A second snapshot now has hard links to keep apart; restore the first.
    ws.snapshot("t", "").unwrap();
    put(&ws, "/hard", "after t\n");
    assert_eq!(get(&ws, "/top3.txt"), "after t\n");
    ws.snapshots().restore("s").unwrap();
    clean(&ws);
    assert_eq!(
        export(&ws, &TreeRef::Live, &tmp.path().join("live")),
        expected
    );
    // Restoring shares the snapshot's root: a change after it leaves s alone.
    put(&ws, "/top0.txt", "after restore\n");
    assert_eq!(export(&ws, &snap("s"), &tmp.path().join("s2")), expected);
    ws.snapshots().restore("t").unwrap();
    assert_eq!(get(&ws, "/hard"), "through a hard link\n");
    put(&ws, "/hard", "linked again\n");
    assert_eq!(get(&ws, "/top3.txt"), "linked again\n");
    ws.snapshots().remove("s").unwrap();
    ws.snapshots().remove("t").unwrap();
    clean(&ws);
}

/// Forks made while another handle keeps writing the parent: each fork is
/// one state of the parent (the writer's files, one per transaction, are
/// a prefix f0..fN with none missing, and fsck is clean), and afterwards
/// writers in the parent and in every fork, at the same time, see only
/// their own writes.
#[test]
fn forks_made_and_written_under_concurrent_writers_stay_consistent_and_isolated() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};

    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("parent.db");
    let parent = Arc::new(Workspace::open(&db).unwrap());
    let stop = Arc::new(AtomicBool::new(false));
    // A second handle (its own connections), writing one file per
    // transaction.
    let writer = {
        let ws = Workspace::open(&db).unwrap();
        let stop = stop.clone();
        std::thread::spawn(move || {
            let mut i = 0u32;
            while !stop.load(Ordering::Relaxed) || i < 20 {
                put(&ws, &format!("/files/f{i}"), &format!("{i}"));
                i += 1;
            }
            i
        })
    };
    let mut forks = Vec::new();
    for k in 0..4 {
        let info = parent
            .fork(
                &format!("f{k}"),
                &dir.path().join(format!("forks/f{k}.db")),
                None,
            )
            .unwrap();
        forks.push(Workspace::open(&info.path).unwrap());
    }
    stop.store(true, Ordering::Relaxed);
    let written = writer.join().unwrap();
    for (k, f) in forks.iter().enumerate() {
        clean(f);
        let n = f
            .readdir("/files", computer_store::Page::default())
            .map(|v| v.len())
            .unwrap_or(0);
        for i in 0..n {
            assert_eq!(get(f, &format!("/files/f{i}")), i.to_string(), "fork {k}");
        }
    }
    let n = parent
        .readdir("/files", computer_store::Page::default())
        .unwrap()
        .len();
    assert_eq!(n, written as usize);

    // Now every workspace is written at once; each sees its own writes only.
    let all: Vec<Arc<Workspace>> = std::iter::once(parent.clone())
        .chain(forks.into_iter().map(Arc::new))
        .collect();
    let threads: Vec<_> = all
        .iter()
        .enumerate()
        .map(|(k, ws)| {
            let ws = ws.clone();
            std::thread::spawn(move || {
                for i in 0..30 {
                    put(&ws, &format!("/own/w{k}-{i}"), &format!("{k}"));
                    put(&ws, "/files/f0", &format!("changed by {k}"));
                }
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    for (k, ws) in all.iter().enumerate() {
        let own: Vec<String> = ws
            .readdir("/own", computer_store::Page::default())
            .unwrap()
            .into_iter()
            .map(|s| s.name)
            .collect();
        assert_eq!(own.len(), 30, "workspace {k}");
        assert!(
            own.iter().all(|n| n.starts_with(&format!("w{k}-"))),
            "{own:?}"
        );
        assert_eq!(get(ws, "/files/f0"), format!("changed by {k}"));
        clean(ws);
    }
}
