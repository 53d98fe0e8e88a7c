//! What opening a workspace file may do: only `OpenMode::Create` makes a
//! file (or its directories), and an empty file is never a workspace.

use computer_store::{Config, Errno, OpenMode, Workspace};

fn open(path: &std::path::Path, mode: OpenMode) -> computer_store::Result<Workspace> {
    Workspace::open_with(
        path,
        Config {
            mode,
            ..Default::default()
        },
    )
}

#[test]
fn an_empty_file_is_refused_in_every_mode_and_left_as_it_is() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("w.db");
    std::fs::write(&db, b"").unwrap();
    for mode in [OpenMode::Create, OpenMode::Existing, OpenMode::Read] {
        let e = open(&db, mode).err().expect("an empty file opened");
        assert_eq!(e.code, Errno::EIO, "{e}");
        assert!(e.message.contains("empty file (0 bytes)"), "{e}");
        assert!(e.message.contains(&db.display().to_string()), "{e}");
    }
    assert_eq!(std::fs::metadata(&db).unwrap().len(), 0);
}

#[test]
fn only_create_makes_a_missing_file_or_its_directories() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("no/such/dir/w.db");
    for mode in [OpenMode::Existing, OpenMode::Read] {
        let e = open(&db, mode).err().expect("a missing file opened");
        assert_eq!(e.code, Errno::ENOENT, "{e}");
        assert!(e.message.contains("computer init"), "{e}");
        assert!(!dir.path().join("no").exists(), "{mode:?} made directories");
    }
    open(&db, OpenMode::Create).unwrap();
    assert!(db.is_file());
    let ws = open(&db, OpenMode::Read).unwrap();
    assert!(
        !ws.is_read_only(),
        "root may write it: it is opened for writing"
    );
}

#[test]
fn a_new_file_is_linked_into_place_whole_and_leaves_no_temporary_behind() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("w.db");
    drop(open(&db, OpenMode::Create).unwrap());
    let mut names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    // The file and its reserve of disk space (`reserve.rs`).
    assert_eq!(names, ["w.db", "w.db-reserve"]);
    // Whole: a header and the schema, so reopening finds a workspace, not an empty file.
    assert!(std::fs::metadata(&db).unwrap().len() > 0);
    open(&db, OpenMode::Existing).unwrap();
}
