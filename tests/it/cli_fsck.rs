//! `computer fsck`, and reads of a chunk whose bytes changed in the file.

use computer_tests::{Ws, describe};

/// `/f` (one full chunk and a short one) and `/small.txt`.
fn workspace() -> Ws {
    let ws = Ws::new();
    ws.put("/f", vec![b'x'; 300_000]);
    ws.put("/small.txt", "fine\n");
    ws
}

/// Overwrites the full-size chunk's bytes in the SQLite file, as bit rot would.
fn damage(ws: &Ws) {
    let conn = rusqlite::Connection::open(ws.db()).expect("open the workspace file");
    let n = conn
        .execute(
            "UPDATE chunks SET data = zeroblob(size) WHERE size = 262144",
            [],
        )
        .expect("damage");
    assert_eq!(n, 1);
}

#[test]
fn fsck_of_a_sound_workspace_says_ok_and_exits_0() {
    let ws = workspace();
    let out = ws.ok(&["fsck"]);
    assert_eq!(
        out,
        format!(
            "fsck {}: 3 nodes, 2 entries, 3 chunks checked: ok\n",
            ws.db().display()
        )
    );
    let doc = ws.json(&["fsck"]);
    assert_eq!(doc["clean"], true);
    assert_eq!(doc["report"]["problems"], serde_json::json!([]));
}

#[test]
fn a_changed_chunk_fails_reads_exports_and_fsck() {
    let ws = workspace();
    damage(&ws);
    let (code, message) = ws.err(&["fs", "read", "/f"]);
    assert_eq!(code, "EIO");
    assert!(
        message.starts_with("input/output error: /f (workspace is corrupt: chunk")
            && message.contains("checksum"),
        "{message}"
    );
    let out = ws.exec(&["--backend", "shell", "md5sum /f"], "");
    assert_ne!(out.status.code(), Some(0), "{}", describe(&["exec"], &out));
    let (code, _) = ws.err(&["export", "/", "out"]);
    assert_eq!(code, "EIO");
    assert_eq!(ws.cat("/small.txt"), "fine\n");

    let out = ws.run(&["fsck"], "");
    assert_eq!(out.status.code(), Some(1), "{}", describe(&["fsck"], &out));
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert!(
        lines[0].starts_with("chunks: chunk ")
            && lines[0].ends_with("does not match its sha256 (its bytes changed)"),
        "{text}"
    );
    assert!(
        lines[1].ends_with("3 chunks checked: 1 problem found"),
        "{text}"
    );

    let out = ws.run(&["fsck", "--json"], "");
    assert_eq!(out.status.code(), Some(1));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON document");
    assert_eq!(doc["clean"], false);
    assert_eq!(doc["report"]["problems"].as_array().map(Vec::len), Some(1));
}
