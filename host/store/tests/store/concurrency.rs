use std::sync::Arc;

use computer_store::{Workspace, WriteOptions};

#[test]
fn threads_sharing_one_handle_lose_nothing() {
    let ws = Arc::new(Workspace::in_memory().unwrap());
    let handles: Vec<_> = (0..8)
        .map(|t| {
            let ws = ws.clone();
            std::thread::spawn(move || {
                for i in 0..50 {
                    ws.append("/shared.log", format!("{t}:{i}\n").as_bytes())
                        .unwrap();
                    ws.write(
                        &format!("/t{t}/f{i}"),
                        b"x",
                        &WriteOptions {
                            create_parents: true,
                            ..Default::default()
                        },
                    )
                    .unwrap();
                }
            })
        })
        .collect();
    for h in handles {
        h.join().unwrap();
    }
    let log = String::from_utf8(ws.read("/shared.log").unwrap()).unwrap();
    assert_eq!(log.lines().count(), 400);
    for t in 0..8 {
        for i in 0..50 {
            assert!(log.contains(&format!("{t}:{i}\n")));
        }
    }
}

#[test]
fn separate_connections_to_one_file_serialize_writes() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("ws.db");
    Workspace::open(&db).unwrap();
    let handles: Vec<_> = (0..4)
        .map(|t| {
            let db = db.clone();
            std::thread::spawn(move || {
                let ws = Workspace::open(&db).unwrap();
                for i in 0..100 {
                    ws.append("/counter", format!("{t}-{i}\n").as_bytes())
                        .unwrap();
                }
            })
        })
        .collect();
    for h in handles {
        h.join().unwrap();
    }
    let ws = Workspace::open(&db).unwrap();
    let text = String::from_utf8(ws.read("/counter").unwrap()).unwrap();
    assert_eq!(text.lines().count(), 400);
    let mut seen: Vec<&str> = text.lines().collect();
    seen.sort();
    seen.dedup();
    assert_eq!(seen.len(), 400, "no line lost or duplicated");
}
