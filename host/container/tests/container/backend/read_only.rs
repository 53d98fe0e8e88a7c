//! Read-only container runs (issue 38): the command changes its copy as it
//! likes, but the pull syncs nothing back; each change is reported as
//! skipped with the reason, the copy is put back, and the workspace's
//! revision and change log do not move.

use super::*;

/// Busybox commands that change `t` (and a second path) in every way.
fn commands(t: &str) -> Vec<String> {
    let u = format!("{t}.2");
    vec![
        format!("echo x > {t}"),
        format!("echo x >> {t}"),
        format!("touch {t}"),
        format!("mkdir -p {t}/a/b"),
        format!("rm -rf {t}"),
        format!("mv {t} {u}"),
        format!("cp -r {t} {u}"),
        format!("ln -s f.txt {t}"),
        format!("chmod 600 {t}"),
        format!("truncate -s 0 {t}"),
        format!("sed -i s/one/ONE/ {t}"),
    ]
}

#[test]
fn a_read_only_run_syncs_nothing_back_and_says_so() {
    let Some(f) = fixture("a_read_only_run_syncs_nothing_back_and_says_so") else {
        return;
    };
    write(&f.ws, "/f.txt", "one\n");
    write(&f.ws, "/d/g.txt", "in d\n");
    // The first exec makes the container and its copy.
    assert_eq!(run(&f, "true").exit_code, 0);
    let since = f.ws.keep_change_log().unwrap();
    let rev = f.ws.rev().unwrap();
    let targets = ["f.txt", "d", "d/g.txt", "new", "d/new"];
    let all: Vec<String> = targets.iter().flat_map(|t| commands(t)).collect();
    assert!(all.len() >= 50);
    let read_only = ContainerExecOptions {
        read_only: true,
        ..opts()
    };
    for chunk in all.chunks(11) {
        let script: String = chunk.iter().map(|c| format!("{c} 2>/dev/null\n")).collect();
        let r = run_with(&f, &format!("{script}true"), read_only.clone());
        assert_eq!(r.exit_code, 0, "{}", text(&r.stderr));
        let sync = r.sync().expect("sync report");
        assert!(
            sync.skipped_paths.iter().any(|s| s.contains("read-only")),
            "{:?}",
            sync.skipped_paths
        );
        assert_eq!(f.ws.rev().unwrap(), rev, "{script}");
    }
    let changes = f.ws.changes_since(since).unwrap();
    assert_eq!(changes.paths, Some(vec![]));
    assert_eq!(f.ws.read("/f.txt").unwrap(), b"one\n");
    // The copy was put back: a writable run sees the workspace as it is.
    let r = run(&f, "cat f.txt; ls d; ls new 2>&1 | head -c 0");
    assert_eq!(text(&r.stdout), "one\ng.txt\n", "{}", text(&r.stderr));
    assert_eq!(f.ws.rev().unwrap(), rev);
}
