//! `fs find` (globs) and `fs grep` (literal or regex content search).

use computer_tests::{
    Ws, describe, entry_strings, json, one_json, parse_error_json, text, with_json,
};

/// ```text
/// /proj/README.md
/// /proj/docs/{c.txt, guide.md}
/// /proj/link -> /proj/src
/// /proj/src/{lib.rs, main.rs}
/// /proj/src/util/{a.rs, b.rs}
/// ```
fn project() -> Ws {
    let ws = Ws::new();
    ws.put("/proj/README.md", "# Title\nSee src.\n");
    ws.put("/proj/src/main.rs", "fn main() {\n    helper();\n}\n");
    ws.put("/proj/src/lib.rs", "pub fn helper() {}\n");
    ws.put("/proj/src/util/a.rs", "// a\n");
    ws.put("/proj/src/util/b.rs", "// b\n");
    ws.put("/proj/docs/guide.md", "Guide\n");
    ws.put("/proj/docs/c.txt", "c\n");
    ws.ok(&["fs", "ln", "-s", "/proj/src", "/proj/link"]);
    ws
}

/// The paths `fs find --json DIR PATTERN` reports.
fn find(ws: &Ws, dir: &str, pattern: &str) -> Vec<String> {
    entry_strings(&ws.json(&["fs", "find", dir, pattern]), "entries", "path")
}

// ---------------------------------------------------------------- find

#[test]
fn find_star_stays_in_one_directory_and_marks_directories() {
    let ws = project();
    assert_eq!(
        ws.ok(&["fs", "find", "/proj", "*"]),
        "/proj/README.md\n/proj/docs/\n/proj/link\n/proj/src/\n"
    );
    assert_eq!(
        ws.json(&["fs", "find", "/proj", "*"]),
        json!({
            "entries": [
                {"path": "/proj/README.md", "kind": "file"},
                {"path": "/proj/docs", "kind": "directory"},
                {"path": "/proj/link", "kind": "symlink"},
                {"path": "/proj/src", "kind": "directory"},
            ],
            "next_offset": null,
        })
    );
}

#[test]
fn find_double_star_walks_depth_first_in_name_order() {
    let ws = project();
    assert_eq!(
        find(&ws, "/proj", "**"),
        [
            "/proj/README.md",
            "/proj/docs",
            "/proj/docs/c.txt",
            "/proj/docs/guide.md",
            "/proj/link",
            "/proj/src",
            "/proj/src/lib.rs",
            "/proj/src/main.rs",
            "/proj/src/util",
            "/proj/src/util/a.rs",
            "/proj/src/util/b.rs",
        ]
    );
}

#[test]
fn find_glob_forms() {
    let ws = project();
    assert_eq!(
        find(&ws, "/proj", "**/*.rs"),
        [
            "/proj/src/lib.rs",
            "/proj/src/main.rs",
            "/proj/src/util/a.rs",
            "/proj/src/util/b.rs"
        ]
    );
    assert_eq!(
        find(&ws, "/proj", "src/*.rs"),
        ["/proj/src/lib.rs", "/proj/src/main.rs"]
    );
    assert_eq!(
        find(&ws, "/proj", "src/util/?.rs"),
        ["/proj/src/util/a.rs", "/proj/src/util/b.rs"]
    );
    assert_eq!(find(&ws, "/proj", "**/[a].rs"), ["/proj/src/util/a.rs"]);
    assert_eq!(find(&ws, "/proj", "**/[!a].rs"), ["/proj/src/util/b.rs"]);
    assert_eq!(find(&ws, "/proj", "**/[a-z]ain.rs"), ["/proj/src/main.rs"]);
    assert_eq!(
        find(&ws, "/proj", "**/*.{md,txt}"),
        ["/proj/README.md", "/proj/docs/c.txt", "/proj/docs/guide.md"]
    );
    assert_eq!(
        find(&ws, "/proj", "{docs,src}/*"),
        [
            "/proj/docs/c.txt",
            "/proj/docs/guide.md",
            "/proj/src/lib.rs",
            "/proj/src/main.rs",
            "/proj/src/util"
        ]
    );
    assert_eq!(
        find(&ws, "/proj", "src/**"),
        [
            "/proj/src/lib.rs",
            "/proj/src/main.rs",
            "/proj/src/util",
            "/proj/src/util/a.rs",
            "/proj/src/util/b.rs",
        ]
    );
}

#[test]
fn find_star_and_question_mark_do_not_cross_slashes() {
    let ws = project();
    assert_eq!(find(&ws, "/proj", "src*"), ["/proj/src"]);
    assert_eq!(find(&ws, "/proj", "*.rs"), Vec::<String>::new());
    assert_eq!(find(&ws, "/proj", "src?lib.rs"), Vec::<String>::new());
}

#[test]
fn find_is_case_sensitive_and_no_match_is_empty_success() {
    let ws = project();
    assert_eq!(ws.ok(&["fs", "find", "/proj", "**/*.MD"]), "");
    assert_eq!(
        ws.json(&["fs", "find", "/proj", "**/*.MD"]),
        json!({"entries": [], "next_offset": null})
    );
}

#[test]
fn find_relative_to_a_subdirectory_reports_absolute_paths() {
    let ws = project();
    assert_eq!(
        ws.ok(&["fs", "find", "/proj/src", "*"]),
        "/proj/src/lib.rs\n/proj/src/main.rs\n/proj/src/util/\n"
    );
    assert_eq!(find(&ws, "/proj/src/util", "b.rs"), ["/proj/src/util/b.rs"]);
}

#[test]
fn find_lists_symlinks_without_following_them() {
    let ws = project();
    assert_eq!(find(&ws, "/proj", "link/**"), Vec::<String>::new());
    assert_eq!(find(&ws, "/proj", "l*"), ["/proj/link"]);
    // Searching from a symlink to a directory searches the target.
    assert_eq!(
        find(&ws, "/proj/link", "*.rs"),
        ["/proj/link/lib.rs", "/proj/link/main.rs"]
    );
}

#[test]
fn find_pages_with_offset_and_limit() {
    let ws = project();
    let out = ws.run(&["fs", "find", "/proj", "**/*.rs", "--limit", "3"], "");
    assert!(out.status.success(), "{}", describe(&["fs", "find"], &out));
    assert_eq!(
        text(&out.stdout),
        "/proj/src/lib.rs\n/proj/src/main.rs\n/proj/src/util/a.rs\n"
    );
    assert_eq!(text(&out.stderr), "(more results: --offset 3)\n");

    let doc = ws.json(&["fs", "find", "/proj", "**/*.rs", "--limit", "3"]);
    assert_eq!(doc["next_offset"], 3);
    let doc = ws.json(&[
        "fs", "find", "/proj", "**/*.rs", "--offset", "3", "--limit", "3",
    ]);
    assert_eq!(
        doc,
        json!({"entries": [{"path": "/proj/src/util/b.rs", "kind": "file"}], "next_offset": null})
    );
    // A page that ends exactly at the last result has no next page.
    let doc = ws.json(&["fs", "find", "/proj", "**/*.rs", "--limit", "4"]);
    assert_eq!(
        (doc["entries"].as_array().map(Vec::len), &doc["next_offset"]),
        (Some(4), &json!(null))
    );
    let doc = ws.json(&[
        "fs", "find", "/proj", "**/*.rs", "--offset", "1", "--limit", "2",
    ]);
    assert_eq!(
        entry_strings(&doc, "entries", "path"),
        ["/proj/src/main.rs", "/proj/src/util/a.rs"]
    );
    assert_eq!(doc["next_offset"], 3);
    assert_eq!(
        ws.ok(&["fs", "find", "/proj", "**/*.rs", "--offset", "10"]),
        ""
    );
}

#[test]
fn find_errors() {
    let ws = project();
    assert_eq!(
        ws.err(&["fs", "find", "/nope", "*"]),
        ("ENOENT".into(), "no such file or directory: /nope".into())
    );
    assert_eq!(
        ws.err(&["fs", "find", "/proj/README.md", "*"]),
        ("ENOTDIR".into(), "not a directory: /proj/README.md".into())
    );
    let (code, message) = ws.err(&["fs", "find", "/proj", "["]);
    assert_eq!(code, "EINVAL");
    assert!(
        message.starts_with("invalid argument: bad glob pattern \"[\""),
        "{message}"
    );
    assert_eq!(ws.errno(&["fs", "find", "/proj", ""]), "EINVAL");
    assert_eq!(ws.errno(&["fs", "find", "proj", "*"]), "EINVAL");
}

// ---------------------------------------------------------------- grep

/// `fs grep ARGS` finds nothing: exit 1 and nothing on stdout.
fn assert_no_match(ws: &Ws, args: &[&str]) {
    let mut full = vec!["fs", "grep"];
    full.extend_from_slice(args);
    let out = ws.run(&full, "");
    assert!(
        out.status.code() == Some(1) && out.stdout.is_empty(),
        "expected no match\n{}",
        describe(&full, &out)
    );
}

/// ```text
/// /g/one.txt   alpha Beta gamma delta epsilon (one per line)
/// /g/sub/two.md  "beta two", "zeta"
/// /g/bin.dat   binary (a NUL) that also says beta
/// /g/crlf.txt  "a.c", "abc" with CRLF line ends
/// ```
fn corpus() -> Ws {
    let ws = Ws::new();
    ws.put("/g/one.txt", "alpha\nBeta\ngamma\ndelta\nepsilon\n");
    ws.put("/g/sub/two.md", "beta two\nzeta\n");
    ws.put("/g/bin.dat", b"bin\0beta\n");
    ws.put("/g/crlf.txt", "a.c\r\nabc\r\n");
    ws
}

/// `path:line` of every match `fs grep --json ARGS` reports.
fn hits(ws: &Ws, args: &[&str]) -> Vec<String> {
    let mut full = vec!["fs", "grep"];
    full.extend_from_slice(args);
    let doc = ws.json(&full);
    doc["matches"]
        .as_array()
        .expect("matches")
        .iter()
        .map(|m| format!("{}:{}", m["path"].as_str().expect("path"), m["line_number"]))
        .collect()
}

#[test]
fn grep_literal_prints_path_line_number_and_line() {
    let ws = corpus();
    assert_eq!(
        ws.ok(&["fs", "grep", "beta", "/g"]),
        "/g/sub/two.md:1:beta two\n"
    );
    assert_eq!(
        ws.ok(&["fs", "grep", "eta", "/g"]),
        "/g/one.txt:2:Beta\n/g/sub/two.md:1:beta two\n/g/sub/two.md:2:zeta\n"
    );
}

#[test]
fn grep_json_document() {
    let ws = corpus();
    assert_eq!(
        ws.json(&["fs", "grep", "-i", "beta", "/g"]),
        json!({
            "matches": [
                {"path": "/g/one.txt", "line_number": 2, "line": "Beta", "before": [], "after": []},
                {"path": "/g/sub/two.md", "line_number": 1, "line": "beta two", "before": [], "after": []},
            ],
            "next_offset": null,
            "binary_files_skipped": 1,
        })
    );
}

#[test]
fn grep_literal_treats_regex_characters_literally() {
    let ws = corpus();
    assert_eq!(hits(&ws, &["a.c", "/g"]), ["/g/crlf.txt:1"]);
    assert_no_match(&ws, &["(", "/g"]);
    assert_no_match(&ws, &["a*c", "/g"]);
}

#[test]
fn grep_regex() {
    let ws = corpus();
    assert_eq!(
        hits(&ws, &["--regex", "a.c", "/g"]),
        ["/g/crlf.txt:1", "/g/crlf.txt:2"]
    );
    assert_eq!(
        ws.ok(&["fs", "grep", "-E", "^[gd]", "/g"]),
        "/g/one.txt:3:gamma\n/g/one.txt:4:delta\n"
    );
    // Line ends (CRLF too) are not part of the line.
    assert_eq!(
        hits(&ws, &["-E", "c$", "/g"]),
        ["/g/crlf.txt:1", "/g/crlf.txt:2"]
    );
}

#[test]
fn grep_ignore_case() {
    let ws = corpus();
    assert_no_match(&ws, &["BETA", "/g"]);
    assert_eq!(
        hits(&ws, &["-i", "BETA", "/g"]),
        ["/g/one.txt:2", "/g/sub/two.md:1"]
    );
    assert_eq!(
        hits(&ws, &["--ignore-case", "-E", "^b", "/g"]),
        ["/g/one.txt:2", "/g/sub/two.md:1"]
    );
}

#[test]
fn grep_context_lines() {
    let ws = corpus();
    let out = ws.ok(&["fs", "grep", "-C", "1", "gamma", "/g"]);
    assert!(
        out.starts_with("/g/one.txt-2-Beta\n/g/one.txt:3:gamma\n/g/one.txt-4-delta\n"),
        "{out}"
    );
    let doc = ws.json(&["fs", "grep", "-C", "2", "alpha", "/g"]);
    assert_eq!(
        doc["matches"],
        json!([{"path": "/g/one.txt", "line_number": 1, "line": "alpha", "before": [], "after": ["Beta", "gamma"]}])
    );
    let doc = ws.json(&["fs", "grep", "--context", "3", "epsilon", "/g"]);
    assert_eq!(
        doc["matches"],
        json!([{"path": "/g/one.txt", "line_number": 5, "line": "epsilon", "before": ["Beta", "gamma", "delta"], "after": []}])
    );
}

#[test]
fn grep_include_glob() {
    let ws = corpus();
    assert_eq!(
        hits(&ws, &["-i", "beta", "/g", "--include", "*.md"]),
        ["/g/sub/two.md:1"]
    );
    assert_eq!(
        hits(&ws, &["-i", "beta", "/g", "--include", "*.txt"]),
        ["/g/one.txt:2"]
    );
    // With a slash the glob applies to the path below the search root.
    assert_eq!(
        hits(&ws, &["eta", "/g", "--include", "sub/*"]),
        ["/g/sub/two.md:1", "/g/sub/two.md:2"]
    );
    assert_eq!(
        hits(&ws, &["eta", "/g", "--include", "*.{md,rs}"]),
        ["/g/sub/two.md:1", "/g/sub/two.md:2"]
    );
}

#[test]
fn grep_a_single_file() {
    let ws = corpus();
    assert_eq!(
        ws.ok(&["fs", "grep", "-E", "a$", "/g/one.txt"]),
        "/g/one.txt:1:alpha\n/g/one.txt:2:Beta\n/g/one.txt:3:gamma\n/g/one.txt:4:delta\n"
    );
}

#[test]
fn grep_defaults_to_the_whole_workspace() {
    let ws = corpus();
    assert_eq!(ws.ok(&["fs", "grep", "zeta"]), "/g/sub/two.md:2:zeta\n");
}

#[test]
fn grep_skips_binary_files() {
    let ws = corpus();
    // /g/bin.dat holds "bin" and "beta", after a NUL byte.
    assert_no_match(&ws, &["bin", "/g"]);
    let doc = ws.json(&["fs", "grep", "beta", "/g"]);
    assert_eq!(entry_strings(&doc, "matches", "path"), ["/g/sub/two.md"]);
    assert_eq!(doc["binary_files_skipped"], 1);
}

#[test]
fn grep_pages_with_offset_and_limit() {
    let ws = corpus();
    let out = ws.run(&["fs", "grep", "-i", "e", "/g/one.txt", "--limit", "2"], "");
    assert!(out.status.success(), "{}", describe(&["fs", "grep"], &out));
    assert_eq!(text(&out.stdout), "/g/one.txt:2:Beta\n/g/one.txt:4:delta\n");
    assert_eq!(text(&out.stderr), "(more matches: --offset 2)\n");
    let doc = ws.json(&[
        "fs", "grep", "-i", "e", "/g", "--offset", "2", "--limit", "2",
    ]);
    assert_eq!(doc["next_offset"], 4);
    let page: Vec<_> = doc["matches"]
        .as_array()
        .expect("matches")
        .iter()
        .map(|m| m["line"].clone())
        .collect();
    assert_eq!(page, [json!("epsilon"), json!("beta two")]);
    let doc = ws.json(&["fs", "grep", "-i", "e", "/g", "--offset", "4"]);
    assert_eq!(doc["next_offset"], json!(null));
    assert_eq!(doc["matches"][0]["line"], "zeta");
}

#[test]
fn grep_with_no_match_exits_1_and_prints_no_matches() {
    let ws = corpus();
    assert_no_match(&ws, &["nothing-like-this", "/g"]);
    assert_no_match(&ws, &["-E", "^zzz", "/g/one.txt"]);
}

#[test]
fn grep_with_no_match_and_json_prints_one_document() {
    let ws = corpus();
    let args = with_json(&["fs", "grep", "nothing-like-this", "/g"]);
    let out = ws.run(&args, "");
    assert_eq!(out.status.code(), Some(1), "{}", describe(&args, &out));
    one_json(&out.stdout);
}

#[test]
fn grep_with_no_match_prints_no_error_message() {
    let ws = corpus();
    let out = ws.run(&["fs", "grep", "nothing-like-this", "/g"], "");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(text(&out.stderr), "");
}

#[test]
fn grep_errors() {
    let ws = corpus();
    assert_eq!(
        ws.err(&["fs", "grep", "x", "/nope"]),
        ("ENOENT".into(), "no such file or directory: /nope".into())
    );
    assert_eq!(ws.errno(&["fs", "grep", "", "/g"]), "EINVAL");
    assert_eq!(
        ws.errno(&["fs", "grep", "x", "/g", "--include", "["]),
        "EINVAL"
    );

    // A regex error message spans several lines (it shows where the error is).
    let out = ws.run(&["fs", "grep", "-E", "(", "/g"], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let stderr = text(&out.stderr);
    assert!(
        stderr.starts_with("computer: EINVAL: invalid argument: bad regular expression \"(\""),
        "{stderr}"
    );
    let out = ws.run(&["fs", "grep", "-E", "(", "/g", "--json"], "");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(parse_error_json(&one_json(&out.stdout)).0, "EINVAL");
}
