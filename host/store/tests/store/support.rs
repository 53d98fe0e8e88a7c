//! Helpers shared by the store tests: a workspace, file shorthands, and an
//! assertion on error codes.

use computer_store::{Errno, FsError, MkdirOptions, RmOptions, Workspace, WriteOptions};

pub fn ws() -> Workspace {
    Workspace::in_memory().expect("in-memory workspace")
}

pub fn put(ws: &Workspace, path: &str, data: &str) {
    ws.write(
        path,
        data.as_bytes(),
        &WriteOptions {
            create_parents: true,
            ..Default::default()
        },
    )
    .unwrap_or_else(|e| panic!("write {path}: {e}"));
}

pub fn get(ws: &Workspace, path: &str) -> String {
    String::from_utf8(ws.read(path).unwrap_or_else(|e| panic!("read {path}: {e}"))).unwrap()
}

pub fn mkdirp(ws: &Workspace, path: &str) {
    ws.mkdir(
        path,
        &MkdirOptions {
            recursive: true,
            mode: None,
        },
    )
    .unwrap();
}

pub fn rmrf(ws: &Workspace, path: &str) {
    ws.rm(
        path,
        RmOptions {
            recursive: true,
            force: true,
        },
    )
    .unwrap();
}

/// Asserts the error code and that the message names `path`.
#[track_caller]
pub fn assert_err<T: std::fmt::Debug>(r: Result<T, FsError>, code: Errno, path: &str) {
    match r {
        Ok(v) => panic!("expected {code}, got Ok({v:?})"),
        Err(e) => {
            assert_eq!(e.code, code, "wrong code: {}", e.message);
            assert!(
                e.message.contains(path),
                "message {:?} does not name {path}",
                e.message
            );
        }
    }
}
