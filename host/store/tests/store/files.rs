use crate::support::*;
use computer_store::{Errno, MkdirOptions, TextEdit, WriteOptions};

#[test]
fn write_then_read_whole_and_ranges() {
    let ws = ws();
    put(&ws, "/a.txt", "hello world");
    assert_eq!(get(&ws, "/a.txt"), "hello world");
    assert_eq!(ws.read_range("/a.txt", 6, Some(5)).unwrap(), b"world");
    assert_eq!(ws.read_range("/a.txt", 6, Some(100)).unwrap(), b"world");
    assert_eq!(ws.read_range("/a.txt", 100, Some(5)).unwrap(), b"");
    assert_eq!(ws.read_range("/a.txt", 0, None).unwrap(), b"hello world");
}

#[test]
fn large_file_ranges_cross_chunks() {
    let ws = ws();
    let data: Vec<u8> = (0..(3 * computer_store::CHUNK_SIZE + 123))
        .map(|i| (i % 251) as u8)
        .collect();
    ws.write("/big", &data, &WriteOptions::default()).unwrap();
    assert_eq!(ws.read("/big").unwrap(), data);
    let off = computer_store::CHUNK_SIZE as u64 - 10;
    assert_eq!(
        ws.read_range("/big", off, Some(20)).unwrap(),
        &data[off as usize..off as usize + 20]
    );
    assert_eq!(ws.stat("/big").unwrap().size, data.len() as u64);
}

#[test]
fn write_options_mode_exclusive_parents() {
    let ws = ws();
    let e = ws.write("/x/y/z", b"1", &WriteOptions::default());
    assert_err(e, Errno::ENOENT, "/x/y/z");
    ws.write(
        "/x/y/z",
        b"1",
        &WriteOptions {
            create_parents: true,
            mode: Some(0o600),
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(ws.stat("/x/y/z").unwrap().mode, 0o600);
    assert_eq!(ws.stat("/x/y").unwrap().mode, 0o755);
    // Overwriting keeps the mode unless a new one is given.
    ws.write("/x/y/z", b"2", &WriteOptions::default()).unwrap();
    assert_eq!(ws.stat("/x/y/z").unwrap().mode, 0o600);
    let e = ws.write(
        "/x/y/z",
        b"3",
        &WriteOptions {
            exclusive: true,
            ..Default::default()
        },
    );
    assert_err(e, Errno::EEXIST, "/x/y/z");
    assert_eq!(get(&ws, "/x/y/z"), "2");
}

#[test]
fn write_errors() {
    let ws = ws();
    put(&ws, "/file", "f");
    assert_err(
        ws.write("/file/child", b"", &WriteOptions::default()),
        Errno::ENOTDIR,
        "/file/child",
    );
    assert_err(
        ws.write(
            "/file/child",
            b"",
            &WriteOptions {
                create_parents: true,
                ..Default::default()
            },
        ),
        Errno::ENOTDIR,
        "/file/child",
    );
    mkdirp(&ws, "/dir");
    assert_err(
        ws.write("/dir", b"", &WriteOptions::default()),
        Errno::EISDIR,
        "/dir",
    );
    assert_err(
        ws.write("/", b"", &WriteOptions::default()),
        Errno::EISDIR,
        "/",
    );
    assert_err(
        ws.write("relative", b"", &WriteOptions::default()),
        Errno::EINVAL,
        "relative",
    );
    assert_err(ws.read("/dir"), Errno::EISDIR, "/dir");
    assert_err(ws.read("/nope"), Errno::ENOENT, "/nope");
    assert_err(ws.read("/file/x"), Errno::ENOTDIR, "/file/x");
}

#[test]
fn append_and_truncate() {
    let ws = ws();
    ws.append("/log", b"one\n").unwrap();
    ws.append("/log", b"two\n").unwrap();
    assert_eq!(get(&ws, "/log"), "one\ntwo\n");
    ws.truncate("/log", 3).unwrap();
    assert_eq!(get(&ws, "/log"), "one");
    ws.truncate("/log", 5).unwrap();
    assert_eq!(ws.read("/log").unwrap(), b"one\0\0");
    assert_err(ws.truncate("/missing", 0), Errno::ENOENT, "/missing");
    mkdirp(&ws, "/d");
    assert_err(ws.append("/d", b"x"), Errno::EISDIR, "/d");
    assert_err(ws.truncate("/d", 0), Errno::EISDIR, "/d");
}

#[test]
fn appends_across_chunk_boundaries_match_a_plain_buffer() {
    let ws = ws();
    let mut expect = Vec::new();
    let piece: Vec<u8> = (0..70_001u32).map(|i| (i % 97) as u8).collect();
    for i in 0..9 {
        let part = &piece[..(i * 7919) % piece.len() + 1];
        ws.append("/grow", part).unwrap();
        expect.extend_from_slice(part);
    }
    assert_eq!(ws.read("/grow").unwrap(), expect);
    let cut = computer_store::CHUNK_SIZE as u64 + 17;
    ws.truncate("/grow", cut).unwrap();
    assert_eq!(ws.read("/grow").unwrap(), &expect[..cut as usize]);
}

#[test]
fn identical_content_is_stored_once() {
    let ws = ws();
    let data = vec![7u8; 300_000];
    ws.write("/one", &data, &WriteOptions::default()).unwrap();
    let before = ws.usage().unwrap();
    ws.write("/two", &data, &WriteOptions::default()).unwrap();
    let after = ws.usage().unwrap();
    assert_eq!(before.chunks, after.chunks);
    assert_eq!(before.stored_bytes, after.stored_bytes);
    assert_eq!(after.node_bytes, 2 * data.len() as u64);
    // Removing one keeps the other's content; removing both frees it.
    rmrf(&ws, "/one");
    assert_eq!(ws.read("/two").unwrap(), data);
    rmrf(&ws, "/two");
    assert_eq!(ws.usage().unwrap().chunks, 0);
}

#[test]
fn file_size_limit_is_efbig() {
    let config = computer_store::Config {
        max_file_size: 10,
        ..Default::default()
    };
    let dir = tempfile::tempdir().unwrap();
    let ws = computer_store::Workspace::open_with(dir.path().join("w.db"), config).unwrap();
    assert_err(
        ws.write("/f", &[0; 11], &WriteOptions::default()),
        Errno::EFBIG,
        "/f",
    );
    ws.write("/f", &[0; 10], &WriteOptions::default()).unwrap();
    assert_err(ws.append("/f", b"x"), Errno::EFBIG, "/f");
    assert_err(ws.truncate("/f", 11), Errno::EFBIG, "/f");
    assert_eq!(ws.read("/f").unwrap().len(), 10);
}

#[test]
fn rev_bumps_once_per_mutation_and_not_on_failure_or_read() {
    let ws = ws();
    let r0 = ws.rev().unwrap();
    put(&ws, "/a", "1");
    assert_eq!(ws.rev().unwrap(), r0 + 1);
    ws.read("/a").unwrap();
    ws.stat("/a").unwrap();
    assert_eq!(ws.rev().unwrap(), r0 + 1);
    let _ = ws.write(
        "/a",
        b"",
        &WriteOptions {
            exclusive: true,
            ..Default::default()
        },
    );
    assert_eq!(ws.rev().unwrap(), r0 + 1);
    ws.mkdir("/d", &MkdirOptions::default()).unwrap();
    assert_eq!(ws.rev().unwrap(), r0 + 2);
}

#[test]
fn edit_applies_batch_and_returns_diff() {
    let ws = ws();
    put(&ws, "/src.rs", "fn a() {}\nfn b() {}\nfn c() {}\n");
    ws.chmod("/src.rs", 0o755).unwrap();
    let r = ws
        .edit(
            "/src.rs",
            &[
                TextEdit {
                    old: "fn a() {}".into(),
                    new: "fn a() { 1 }".into(),
                },
                TextEdit {
                    old: "fn c() {}".into(),
                    new: "fn c() { 3 }".into(),
                },
            ],
        )
        .unwrap();
    assert_eq!(r.applied, 2);
    assert!(r.diff.contains("-fn a() {}"), "{}", r.diff);
    assert!(r.diff.contains("+fn c() { 3 }"), "{}", r.diff);
    assert_eq!(
        get(&ws, "/src.rs"),
        "fn a() { 1 }\nfn b() {}\nfn c() { 3 }\n"
    );
    assert_eq!(ws.stat("/src.rs").unwrap().mode, 0o755);
}

#[test]
fn edit_errors_leave_file_untouched() {
    let ws = ws();
    put(&ws, "/t", "x x y\r\nz\r\n");
    let rev = ws.rev().unwrap();
    let e = ws
        .edit(
            "/t",
            &[TextEdit {
                old: "x".into(),
                new: "q".into(),
            }],
        )
        .unwrap_err();
    assert_eq!(e.code, Errno::EINVAL);
    assert!(e.message.contains("2 occurrences"), "{}", e.message);
    assert!(e.message.contains("/t"), "{}", e.message);
    let e = ws
        .edit(
            "/t",
            &[
                TextEdit {
                    old: "y".into(),
                    new: "Y".into(),
                },
                TextEdit {
                    old: "nope".into(),
                    new: "".into(),
                },
            ],
        )
        .unwrap_err();
    assert_eq!(e.code, Errno::EINVAL);
    let e = ws
        .edit(
            "/t",
            &[TextEdit {
                old: "".into(),
                new: "a".into(),
            }],
        )
        .unwrap_err();
    assert!(e.message.contains("empty"), "{}", e.message);
    let e = ws
        .edit(
            "/t",
            &[TextEdit {
                old: "y".into(),
                new: "y".into(),
            }],
        )
        .unwrap_err();
    assert!(e.message.contains("identical"), "{}", e.message);
    assert_eq!(get(&ws, "/t"), "x x y\r\nz\r\n");
    assert_eq!(ws.rev().unwrap(), rev);
    // CRLF survives an edit written with \n.
    ws.edit(
        "/t",
        &[TextEdit {
            old: "y\nz".into(),
            new: "y\nw".into(),
        }],
    )
    .unwrap();
    assert_eq!(get(&ws, "/t"), "x x y\r\nw\r\n");
    assert_err(
        ws.edit(
            "/missing",
            &[TextEdit {
                old: "a".into(),
                new: "b".into(),
            }],
        ),
        Errno::ENOENT,
        "/missing",
    );
}

#[test]
fn edit_fuzzy_fallback_splices_into_original() {
    let ws = ws();
    put(&ws, "/py", "def f():\n    return  \u{201c}hi\u{201d}\n");
    let r = ws
        .edit(
            "/py",
            &[TextEdit {
                old: "return \"hi\"".into(),
                new: "return \"bye\"".into(),
            }],
        )
        .unwrap();
    assert_eq!(r.fuzzy, 1);
    assert_eq!(get(&ws, "/py"), "def f():\n    return \"bye\"\n");
}
