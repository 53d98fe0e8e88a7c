use crate::support::*;
use computer_store::{Errno, MkdirOptions, RmOptions, TextEdit, WriteOptions};

#[test]
fn readonly_subtree_refuses_every_mutation() {
    let ws = ws();
    put(&ws, "/base/ro/file", "locked");
    put(&ws, "/base/other", "free");
    ws.set_readonly("/base/ro", true).unwrap();
    assert_eq!(ws.readonly_paths().unwrap(), ["/base/ro"]);
    let rev = ws.rev().unwrap();

    assert_err(
        ws.write("/base/ro/file", b"x", &WriteOptions::default()),
        Errno::EROFS,
        "/base/ro/file",
    );
    assert_err(
        ws.write("/base/ro/new", b"x", &WriteOptions::default()),
        Errno::EROFS,
        "/base/ro/new",
    );
    assert_err(
        ws.append("/base/ro/file", b"x"),
        Errno::EROFS,
        "/base/ro/file",
    );
    assert_err(
        ws.truncate("/base/ro/file", 0),
        Errno::EROFS,
        "/base/ro/file",
    );
    assert_err(
        ws.edit(
            "/base/ro/file",
            &[TextEdit {
                old: "locked".into(),
                new: "x".into(),
            }],
        ),
        Errno::EROFS,
        "/base/ro/file",
    );
    assert_err(
        ws.mkdir("/base/ro/d", &MkdirOptions::default()),
        Errno::EROFS,
        "/base/ro/d",
    );
    assert_err(
        ws.rm("/base/ro/file", RmOptions::default()),
        Errno::EROFS,
        "/base/ro/file",
    );
    assert_err(
        ws.chmod("/base/ro/file", 0o777),
        Errno::EROFS,
        "/base/ro/file",
    );
    assert_err(ws.symlink("/x", "/base/ro/l"), Errno::EROFS, "/base/ro/l");
    assert_err(
        ws.rename("/base/other", "/base/ro/moved"),
        Errno::EROFS,
        "/base/ro/moved",
    );
    assert_err(
        ws.rename("/base/ro/file", "/stolen"),
        Errno::EROFS,
        "/base/ro/file",
    );
    assert_err(
        ws.copy("/base/other", "/base/ro/c", false),
        Errno::EROFS,
        "/base/ro/c",
    );
    // Ancestors that hold it cannot be removed or moved away.
    assert_err(
        ws.rm(
            "/base",
            RmOptions {
                recursive: true,
                force: true,
            },
        ),
        Errno::EROFS,
        "/base",
    );
    assert_err(ws.rename("/base", "/elsewhere"), Errno::EROFS, "/base");
    // Through a symlink the canonical path is what counts.
    ws.symlink("/base/ro", "/sneaky").unwrap();
    assert_err(
        ws.write("/sneaky/file", b"x", &WriteOptions::default()),
        Errno::EROFS,
        "/sneaky/file",
    );

    assert_eq!(get(&ws, "/base/ro/file"), "locked");
    assert_eq!(ws.rev().unwrap(), rev + 1, "only the symlink was created");

    // Siblings stay writable; reading and copying out is fine.
    put(&ws, "/base/other", "changed");
    put(&ws, "/base/new", "ok");
    ws.copy("/base/ro", "/copy", true).unwrap();
    put(&ws, "/copy/file", "mine");
    assert_eq!(get(&ws, "/base/ro/file"), "locked");

    ws.set_readonly("/base/ro", false).unwrap();
    put(&ws, "/base/ro/file", "unlocked");
}
