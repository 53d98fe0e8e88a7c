//! A real full disk (issue 41, item 12): a run that fills the disk holding
//! the workspace ends with its end recorded, and `fs rm` still works, thanks
//! to the reserve the store keeps next to the file (`reserve.rs`). The disk
//! is a small tmpfs mounted over the test's directory: that needs root, so
//! elsewhere the test says so and does nothing.

use std::process::Command;

use computer_tests::{Ws, describe, text};

/// A tmpfs of `size` mounted on `dir` until dropped.
struct Mounted(std::path::PathBuf);

impl Mounted {
    fn tmpfs(dir: &std::path::Path, size: &str) -> Option<Mounted> {
        let ok = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(dir)
            .stderr(std::process::Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        ok.then(|| Mounted(dir.to_path_buf()))
    }
}

impl Drop for Mounted {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.0).status();
    }
}

#[test]
fn a_run_that_fills_the_disk_ends_recorded_and_rm_still_works() {
    let ws = Ws::without_file();
    let Some(_disk) = Mounted::tmpfs(ws.dir(), "6m") else {
        eprintln!("skipped: cannot mount a tmpfs here (needs root)");
        return;
    };
    ws.ok(&["init"]);
    assert!(
        std::fs::metadata(ws.host("ws.db-reserve")).is_ok_and(|m| m.len() == 2 << 20),
        "the reserve is made with the workspace"
    );
    let script =
        "i=0; while head -c 100000 /dev/urandom > /f$i; do i=$((i+1)); done; echo stopped; exit 7";
    let args = ["--backend", "shell", "--id", "fill", script];
    let out = ws.exec(&args, "");
    let record = ws.json(&["runs", "show", "fill"]);
    assert_ne!(
        record["status"],
        "running",
        "{record}\n{}",
        describe(&args, &out)
    );
    assert!(
        record["status"] == "failed" || record["exit_code"] == 7,
        "{record}\n{}",
        describe(&args, &out)
    );
    // Removal works on the full disk, and so does recording another run.
    let rm = ws.run(&["fs", "rm", "/f0"], "");
    assert!(
        rm.status.success(),
        "{}",
        describe(&["fs", "rm", "/f0"], &rm)
    );
    assert!(!ws.exists("/f0"));
    let out = ws.exec(
        &["--backend", "shell", "--id", "after", "rm /f1; echo ok"],
        "",
    );
    // Its record is final. On a disk this full, whether the run's last
    // writes (its output among them) fit depends on when SQLite last
    // checkpointed its WAL (the file grows), which a loaded machine moves: a
    // `failed` record must then say the disk is full, and nothing else may
    // have failed; a completed one printed `ok`.
    let after = ws.json(&["runs", "show", "after"]);
    let error = after["error"].as_str().unwrap_or_default().to_lowercase();
    if after["status"] == "completed" {
        assert_eq!(text(&out.stdout), "ok\n", "{}", describe(&["exec"], &out));
    } else {
        assert!(
            after["status"] == "failed" && (error.contains("full") || error.contains("space")),
            "{after}\n{}",
            describe(&["exec"], &out)
        );
    }
}
