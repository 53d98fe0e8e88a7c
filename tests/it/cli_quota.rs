//! `computer quota` and `init --quota`: writes past the quota fail with
//! ENOSPC, which guests can catch, and removing files always works.

use computer_tests::{Ws, describe, json, text};

#[test]
fn quota_shows_and_sets_the_limit() {
    let ws = Ws::new();
    assert_eq!(ws.ok(&["quota"]), "quota: 10737418240 bytes, 0 used\n");
    ws.put("/f", "12345");
    assert_eq!(ws.json(&["quota", "1K"]), json!({"limit": 1024, "used": 5}));
    assert_eq!(ws.json(&["quota"]), json!({"limit": 1024, "used": 5}));
    let (code, message) = ws.err(&["quota", "lots"]);
    assert_eq!(code, "EINVAL");
    assert!(message.contains("\"lots\" is not a size"), "{message}");
}

#[test]
fn init_sets_the_quota_and_writes_past_it_fail_with_enospc() {
    let ws = Ws::without_file();
    ws.ok(&["init", "--quota", "4K"]);
    ws.put("/a", vec![1u8; 3000]);
    let (code, message) = ws.err_with(&["fs", "write", "/b"], vec![2u8; 3000]);
    assert_eq!(code, "ENOSPC");
    assert!(
        message.starts_with("no space left on device: /b ("),
        "{message}"
    );
    assert!(message.contains("quota of 4096 bytes"), "{message}");
    assert!(!ws.exists("/b"));
    // rm frees the space.
    ws.ok(&["fs", "rm", "/a"]);
    ws.put("/b", vec![2u8; 3000]);
}

#[test]
fn guests_see_enospc_as_an_error_they_can_catch() {
    let ws = Ws::new();
    ws.ok(&["quota", "1K"]);
    let out = ws.exec(
        &[
            "--backend",
            "shell",
            "head -c 5000 /dev/zero > /big || echo caught; rm -f /big; echo small > /ok && cat /ok",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(0), "{}", describe(&["exec"], &out));
    assert_eq!(text(&out.stdout), "caught\nsmall\n");
    let js = "import fs from 'node:fs'; \
              try { fs.writeFileSync('/big.js', 'x'.repeat(5000)); console.log('written'); } \
              catch (e) { console.log(e.code); }";
    let out = ws.exec(&[js], "");
    assert_eq!(out.status.code(), Some(0), "{}", describe(&["exec"], &out));
    assert_eq!(text(&out.stdout), "ENOSPC\n");
}

#[test]
fn sqlite3_at_the_quota_says_the_disk_is_full() {
    let ws = Ws::new();
    ws.ok(&["quota", "1M"]);
    let out = ws.exec(
        &[
            "--backend",
            "shell",
            "sqlite3 /q.db 'create table t(x); insert into t values (randomblob(4000000));'; echo \"rc=$?\"",
        ],
        "",
    );
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("database or disk is full"),
        "{}",
        describe(&["exec"], &out)
    );
    assert!(!stderr.contains("disk I/O error"), "{stderr}");
}

#[test]
fn runs_that_overwrite_a_file_near_the_quota_are_not_refused_for_undo_history() {
    // Each run keeps the tree it started from for `undo`; the content it
    // overwrote must not count against a quota the user set for files.
    let ws = Ws::new();
    ws.ok(&["quota", "20M"]);
    for i in 0..4 {
        let out = ws.run(
            &["exec", "head -c 12000000 /dev/urandom > /big && echo ok"],
            "",
        );
        assert_eq!(text(&out.stdout), "ok\n", "run {i}: {}", text(&out.stderr));
        // Random bytes: nothing to share between versions.
    }
    assert_eq!(
        ws.json(&["quota"]),
        json!({"limit": 20971520, "used": 12000000})
    );
    assert!(ws.ok(&["fsck"]).contains("ok"));
}
