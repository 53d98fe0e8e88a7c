//! `computer snapshot`, `diff`, `undo`, `fork`, `forks` and `gc` through
//! the binary (issue 37). Diffs are checked against `git diff --no-index`
//! of the exported trees; trees are compared byte for byte on the host.

use std::path::Path;
use std::process::Command;

use computer_tests::{Ws, describe, text};

/// Runs a shell command in the workspace; it must exit 0. Returns the run id.
fn exec(ws: &Ws, script: &str) -> String {
    let args = ["--json", "exec", script];
    let out = ws.run(&args, "");
    assert!(out.status.success(), "{}", describe(&args, &out));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON document");
    assert_eq!(doc["exit_code"], 0, "{doc}");
    doc["run_id"].as_str().unwrap().to_owned()
}

/// Every entry under `dir` with its mode and bytes (or target).
fn listing(dir: &Path) -> Vec<String> {
    use std::os::unix::fs::PermissionsExt;
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            let rel = p.strip_prefix(dir).unwrap().display().to_string();
            let meta = std::fs::symlink_metadata(&p).unwrap();
            let mode = meta.permissions().mode() & 0o7777;
            if meta.file_type().is_symlink() {
                out.push(format!(
                    "L {rel} {}",
                    std::fs::read_link(&p).unwrap().display()
                ));
            } else if meta.is_dir() {
                out.push(format!("D {rel} {mode:o}"));
                stack.push(p);
            } else {
                out.push(format!("F {rel} {mode:o} {:?}", std::fs::read(&p).unwrap()));
            }
        }
    }
    out.sort();
    out
}

fn export_live(ws: &Ws, name: &str) -> Vec<String> {
    let host = ws.host(name);
    ws.ok(&["export", "/", host.to_str().unwrap()]);
    listing(&host)
}

fn fsck_clean(ws: &Ws) {
    let doc = ws.json(&["fsck"]);
    assert_eq!(doc["clean"], true, "{doc}");
}

#[test]
fn snapshot_lifecycle_with_json_and_clear_errors() {
    let ws = Ws::new();
    ws.put("/a.txt", "a\n");
    let doc = ws.json(&["snapshot", "create", "first", "-m", "a safe point"]);
    assert_eq!(doc["snapshot"]["name"], "first");
    assert_eq!(doc["snapshot"]["message"], "a safe point");
    assert_eq!(doc["snapshot"]["actor"], "cli");
    let auto = ws.json(&["snapshot", "create"]);
    assert_eq!(auto["snapshot"]["name"], "snap-2");
    let ls = ws.json(&["snapshot", "ls"]);
    let names: Vec<&str> = ls["snapshots"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["first", "snap-2"]);
    assert!(
        ws.ok(&["snapshot", "show", "first"])
            .contains("message: a safe point")
    );

    let (code, msg) = ws.err(&["snapshot", "create", "first"]);
    assert_eq!(code, "EEXIST");
    assert!(msg.contains("first"), "{msg}");
    let (code, msg) = ws.err(&["snapshot", "restore", "missing"]);
    assert_eq!(code, "ENOENT");
    assert!(msg.contains("missing"), "{msg}");
    let (code, msg) = ws.err(&["snapshot", "create", "no/slashes"]);
    assert_eq!(code, "EINVAL");
    assert!(msg.contains("no/slashes"), "{msg}");
    assert_eq!(ws.errno(&["snapshot", "rm", "missing"]), "ENOENT");

    ws.ok(&["snapshot", "rm", "snap-2"]);
    assert_eq!(
        ws.json(&["snapshot", "ls"])["snapshots"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
    // The audit log says who did each.
    let audit = ws.json(&["audit"]);
    let ops: Vec<String> = audit["audit"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            format!(
                "{} {} {}",
                r["actor"].as_str().unwrap(),
                r["operation"].as_str().unwrap(),
                r["outcome"].as_str().unwrap()
            )
        })
        .collect();
    assert!(
        ops.contains(&"cli snapshot_create ok".to_string()),
        "{ops:?}"
    );
    assert!(ops.contains(&"cli snapshot_rm ok".to_string()), "{ops:?}");
    fsck_clean(&ws);
}

#[test]
fn restore_after_many_changes_is_byte_identical_and_keeps_run_history() {
    let ws = Ws::new();
    exec(
        &ws,
        "mkdir -p /w/a /w/b && for i in $(seq 1 30); do echo \"file $i\" > /w/a/f$i; done; \
         printf 'x\\0y' > /w/b/bin; ln -s a /w/link; chmod 755 /w/a/f1",
    );
    ws.ok(&["net", "allow", "example.com"]);
    ws.ok(&["snapshot", "create", "base"]);
    let before = export_live(&ws, "before");
    let runs_before = ws.json(&["runs"])["runs"].as_array().unwrap().len();

    exec(
        &ws,
        "for i in $(seq 1 30 2); do echo changed >> /w/a/f$i; done; rm -r /w/b; mv /w/a/f2 /w/moved; \
         chmod 600 /w/a/f1; mkdir -p /w/new/deep && echo n > /w/new/deep/n; rm /w/link; ln -s b /w/link",
    );
    ws.ok(&["net", "deny", "example.com"]);
    ws.ok(&["snapshot", "restore", "base"]);
    assert_eq!(export_live(&ws, "after"), before);
    assert!(ws.ok(&["net", "ls"]).contains("example.com"));
    // Restoring left the runs alone (both exec runs are still listed).
    assert_eq!(
        ws.json(&["runs"])["runs"].as_array().unwrap().len(),
        runs_before + 1
    );
    fsck_clean(&ws);
}

fn git_no_index(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("/usr/bin/git")
        .args([
            "-c",
            "core.quotepath=off",
            "diff",
            "--no-index",
            "--no-color",
        ])
        .args(args)
        .args(["A", "B"])
        .current_dir(dir)
        .output()
        .expect("run git");
    assert!(out.status.code().is_some_and(|c| c <= 1), "{out:?}");
    text(&out.stdout)
}

/// git's output for trees exported to `A` and `B`, with paths as ours
/// (`a/PATH`, `/PATH`), without `index` lines and hunk-header context.
fn normalized(git: &str) -> String {
    git.lines()
        .filter(|l| !l.starts_with("index "))
        .map(|l| {
            // git names an added file `a/B/...` and a deleted one `b/A/...`.
            let l = l
                .replace("a/A/", "a/")
                .replace("b/B/", "b/")
                .replace("a/B/", "a/")
                .replace("b/A/", "b/");
            let l = match l
                .strip_prefix("@@ ")
                .and_then(|r| r.find(" @@").map(|e| (r, e)))
            {
                Some((r, e)) => format!("@@ {} @@", &r[..e]),
                None => l,
            };
            format!("{l}\n")
        })
        .collect()
}

#[test]
fn diff_agrees_with_git_diff_no_index_of_the_exported_snapshots() {
    let ws = Ws::new();
    exec(
        &ws,
        "mkdir -p /p/src /p/docs && for i in $(seq 1 20); do seq 1 15 | sed \"s/^/line $i./\" > /p/src/m$i.txt; done; \
         echo readme > /p/docs/README; printf 'no newline' > /p/docs/nl",
    );
    ws.ok(&["snapshot", "create", "one"]);
    exec(
        &ws,
        "sed -i 's/line 3.7$/LINE SEVEN/' /p/src/m3.txt; echo tail >> /p/src/m4.txt; rm /p/src/m5.txt; \
         echo added > /p/docs/new.md; printf 'no newline either' > /p/docs/nl; chmod +x /p/src/m6.txt",
    );
    ws.ok(&["snapshot", "create", "two"]);
    for (name, dir) in [("one", "A"), ("two", "B")] {
        ws.ok(&["snapshot", "export", name, ws.host(dir).to_str().unwrap()]);
    }
    let ours = ws.ok(&["diff", "one", "two", "--no-renames"]);
    assert_eq!(ours, normalized(&git_no_index(ws.dir(), &["--no-renames"])));

    let ours = ws.ok(&["diff", "one", "two", "--name-status"]);
    let theirs: String = git_no_index(ws.dir(), &["--no-renames", "--name-status"])
        .lines()
        .map(|l| format!("{}\n", l.replace("\tA/", "\t/").replace("\tB/", "\t/")))
        .collect();
    assert_eq!(ours, theirs);

    // --stat ends with git's summary line.
    let ours = ws.ok(&["diff", "one", "two", "--stat"]);
    let theirs = git_no_index(ws.dir(), &["--no-renames", "--shortstat"]);
    assert_eq!(ours.lines().last().unwrap(), theirs.trim_end());

    // The live tree is the default second tree; paths narrow it.
    let live = ws.ok(&["diff", "one", "--name-only", "--", "/p/docs"]);
    assert_eq!(live, "/p/docs/new.md\n/p/docs/nl\n");
    let doc = ws.json(&["diff", "one", "two"]);
    assert_eq!(doc["summary"]["files"], 6);
    assert_eq!(ws.errno(&["diff", "one", "nope"]), "ENOENT");
    assert_eq!(ws.errno(&["diff", "bad/name"]), "EINVAL");
}

#[test]
fn undo_reverts_a_run_and_refuses_when_its_paths_changed_since() {
    let ws = Ws::new();
    ws.put("/cfg/a.conf", "a=1\n");
    ws.put("/cfg/b.conf", "b=1\n");
    let before = export_live(&ws, "before");
    let run = exec(
        &ws,
        "echo a=2 > /cfg/a.conf; echo b=2 > /cfg/b.conf; echo c > /cfg/c.conf",
    );
    let names = ws.ok(&["diff", "--run", &run, "--name-status"]);
    assert_eq!(names, "M\t/cfg/a.conf\nM\t/cfg/b.conf\nA\t/cfg/c.conf\n");

    // Undo, then the tree is what it was before the run.
    let doc = ws.json(&["undo", &run]);
    assert_eq!(doc["undo"]["reverted"].as_array().unwrap().len(), 3);
    assert_eq!(export_live(&ws, "undone"), before);

    // A second run, then someone else changes one of its paths.
    let run = exec(&ws, "echo a=3 > /cfg/a.conf; echo b=3 > /cfg/b.conf");
    ws.put("/cfg/b.conf", "b=edited by hand\n");
    let (code, msg) = ws.err(&["undo", &run]);
    assert_eq!(code, "EPERM");
    assert!(
        msg.contains("/cfg/b.conf") && !msg.contains("/cfg/a.conf"),
        "{msg}"
    );
    assert_eq!(ws.cat("/cfg/a.conf"), "a=3\n");
    let doc = ws.json(&["undo", &run, "--force"]);
    assert_eq!(doc["undo"]["conflicts"], serde_json::json!(["/cfg/b.conf"]));
    assert_eq!(ws.cat("/cfg/a.conf"), "a=1\n");
    assert_eq!(ws.cat("/cfg/b.conf"), "b=edited by hand\n");
    assert_eq!(ws.errno(&["undo", "no-such-run"]), "ENOENT");
    fsck_clean(&ws);
}

/// Runs a script and returns its stdout (it must exit 0).
fn exec_out(ws: &Ws, script: &str) -> String {
    let args = ["--json", "exec", script];
    let out = ws.run(&args, "");
    assert!(out.status.success(), "{}", describe(&args, &out));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON document");
    assert_eq!(doc["exit_code"], 0, "{doc}");
    doc["stdout"].as_str().unwrap().to_owned()
}

/// The inode numbers of `paths` as the shell's `stat -c %i`, Python's
/// `os.stat().st_ino` and the library (`fs stat`) see them; all three
/// must agree.
fn inos(ws: &Ws, paths: &[&str]) -> Vec<u64> {
    let list = paths.join(" ");
    let shell: Vec<u64> = exec_out(ws, &format!("stat -c %i {list}"))
        .lines()
        .map(|l| l.parse().unwrap())
        .collect();
    let py: Vec<u64> = exec_out(
        ws,
        &format!(
            "python3 -c 'import os, sys; [print(os.stat(p).st_ino) for p in sys.argv[1:]]' {list}"
        ),
    )
    .lines()
    .map(|l| l.parse().unwrap())
    .collect();
    let lib: Vec<u64> = paths
        .iter()
        .map(|p| ws.json(&["fs", "stat", p])["ino"].as_u64().unwrap())
        .collect();
    assert_eq!(shell, lib, "stat -c %i and the library disagree");
    assert_eq!(py, lib, "os.stat and the library disagree");
    lib
}

#[test]
fn inode_numbers_stay_across_runs_snapshots_and_renames_and_a_copy_gets_its_own() {
    let ws = Ws::new();
    ws.put("/d/f", "one\n");
    let paths = ["/d", "/d/f"];
    let first = inos(&ws, &paths);
    assert_ne!(first[0], first[1]);
    // Runs that change the file and the directory (every run pins its
    // trees), with snapshots between them.
    exec(&ws, "echo two > /d/f; echo more >> /d/f; touch /d/new1");
    assert_eq!(inos(&ws, &paths), first);
    ws.ok(&["snapshot", "create", "s1"]);
    assert_eq!(inos(&ws, &paths), first);
    exec(
        &ws,
        "python3 -c 'open(\"/d/f\", \"a\").write(\"py\\n\")'; mkdir /d/sub; rm /d/new1",
    );
    assert_eq!(inos(&ws, &paths), first);
    ws.ok(&["snapshot", "create", "s2"]);
    exec(&ws, "echo three > /d/f; chmod 600 /d/f");
    assert_eq!(inos(&ws, &paths), first);
    // A rename keeps the number of what moves.
    exec(&ws, "mv /d /moved && mv /moved/f /moved/g");
    assert_eq!(inos(&ws, &["/moved", "/moved/g"]), first);
    // A copy's numbers are its own, from the start, and stay.
    exec(&ws, "cp -r /moved /copy");
    let copy = inos(&ws, &["/copy", "/copy/g"]);
    assert!(
        copy.iter().all(|n| !first.contains(n)) && copy[0] != copy[1],
        "{copy:?} vs {first:?}"
    );
    exec(&ws, "echo changed > /copy/g; echo changed > /moved/g");
    assert_eq!(inos(&ws, &["/copy", "/copy/g"]), copy);
    assert_eq!(inos(&ws, &["/moved", "/moved/g"]), first);
    fsck_clean(&ws);
}

#[test]
fn forks_are_isolated_from_the_parent_and_from_each_other() {
    let ws = Ws::new();
    ws.put("/src/app.txt", "version=0\n");
    ws.ok(&["snapshot", "create", "start"]);
    ws.put("/src/app.txt", "version=parent\n");
    let doc = ws.json(&["fork", "try", "--count", "3", "--from", "start"]);
    let paths: Vec<String> = doc["forks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(paths.len(), 3);
    for (i, path) in paths.iter().enumerate() {
        let args = [
            "--workspace",
            path.as_str(),
            "exec",
            &format!("sed -i 's/0/{i}/' /src/app.txt"),
        ];
        let out = computer_tests::computer(ws.dir())
            .args(args)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", describe(&args, &out));
    }
    for (i, path) in paths.iter().enumerate() {
        let args = ["--workspace", path.as_str(), "fs", "read", "/src/app.txt"];
        let out = computer_tests::computer(ws.dir())
            .args(args)
            .output()
            .unwrap();
        assert_eq!(text(&out.stdout), format!("version={i}\n"));
        let args = ["--workspace", path.as_str(), "--json", "fsck"];
        let out = computer_tests::computer(ws.dir())
            .args(args)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", describe(&args, &out));
    }
    assert_eq!(ws.cat("/src/app.txt"), "version=parent\n");
    // diff compares forks with each other and with the parent, as git
    // compares their exported trees.
    let in_fork = |path: &str, script: &str| {
        let args = ["--workspace", path, "exec", script];
        let out = computer_tests::computer(ws.dir())
            .args(args)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", describe(&args, &out));
    };
    in_fork(&paths[0], "echo only in one > /src/one.txt; mkdir /src/d");
    in_fork(&paths[1], "seq 1 5 > /src/two.txt; chmod +x /src/app.txt");
    for (x, y, ex, ey) in [
        ("fork:try-1", "fork:try-2", Some(&paths[0]), Some(&paths[1])),
        ("live", "fork:try-2", None, Some(&paths[1])),
    ] {
        for (dir, fork) in [("A", ex), ("B", ey)] {
            let host = ws.host(dir);
            let _ = std::fs::remove_dir_all(&host);
            let export = ["export", "/", host.to_str().unwrap()];
            match fork {
                None => drop(ws.ok(&export)),
                Some(f) => {
                    let args = [&["--workspace", f.as_str()][..], &export].concat();
                    let out = computer_tests::computer(ws.dir())
                        .args(&args)
                        .output()
                        .unwrap();
                    assert!(out.status.success(), "{}", describe(&args, &out));
                }
            }
        }
        let ours = ws.ok(&["diff", x, y, "--no-renames"]);
        assert_eq!(
            ours,
            normalized(&git_no_index(ws.dir(), &["--no-renames"])),
            "{x} {y}"
        );
    }
    assert_eq!(ws.errno(&["diff", "live", "fork:nope"]), "ENOENT");
    let listed = ws.json(&["forks"]);
    assert_eq!(listed["forks"].as_array().unwrap().len(), 3);
    assert_eq!(ws.errno(&["fork", "try-1"]), "EEXIST");
    assert_eq!(ws.errno(&["fork", "x", "--from", "nope"]), "ENOENT");
    fsck_clean(&ws);
}

#[test]
fn gc_frees_what_only_old_runs_hold_and_info_shows_what_snapshots_hold_alone() {
    let ws = Ws::new();
    ws.put("/keep.txt", "kept\n");
    ws.put("/only-snap.txt", "only the snapshot keeps this\n");
    ws.ok(&["snapshot", "create", "s"]);
    ws.ok(&["fs", "rm", "/only-snap.txt"]);
    exec(&ws, "echo replaced-by-run > /keep.txt");
    let info = ws.json(&["info"]);
    assert_eq!(info["snapshots"][0]["name"], "s");
    let doc = ws.json(&["gc"]);
    // The run's before tree held "kept\n", which the snapshot holds too.
    assert_eq!(doc["gc"]["runs_dropped"], 1);
    assert_eq!(doc["gc"]["chunks_freed"], 0);
    let info = ws.json(&["info"]);
    assert_eq!(info["snapshots"][0]["exclusive_chunks"], 2);
    fsck_clean(&ws);
    ws.ok(&["snapshot", "rm", "s"]);
    let usage = ws.json(&["info"])["usage"]["chunks"].as_u64().unwrap();
    assert_eq!(usage, 1, "only /keep.txt's content is left");
    fsck_clean(&ws);
}

/// A pseudo-random delay in `0..max_ms` milliseconds (no rand crate here).
fn jitter(max_ms: u64, salt: u64) -> std::time::Duration {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .subsec_nanos() as u64;
    let x = (nanos ^ salt.wrapping_mul(0x9E37_79B9_7F4A_7C15)).wrapping_mul(0x2545_F491_4F6C_DD1D);
    std::time::Duration::from_millis(x % max_ms)
}

/// Starts `computer ARGS` and kills it after `delay` (if it is still running).
fn kill_after(ws: &Ws, args: &[&str], delay: std::time::Duration) {
    let mut child = ws
        .command(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("start computer");
    std::thread::sleep(delay);
    let _ = child.kill();
    let _ = child.wait();
}

#[test]
fn history_operations_killed_at_any_moment_leave_one_state_or_the_other() {
    for trial in 0..4u64 {
        let ws = Ws::new();
        let run = exec(
            &ws,
            "mkdir -p /many && for i in $(seq 1 400); do echo $i > /many/f$i; done",
        );
        ws.ok(&["snapshot", "create", "empty-many"]);
        kill_after(&ws, &["undo", &run], jitter(40, trial));
        fsck_clean(&ws);
        let left_after = ws.ok(&["diff", &format!("run:{run}:after"), "live", "--name-only"]);
        let left_before = ws.ok(&["diff", &format!("run:{run}:before"), "live", "--name-only"]);
        assert!(
            left_after.is_empty() || left_before.is_empty(),
            "trial {trial}: undo half done: {} paths differ from after, {} from before",
            left_after.lines().count(),
            left_before.lines().count()
        );

        ws.put("/many/extra", "x");
        kill_after(
            &ws,
            &["snapshot", "restore", "empty-many"],
            jitter(20, trial + 7),
        );
        fsck_clean(&ws);

        kill_after(
            &ws,
            &["fork", "f", "--dir", ws.dir().to_str().unwrap()],
            jitter(30, trial + 13),
        );
        fsck_clean(&ws);
        // The fork file appears whole (renamed into place once prepared)
        // or not at all; one listed is there.
        let file = ws.host("f.db");
        let listed = !ws.json(&["forks"])["forks"].as_array().unwrap().is_empty();
        assert!(
            !listed || file.exists(),
            "trial {trial}: a listed fork without its file"
        );
        if file.exists() {
            let args = ["--workspace", file.to_str().unwrap(), "--json", "fsck"];
            let out = computer_tests::computer(ws.dir())
                .args(args)
                .output()
                .unwrap();
            assert!(out.status.success(), "{}", describe(&args, &out));
        }

        // A snapshot taken, then one removed, and gc, each killed: the
        // snapshot is there whole (the live tree as it was) or not at all.
        let names = |ws: &Ws| -> Vec<String> {
            ws.json(&["snapshot", "ls"])["snapshots"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s["name"].as_str().unwrap().to_owned())
                .collect()
        };
        kill_after(&ws, &["snapshot", "create", "mid"], jitter(20, trial + 17));
        fsck_clean(&ws);
        if names(&ws).contains(&"mid".to_owned()) {
            assert_eq!(ws.ok(&["diff", "mid", "live", "--name-only"]), "");
        }
        kill_after(
            &ws,
            &["snapshot", "rm", "empty-many"],
            jitter(20, trial + 19),
        );
        fsck_clean(&ws);
        if names(&ws).contains(&"empty-many".to_owned()) {
            let _ = ws.ok(&["diff", "empty-many", "live", "--name-only"]);
        }
        kill_after(&ws, &["gc"], jitter(20, trial + 23));
        fsck_clean(&ws);
    }
}
