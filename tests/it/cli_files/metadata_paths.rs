//! `fs stat` and `chmod`, and how paths are validated and normalized.

use super::*;

// ---------------------------------------------------------------- stat / chmod

#[test]
fn stat_json_fields_of_a_file() {
    let ws = Ws::new();
    let before = now_ns();
    ws.put("/dir/f.txt", "12345");
    let after = now_ns();
    let st = ws.stat("/dir/f.txt");
    let obj = st.as_object().expect("stat is an object");
    let mut keys: Vec<&str> = obj.keys().map(String::as_str).collect();
    keys.sort_unstable();
    assert_eq!(
        keys,
        [
            "ino", "kind", "mode", "mtime", "mtime_ns", "name", "path", "size"
        ]
    );
    assert_eq!(st["path"], "/dir/f.txt");
    assert_eq!(st["name"], "f.txt");
    assert_eq!(st["kind"], "file");
    assert_eq!(st["mode"], "644");
    assert_eq!(st["size"], 5);
    let mtime = st["mtime_ns"].as_u64().expect("mtime_ns is a number");
    assert!(
        (before..=after).contains(&mtime),
        "{before} <= {mtime} <= {after}"
    );
    let shown = st["mtime"].as_str().expect("mtime is a string");
    assert_eq!(shown.len(), "2024-01-02T03:04:05Z".len(), "{shown}");
    assert!(
        shown.ends_with('Z') && shown.as_bytes()[10] == b'T',
        "{shown}"
    );
    assert!(st["ino"].as_u64().is_some());
}

#[test]
fn stat_of_a_directory_and_of_root() {
    let ws = Ws::new();
    ws.ok(&["fs", "mkdir", "/d"]);
    let st = ws.stat("/d");
    assert_eq!(
        (&st["kind"], &st["mode"], &st["size"]),
        (&json!("directory"), &json!("755"), &json!(0))
    );
    let root = ws.stat("/");
    assert_eq!(
        (&root["name"], &root["kind"], &root["ino"]),
        (&json!("/"), &json!("directory"), &json!(1))
    );
}

#[test]
fn stat_plain_output() {
    let ws = Ws::new();
    ws.put("/f", "abc");
    let st = ws.stat("/f");
    let out = ws.ok(&["fs", "stat", "/f"]);
    assert_eq!(
        out,
        format!(
            "path: /f\nkind: file\nmode: 644\nsize: 3\nmtime: {}\nino: {}\n",
            st["mtime"].as_str().expect("mtime"),
            st["ino"]
        )
    );
}

#[test]
fn every_node_has_its_own_inode() {
    let ws = Ws::new();
    ws.put("/a", "same");
    ws.put("/b", "same");
    ws.ok(&["fs", "mkdir", "/c"]);
    let inos: Vec<_> = ["/", "/a", "/b", "/c"]
        .iter()
        .map(|p| ws.stat(p)["ino"].clone())
        .collect();
    for (i, a) in inos.iter().enumerate() {
        for b in &inos[i + 1..] {
            assert_ne!(a, b, "{inos:?}");
        }
    }
}

#[test]
fn stat_follows_symlinks_unless_no_follow() {
    let ws = Ws::new();
    ws.put("/target.txt", "0123456789");
    ws.ok(&["fs", "ln", "-s", "/target.txt", "/link"]);
    let target = ws.stat("/target.txt");
    let followed = ws.stat("/link");
    assert_eq!(followed["kind"], "file");
    assert_eq!(followed["size"], 10);
    assert_eq!(followed["ino"], target["ino"]);
    assert_eq!(followed["path"], "/link");

    let link = ws.json(&["fs", "stat", "--no-follow", "/link"]);
    assert_eq!(link["kind"], "symlink");
    assert_eq!(link["name"], "link");
    assert_eq!(link["mode"], "777");
    // A symlink's size is the length of its target.
    assert_eq!(link["size"], "/target.txt".len());
    assert_ne!(link["ino"], target["ino"]);
}

#[test]
fn stat_of_a_dangling_or_looping_symlink() {
    let ws = Ws::new();
    ws.ok(&["fs", "ln", "-s", "/nowhere", "/dangling"]);
    assert_eq!(ws.errno(&["fs", "stat", "/dangling"]), "ENOENT");
    assert_eq!(
        ws.json(&["fs", "stat", "--no-follow", "/dangling"])["kind"],
        "symlink"
    );

    ws.ok(&["fs", "ln", "-s", "/loop2", "/loop1"]);
    ws.ok(&["fs", "ln", "-s", "/loop1", "/loop2"]);
    let (code, message) = ws.err(&["fs", "stat", "/loop1"]);
    assert_eq!(code, "ELOOP");
    assert!(
        message.starts_with("too many levels of symbolic links: /loop1"),
        "{message}"
    );
    assert_eq!(ws.errno(&["fs", "read", "/loop2"]), "ELOOP");
    assert_eq!(
        ws.json(&["fs", "stat", "--no-follow", "/loop1"])["kind"],
        "symlink"
    );
}

#[test]
fn stat_of_a_missing_path_is_enoent() {
    let ws = Ws::new();
    assert_eq!(
        ws.err(&["fs", "stat", "/nope"]),
        ("ENOENT".into(), "no such file or directory: /nope".into())
    );
    assert_eq!(ws.errno(&["fs", "stat", "--no-follow", "/nope"]), "ENOENT");
}

#[test]
fn chmod_accepts_octal_forms() {
    let ws = Ws::new();
    ws.put("/f", "x");
    for (given, shown) in [
        ("755", "755"),
        ("0644", "644"),
        ("0o600", "600"),
        ("0", "0"),
        ("4755", "4755"),
    ] {
        assert_eq!(ws.ok(&["fs", "chmod", given, "/f"]), "", "{given}");
        assert_eq!(ws.stat("/f")["mode"], shown, "{given}");
    }
    let doc = ws.json(&["fs", "chmod", "0755", "/f"]);
    assert_eq!(doc, json!({"path": "/f", "mode": "755"}));
}

#[test]
fn chmod_a_directory() {
    let ws = Ws::new();
    ws.ok(&["fs", "mkdir", "/d"]);
    ws.ok(&["fs", "chmod", "700", "/d"]);
    assert_eq!(ws.stat("/d")["mode"], "700");
}

#[test]
fn chmod_with_an_invalid_mode_is_einval() {
    let ws = Ws::new();
    ws.put("/f", "x");
    for bad in ["9z", "8", "rwx", "77777", "0x1f", ""] {
        let (code, message) = ws.err(&["fs", "chmod", bad, "/f"]);
        assert_eq!(code, "EINVAL", "{bad}");
        assert_eq!(
            message,
            format!("invalid mode {bad:?}: expected octal permission bits such as 644 or 0755")
        );
    }
    assert_eq!(ws.stat("/f")["mode"], "644");
}

#[test]
fn chmod_of_a_missing_path_is_enoent() {
    let ws = Ws::new();
    assert_eq!(
        ws.err(&["fs", "chmod", "644", "/nope"]),
        ("ENOENT".into(), "no such file or directory: /nope".into())
    );
}

// ---------------------------------------------------------------- paths

#[test]
fn relative_paths_are_einval() {
    let ws = Ws::new();
    for args in [
        vec!["fs", "read", "a/b"],
        vec!["fs", "write", "rel.txt"],
        vec!["fs", "ls", "."],
        vec!["fs", "mkdir", "-p", "x/y"],
        vec!["fs", "stat", "./a"],
    ] {
        let (code, message) = ws.err(&args);
        assert_eq!(code, "EINVAL", "{args:?}");
        let path = args.last().expect("a path");
        assert!(message.starts_with("invalid argument"), "{message}");
        assert!(message.contains(path), "{message} does not name {path}");
    }
    assert_eq!(ws.names("/"), Vec::<String>::new());
}

#[test]
fn an_empty_path_is_einval() {
    let ws = Ws::new();
    let (code, message) = ws.err(&["fs", "stat", ""]);
    assert_eq!(code, "EINVAL");
    assert!(
        message.starts_with("invalid argument: empty path"),
        "{message}"
    );
}

#[test]
fn a_component_over_255_bytes_is_enametoolong() {
    let ws = Ws::new();
    let long = format!("/{}", "x".repeat(300));
    let (code, message) = ws.err_with(&["fs", "write", &long], "x");
    assert_eq!(code, "ENAMETOOLONG");
    assert!(message.starts_with("file name too long"), "{message}");
    assert!(
        message.contains("/xxxxxxxx"),
        "{message} does not name the path"
    );
    // 255 bytes is still fine.
    let max = format!("/{}", "y".repeat(255));
    ws.put(&max, "ok");
    assert_eq!(ws.cat(&max), "ok");
    // Multi-byte: 128 two-byte chars is 256 bytes.
    let wide = format!("/{}", "é".repeat(128));
    assert_eq!(ws.errno(&["fs", "mkdir", &wide]), "ENAMETOOLONG");
}

#[test]
fn a_path_over_4096_bytes_is_enametoolong() {
    let ws = Ws::new();
    let long = "/abcdefgh".repeat(460);
    assert!(long.len() > 4096);
    assert_eq!(ws.errno(&["fs", "mkdir", "-p", &long]), "ENAMETOOLONG");
    assert_eq!(ws.names("/"), Vec::<String>::new());
}

#[test]
fn dot_dot_never_climbs_above_root() {
    let ws = Ws::new();
    ws.put("/../../top.txt", "top");
    assert_eq!(ws.names("/"), ["top.txt"]);
    assert_eq!(ws.cat("/a/../../../top.txt"), "top");
    assert_eq!(ws.names("/../.."), ["top.txt"]);
    assert_eq!(
        ws.err(&["fs", "read", "/.."]),
        ("EISDIR".into(), "is a directory: /".into())
    );
}

#[test]
fn dots_and_repeated_slashes_are_normalized() {
    let ws = Ws::new();
    ws.put("//x/./y//z.txt", "z");
    assert_eq!(ws.tree("/"), ["/x", "/x/y", "/x/y/z.txt"]);
    assert_eq!(ws.cat("/x/y/../y/./z.txt"), "z");
    let doc = ws.json(&["fs", "stat", "/x//y/./z.txt"]);
    assert_eq!(doc["name"], "z.txt");
}

#[test]
fn symlink_resolution_allows_40_hops_then_eloop() {
    let ws = Ws::new();
    ws.put("/target", "reached");
    // /l1 -> /target, /lN -> /l(N-1): reading /lN follows N links.
    ws.ok(&["fs", "ln", "-s", "/target", "/l1"]);
    for n in 2..=41 {
        ws.ok(&["fs", "ln", "-s", &format!("/l{}", n - 1), &format!("/l{n}")]);
    }
    assert_eq!(ws.cat("/l40"), "reached");
    let (code, message) = ws.err(&["fs", "read", "/l41"]);
    assert_eq!(code, "ELOOP");
    assert!(message.contains("/l41"), "{message}");
}
