//! pandoc, the real program (issue 36): the pandoc project's own
//! `pandoc.wasm` installed beside the binary by scripts/fetch-pandoc.sh and
//! registered as the built-in `pandoc`, run through the CLI with pandoc's
//! own command lines, against a native pandoc.
//!
//! The oracle is the native pandoc in PyPI's pypandoc_binary wheel
//! (scripts/setup.sh puts it in `target/pandoc-oracle/`): pandoc 3.9, as no
//! registry ships a native 3.10. So the bytes are compared for what 3.9 and
//! 3.10 write alike (checked for every case here: fragments in a dozen
//! formats, docx, pptx, templates, Lua filters, the error messages and exit
//! codes); what changed between them (the default standalone templates, the
//! version it names, ODT's automatic styles) is checked by content.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

use computer_tests::{Ws, component_cache_dir, describe, run_command, text, workspace_root};

/// Every run pins the docx/pptx timestamps, as reproducible builds do.
const EPOCH: &str = "1700000000";

const DOC: &str = r#"---
title: A document
author: Someone
---

# Intro {#intro}

Some *emphasis*, **strong**, `code`, a [link](https://example.org) and a
footnote.[^1]

| a | b |
|---|---|
| 1 | 2 |

```python
print("hi")
```

> A quote, with "quotes" -- and dashes.

1. one
2. two
   - nested

Math: $e^{i\pi} + 1 = 0$.

[^1]: The note.
"#;

/// The installed program (the CLI finds it beside itself); panics with
/// what to run when it is not there. Its compile (minutes, about 7 GB of
/// memory) happens here once for every test of this binary, when
/// `computer prepare` has not done it: never in several tests at once.
fn installed() {
    static READY: OnceLock<()> = OnceLock::new();
    READY.get_or_init(|| {
        let dir = std::env::var_os("COMPUTER_PROGRAMS_DIR")
            .map(PathBuf::from)
            .unwrap_or_else(|| workspace_root().join("target/programs"));
        let wasm = dir.join("pandoc/pandoc.wasm");
        assert!(
            wasm.is_file(),
            "{} does not exist: run scripts/fetch-pandoc.sh",
            wasm.display()
        );
        let ws = Ws::new();
        let mut cmd = ws.command(&["run", "pandoc", "--version"]);
        cmd.env("COMPUTER_CACHE_DIR", component_cache_dir());
        let out = run_command(&mut cmd, b"");
        assert!(out.status.success(), "{}", describe(&["run"], &out));
    });
}

/// The native pandoc of scripts/setup.sh.
fn oracle() -> PathBuf {
    let path = std::env::var_os("COMPUTER_PANDOC_ORACLE")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace_root().join("target/pandoc-oracle/1.17/pandoc"));
    assert!(
        path.is_file(),
        "{} does not exist: run scripts/setup.sh",
        path.display()
    );
    path
}

/// Native pandoc with `args` in `dir`, with `stdin`: a clean environment
/// (no user data directory, the pinned epoch).
fn native(dir: &Path, args: &[&str], stdin: &[u8]) -> Output {
    let mut cmd = Command::new(oracle());
    cmd.args(args)
        .current_dir(dir)
        .env_clear()
        .env("HOME", dir)
        .env("SOURCE_DATE_EPOCH", EPOCH);
    run_command(&mut cmd, stdin)
}

/// A workspace with `files` under `/docs`, and a host directory holding
/// the same files for the native runs.
fn with_files(files: &[(&str, &str)]) -> (Ws, tempfile::TempDir) {
    installed();
    let ws = Ws::new();
    let host = tempfile::tempdir().unwrap();
    for (name, content) in files {
        ws.put(&format!("/docs/{name}"), content);
        std::fs::write(host.path().join(name), content).unwrap();
    }
    (ws, host)
}

/// `script` in the shell, in `/docs`, with the pinned epoch and `stdin`.
fn exec(ws: &Ws, script: &str, stdin: &[u8]) -> Output {
    let epoch = format!("SOURCE_DATE_EPOCH={EPOCH}");
    let mut args = vec![
        "exec",
        "--timeout",
        "300",
        "--cwd",
        "/docs",
        "--env",
        &epoch,
    ];
    if !stdin.is_empty() {
        args.extend(["--stdin", "-"]);
    }
    args.push(script);
    let mut cmd = ws.command(&args);
    cmd.env("COMPUTER_CACHE_DIR", component_cache_dir());
    run_command(&mut cmd, stdin)
}

fn exec_ok(ws: &Ws, script: &str) -> Output {
    let out = exec(ws, script, b"");
    assert!(
        out.status.success(),
        "{}",
        describe(&["exec", script], &out)
    );
    out
}

#[test]
fn markdown_becomes_what_native_pandoc_writes_in_each_format() {
    let (ws, host) = with_files(&[("in.md", DOC)]);
    let formats = [
        "html",
        "gfm",
        "commonmark",
        "latex",
        "typst",
        "native",
        "rst",
        "org",
        "plain",
        "asciidoc",
        "docbook",
        "man",
    ];
    // Output files relative to the cwd, by extension and by `-t`.
    let script = format!(
        "for t in {}; do pandoc in.md -t $t -o out.$t || exit; done; \
         pandoc in.md -o out.docx && pandoc in.md -o slides.pptx",
        formats.join(" ")
    );
    exec_ok(&ws, &script);
    for t in formats {
        let out = format!("out.{t}");
        native(host.path(), &["in.md", "-t", t, "-o", &out], b"");
        let want = std::fs::read(host.path().join(&out)).unwrap();
        assert_eq!(
            text(&ws.read(&format!("/docs/{out}"))),
            text(&want),
            "pandoc -t {t}"
        );
    }
    for out in ["out.docx", "slides.pptx"] {
        native(host.path(), &["in.md", "-o", out], b"");
        let want = std::fs::read(host.path().join(out)).unwrap();
        assert!(
            ws.read(&format!("/docs/{out}")) == want,
            "{out} differs from native pandoc's"
        );
    }
}

#[test]
fn odt_and_epub_are_whole_documents() {
    let (ws, host) = with_files(&[("in.md", DOC)]);
    exec_ok(
        &ws,
        "pandoc in.md -o out.odt && pandoc in.md -o book.epub && mkdir x y && \
         (cd x && unzip -q ../out.odt) && cd y && unzip -q ../book.epub",
    );
    // The text is there (3.10 names ODT's automatic styles differently from
    // 3.9, so the bytes are not compared).
    let content = text(&ws.read("/docs/x/content.xml"));
    assert!(content.contains("The note."), "{content}");
    let chapter = text(&ws.read("/docs/y/EPUB/text/ch001.xhtml"));
    assert!(chapter.contains("A quote, with"), "{chapter}");
    // Both are what native pandoc reads back to the same document.
    for file in ["out.odt", "book.epub"] {
        std::fs::write(host.path().join(file), ws.read(&format!("/docs/{file}"))).unwrap();
        let back = native(host.path(), &[file, "-t", "plain"], b"");
        assert!(back.status.success(), "{}", describe(&[file], &back));
        assert!(
            text(&back.stdout).contains("emphasis"),
            "{}",
            text(&back.stdout)
        );
    }
}

#[test]
fn stdin_to_stdout_as_native() {
    let (ws, host) = with_files(&[]);
    ws.put("/docs/.keep", "");
    let input = b"A *small* [text](x.html) with `code`.\n\n- a\n- b\n";
    for args in [
        &["-f", "markdown", "-t", "html"][..],
        &["-t", "gfm"],
        &["-t", "latex"],
    ] {
        let script = format!("pandoc {}", args.join(" "));
        let out = exec(&ws, &script, input);
        assert!(out.status.success(), "{}", describe(&[&script], &out));
        let want = native(host.path(), args, input);
        assert_eq!(text(&out.stdout), text(&want.stdout), "{script}");
    }
    // `computer run`, a relative path against `--cwd`.
    ws.put("/docs/sub/in.md", "# T\n\nx\n");
    let mut cmd = ws.command(&["run", "--cwd", "/docs/sub", "pandoc", "in.md"]);
    cmd.env("COMPUTER_CACHE_DIR", component_cache_dir());
    let run = run_command(&mut cmd, b"");
    assert!(run.status.success(), "{}", describe(&["run"], &run));
    assert_eq!(text(&run.stdout), "<h1 id=\"t\">T</h1>\n<p>x</p>\n");
    // A pipe from another command.
    let piped = exec_ok(&ws, "printf '# T\\n\\nx\\n' | pandoc -t html");
    assert_eq!(text(&piped.stdout), "<h1 id=\"t\">T</h1>\n<p>x</p>\n");
}

#[test]
fn templates_metadata_and_lua_filters_as_native() {
    let template = "<h1>$title$</h1>\n$if(author)$<p>$for(author)$$author$$sep$, $endfor$</p>$endif$\n$body$\n";
    let filter = "function Str(s) return pandoc.Str(s.text:upper()) end\n\
                  function Emph(e) return pandoc.Strong(e.content) end\n";
    let (ws, host) = with_files(&[
        ("in.md", DOC),
        ("page.html", template),
        ("upper.lua", filter),
    ]);
    ws.put("/docs/filters/upper.lua", filter);
    let cases: [&[&str]; 5] = [
        &[
            "in.md",
            "-s",
            "--template",
            "page.html",
            "--metadata",
            "title=Other",
        ],
        &[
            "in.md",
            "-s",
            "--template=page.html",
            "-M",
            "author=A",
            "-M",
            "author=B",
        ],
        &["in.md", "--lua-filter", "upper.lua"],
        &["in.md", "-s", "-t", "gfm", "--lua-filter=upper.lua"],
        &[
            "in.md",
            "-t",
            "latex",
            "-V",
            "x=1",
            "--toc",
            "-s",
            "--template",
            "page.html",
        ],
    ];
    for args in cases {
        let script = format!("pandoc {}", args.join(" "));
        let out = exec(&ws, &script, b"");
        let want = native(host.path(), args, b"");
        assert!(want.status.success(), "{}", describe(args, &want));
        assert!(out.status.success(), "{}", describe(&[&script], &out));
        assert_eq!(text(&out.stdout), text(&want.stdout), "{script}");
    }
    // A filter found by a path from a subdirectory's cwd.
    let out = exec_ok(
        &ws,
        "cd filters && pandoc ../in.md --lua-filter ./upper.lua -t plain",
    );
    assert!(text(&out.stdout).contains("INTRO"), "{}", text(&out.stdout));
}

#[test]
fn standalone_documents_carry_the_metadata() {
    let (ws, _host) = with_files(&[("in.md", DOC)]);
    let out = exec_ok(
        &ws,
        "pandoc in.md -s --metadata title=Changed -o page.html && cat page.html",
    );
    let html = text(&out.stdout);
    assert!(html.starts_with("<!DOCTYPE html>"), "{html}");
    assert!(html.contains("<title>Changed</title>"), "{html}");
    assert!(html.contains("<p class=\"author\">Someone</p>"), "{html}");
    let latex = text(&exec_ok(&ws, "pandoc in.md -s -t latex").stdout);
    assert!(latex.contains("\\title{A document}"), "{latex}");
    assert!(latex.contains("\\end{document}"), "{latex}");
}

#[test]
fn errors_are_pandocs_own_with_its_exit_codes() {
    let bad_filter = "function Str(s) return nil +\n";
    let (ws, host) = with_files(&[("in.md", DOC), ("bad.lua", bad_filter)]);
    let cases: [&[&str]; 8] = [
        &["in.md", "-t", "nosuch"],
        &["in.md", "-f", "nosuch"],
        &["in.md", "--lua-filter", "bad.lua"],
        &["in.md", "--lua-filter", "nofilter.lua"],
        &["in.md", "--template", "nowhere.html", "-s"],
        &["in.md", "--reference-doc", "nodoc.docx", "-o", "r.docx"],
        &["--no-such-option"],
        &["in.md", "-t"],
    ];
    for args in cases {
        let script = format!("pandoc {}", args.join(" "));
        let out = exec(&ws, &script, b"");
        let want = native(host.path(), args, b"");
        assert_ne!(want.status.code(), Some(0), "{}", describe(args, &want));
        // pandoc 3.10 quotes the names in these messages ('nosuch'), 3.9
        // does not: that is the one difference allowed.
        let unquoted = |bytes: &[u8]| text(bytes).replace('\'', "");
        assert_eq!(
            (out.status.code(), unquoted(&out.stderr)),
            (want.status.code(), unquoted(&want.stderr)),
            "{}",
            describe(&[&script], &out)
        );
    }
    // A missing input is an exception pandoc does not catch: the official
    // wasm build's top-level handler prints it on stdout, without native
    // GHC's `pandoc: ` prefix and backtrace (a difference of that build,
    // not of ours); the exit code is native's.
    let out = exec(&ws, "pandoc missing.md", b"");
    let want = native(host.path(), &["missing.md"], b"");
    assert_eq!(out.status.code(), want.status.code());
    let message = "missing.md: withBinaryFile: does not exist (No such file or directory)";
    assert_eq!(text(&out.stdout), format!("{message}\n"));
    assert!(text(&want.stderr).starts_with(&format!("pandoc: {message}\n")));
}

#[test]
fn version_and_format_lists() {
    let (ws, host) = with_files(&[]);
    ws.put("/docs/.keep", "");
    let version = text(&exec_ok(&ws, "pandoc --version").stdout);
    assert!(version.starts_with("pandoc 3.10\n"), "{version}");
    for list in ["--list-output-formats", "--list-input-formats"] {
        let out = exec_ok(&ws, &format!("pandoc {list}"));
        let want = native(host.path(), &[list], b"");
        assert_eq!(text(&out.stdout), text(&want.stdout), "{list}");
    }
    let formats = text(&exec_ok(&ws, "pandoc --list-output-formats").stdout);
    for f in [
        "docx", "odt", "epub", "pptx", "html", "latex", "typst", "gfm",
    ] {
        assert!(formats.lines().any(|l| l == f), "{f} in {formats}");
    }
}

#[test]
fn a_run_too_small_for_pandoc_ends_with_an_error_not_a_crash() {
    let (ws, _host) = with_files(&[("in.md", DOC)]);
    let mut cmd = ws.command(&[
        "exec",
        "--cwd",
        "/docs",
        "--memory",
        "24",
        "pandoc in.md -t html",
    ]);
    cmd.env("COMPUTER_CACHE_DIR", component_cache_dir());
    let out = run_command(&mut cmd, b"");
    let code = out.status.code();
    assert!(
        code.is_some() && code != Some(0) && code != Some(101),
        "{}",
        describe(&["exec", "--memory", "24"], &out)
    );
}

/// A command's first start in a process loads or compiles its component;
/// that time is not the run's (pandoc's compile takes minutes, a run 60 s by
/// default). python3 stands in for pandoc here: its compile (10–20 s) is
/// far longer than the run's 2 s limit, pandoc's would cost minutes.
#[test]
fn compiling_a_command_does_not_count_against_the_runs_time() {
    let ws = Ws::new();
    let cache = tempfile::tempdir().unwrap();
    let mut cmd = ws.command(&["exec", "--timeout", "2", "python3 -c 'print(6 * 7)'"]);
    cmd.env("COMPUTER_CACHE_DIR", cache.path());
    let out = run_command(&mut cmd, b"");
    assert!(out.status.success(), "{}", describe(&["exec"], &out));
    assert_eq!(text(&out.stdout), "42\n");
}

/// A 4x3 red PNG, made here (no binary fixture).
fn red_png() -> Vec<u8> {
    fn chunk(out: &mut Vec<u8>, kind: &[u8], data: &[u8]) {
        out.extend((data.len() as u32).to_be_bytes());
        let start = out.len();
        out.extend(kind);
        out.extend(data);
        out.extend(crc32(&out[start..]).to_be_bytes());
    }
    fn crc32(bytes: &[u8]) -> u32 {
        let mut crc = !0u32;
        for &b in bytes {
            crc ^= u32::from(b);
            for _ in 0..8 {
                crc = if crc & 1 == 1 {
                    (crc >> 1) ^ 0xedb8_8320
                } else {
                    crc >> 1
                };
            }
        }
        !crc
    }
    // Stored (uncompressed) deflate blocks keep the image self-made.
    let raw: Vec<u8> = (0..3)
        .flat_map(|_| [0u8].into_iter().chain([255, 0, 0].repeat(4)))
        .collect();
    let mut zlib = vec![0x78, 0x01, 1];
    zlib.extend((raw.len() as u16).to_le_bytes());
    zlib.extend((!(raw.len() as u16)).to_le_bytes());
    zlib.extend(&raw);
    let (mut a, mut b) = (1u32, 0u32);
    for &x in &raw {
        a = (a + u32::from(x)) % 65521;
        b = (b + a) % 65521;
    }
    zlib.extend(((b << 16) | a).to_be_bytes());
    let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
    let mut header = Vec::new();
    header.extend(4u32.to_be_bytes());
    header.extend(3u32.to_be_bytes());
    header.extend([8, 2, 0, 0, 0]);
    chunk(&mut png, b"IHDR", &header);
    chunk(&mut png, b"IDAT", &zlib);
    chunk(&mut png, b"IEND", &[]);
    png
}

#[test]
fn reference_docs_and_images_as_native() {
    let doc = "# Pic\n\n![A red box](img/red.png)\n\nText.\n";
    let (ws, host) = with_files(&[("doc.md", doc)]);
    let png = red_png();
    ws.put("/docs/img/red.png", &png);
    std::fs::create_dir(host.path().join("img")).unwrap();
    std::fs::write(host.path().join("img/red.png"), &png).unwrap();
    exec_ok(
        &ws,
        "pandoc --print-default-data-file reference.docx > ref.docx && \
         pandoc doc.md --reference-doc ref.docx -o out.docx && \
         pandoc doc.md --embed-resources -s --metadata title=x -o page.html",
    );
    let reference = native(
        host.path(),
        &["--print-default-data-file", "reference.docx"],
        b"",
    );
    assert!(
        ws.read("/docs/ref.docx") == reference.stdout,
        "reference.docx differs"
    );
    std::fs::write(host.path().join("ref.docx"), &reference.stdout).unwrap();
    native(
        host.path(),
        &["doc.md", "--reference-doc", "ref.docx", "-o", "out.docx"],
        b"",
    );
    let want = std::fs::read(host.path().join("out.docx")).unwrap();
    assert!(
        ws.read("/docs/out.docx") == want,
        "out.docx differs from native pandoc's"
    );
    let page = text(&ws.read("/docs/page.html"));
    assert!(page.contains("src=\"data:image/png;base64,"), "{page}");
}
