use crate::support::*;
use computer_store::{Errno, GrepOptions, NodeKind, Page};

fn tree() -> computer_store::Workspace {
    let ws = ws();
    put(
        &ws,
        "/p/src/main.rs",
        "fn main() {\n    println!(\"Hello\");\n}\n",
    );
    put(&ws, "/p/src/lib.rs", "pub fn hello() {}\n// TODO: more\n");
    put(&ws, "/p/src/util/mod.rs", "// todo later\npub mod x;\n");
    put(&ws, "/p/README.md", "# Hello\nTODO list\n");
    put(&ws, "/p/Cargo.toml", "[package]\n");
    ws.write("/p/bin.dat", b"TODO\0binary", &Default::default())
        .unwrap();
    ws.symlink("/p/src", "/p/link").unwrap();
    ws
}

fn paths(page: computer_store::FindPage) -> Vec<String> {
    page.entries.into_iter().map(|e| e.path).collect()
}

#[test]
fn find_globs() {
    let ws = tree();
    assert_eq!(
        paths(ws.find("/p", "**/*.rs", Page::all()).unwrap()),
        ["/p/src/lib.rs", "/p/src/main.rs", "/p/src/util/mod.rs"]
    );
    assert_eq!(
        paths(ws.find("/p", "*.{md,toml}", Page::all()).unwrap()),
        ["/p/Cargo.toml", "/p/README.md"]
    );
    assert_eq!(
        paths(ws.find("/p", "src/?ain.rs", Page::all()).unwrap()),
        ["/p/src/main.rs"]
    );
    assert_eq!(
        paths(ws.find("/p", "src/[lm]*.rs", Page::all()).unwrap()),
        ["/p/src/lib.rs", "/p/src/main.rs"]
    );
    assert_eq!(
        paths(ws.find("/p", "*.rs", Page::all()).unwrap()),
        Vec::<String>::new()
    );
    let link = ws.find("/p", "link", Page::all()).unwrap();
    assert_eq!(link.entries[0].kind, NodeKind::Symlink);
    // Symlinks are not followed.
    assert!(paths(ws.find("/p", "link/**", Page::all()).unwrap()).is_empty());
    assert_eq!(
        paths(ws.find("/", "p/src", Page::all()).unwrap()),
        ["/p/src"]
    );
}

#[test]
fn find_pages_deterministically() {
    let ws = tree();
    let all = paths(ws.find("/p", "**", Page::all()).unwrap());
    let mut paged = Vec::new();
    let mut offset = 0;
    loop {
        let page = ws.find("/p", "**", Page::new(offset, Some(3))).unwrap();
        paged.extend(page.entries.iter().map(|e| e.path.clone()));
        match page.next_offset {
            Some(n) => offset = n,
            None => break,
        }
    }
    assert_eq!(all, paged);
    assert_eq!(all.len(), 9);
}

#[test]
fn find_errors() {
    let ws = tree();
    assert_err(ws.find("/p", "[", Page::all()), Errno::EINVAL, "glob");
    assert_err(ws.find("/p", "", Page::all()), Errno::EINVAL, "empty");
    assert_err(ws.find("/nope", "*", Page::all()), Errno::ENOENT, "/nope");
    assert_err(
        ws.find("/p/Cargo.toml", "*", Page::all()),
        Errno::ENOTDIR,
        "/p/Cargo.toml",
    );
}

#[test]
fn grep_literal_regex_case_include_context() {
    let ws = tree();
    let r = ws.grep("/p", "TODO", &GrepOptions::default()).unwrap();
    let hits: Vec<(String, u64)> = r
        .matches
        .iter()
        .map(|m| (m.path.clone(), m.line_number))
        .collect();
    assert_eq!(
        hits,
        [
            ("/p/README.md".to_string(), 2),
            ("/p/src/lib.rs".to_string(), 2)
        ]
    );
    assert_eq!(r.binary_files_skipped, 1);

    let r = ws
        .grep(
            "/p",
            "todo",
            &GrepOptions {
                ignore_case: true,
                ..Default::default()
            },
        )
        .unwrap();
    assert_eq!(r.matches.len(), 3);

    let r = ws
        .grep(
            "/p",
            "fn \\w+\\(",
            &GrepOptions {
                regex: true,
                include: Some("*.rs".into()),
                ..Default::default()
            },
        )
        .unwrap();
    let lines: Vec<&str> = r.matches.iter().map(|m| m.line.as_str()).collect();
    assert_eq!(lines, ["pub fn hello() {}", "fn main() {"]);

    // A literal query is not a regex.
    assert!(
        ws.grep("/p", "fn \\w+", &GrepOptions::default())
            .unwrap()
            .matches
            .is_empty()
    );

    let r = ws
        .grep(
            "/p/src/main.rs",
            "println",
            &GrepOptions {
                context: 1,
                ..Default::default()
            },
        )
        .unwrap();
    assert_eq!(r.matches[0].before, ["fn main() {"]);
    assert_eq!(r.matches[0].after, ["}"]);
    assert_eq!(r.matches[0].line_number, 2);

    let r = ws
        .grep(
            "/p",
            "Hello",
            &GrepOptions {
                include: Some("src/*.rs".into()),
                ..Default::default()
            },
        )
        .unwrap();
    assert_eq!(r.matches.len(), 1);
}

#[test]
fn grep_pages_and_errors() {
    let ws = ws();
    let body: String = (1..=25).map(|i| format!("line {i}\n")).collect();
    put(&ws, "/f", &body);
    let p1 = ws
        .grep(
            "/",
            "line",
            &GrepOptions {
                page: Page::new(0, Some(10)),
                ..Default::default()
            },
        )
        .unwrap();
    assert_eq!(p1.matches.len(), 10);
    assert_eq!(p1.next_offset, Some(10));
    let p3 = ws
        .grep(
            "/",
            "line",
            &GrepOptions {
                page: Page::new(20, Some(10)),
                ..Default::default()
            },
        )
        .unwrap();
    assert_eq!(p3.matches.len(), 5);
    assert_eq!(p3.next_offset, None);
    assert_eq!(p3.matches[0].line_number, 21);
    assert_err(
        ws.grep(
            "/",
            "(",
            &GrepOptions {
                regex: true,
                ..Default::default()
            },
        ),
        Errno::EINVAL,
        "regular expression",
    );
    assert_err(
        ws.grep("/", "", &GrepOptions::default()),
        Errno::EINVAL,
        "empty",
    );
    assert_err(
        ws.grep("/missing", "x", &GrepOptions::default()),
        Errno::ENOENT,
        "/missing",
    );
}
