//! `python3`, built into the binary (`computer-builtins`), against the
//! machine's CPython as the oracle: the same command lines run natively in a
//! copy of `tests/fixtures/python3-cli/proj` and through `computer run` (and
//! a shell script) on the workspace, compared on stdout, stderr and exit
//! code. Where 3.11 (the host) and 3.14 word things differently (traceback
//! carets, unittest headers, WASI's errno numbers), the exit code and the
//! last line of stderr are compared instead.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use computer_tests::{Ws, component_cache_dir, describe, run_command, text, workspace_root};

fn proj() -> PathBuf {
    workspace_root().join("tests/fixtures/python3-cli/proj")
}

/// How much of the output must match.
#[derive(Clone, Copy, PartialEq)]
enum Match {
    /// stdout, stderr and the exit code.
    All,
    /// stdout, the exit code and stderr's last line (3.14 words the rest differently).
    LastErrorLine,
    /// stdout and the exit code.
    Stdout,
}

const CASES: &[(&str, Option<&str>, &[&str], Match)] = &[
    ("argv", None, &["argv.py", "one", "two words"], Match::All),
    ("argv-dots", None, &["./pkg/../argv.py", "x"], Match::All),
    ("imports", None, &["imports.py"], Match::All),
    ("pkg-dir", None, &["pkg", "a", "b"], Match::All),
    ("m-pkg", None, &["-m", "pkg", "a", "b"], Match::All),
    (
        "c-argv",
        None,
        &[
            "-c",
            "import sys; print(sys.argv, repr(sys.path[0]))",
            "x",
            "-u",
        ],
        Match::All,
    ),
    ("c-traceback", None, &["-c", "1/0"], Match::LastErrorLine),
    ("traceback", None, &["boom.py"], Match::LastErrorLine),
    ("syntax", None, &["syntax_error.py"], Match::All),
    ("exit-0", None, &["exits.py", "0"], Match::All),
    ("exit-3", None, &["exits.py", "3"], Match::All),
    ("exit-256", None, &["exits.py", "256"], Match::All),
    ("exit-msg", None, &["exits.py", "bye"], Match::All),
    ("stdin-script", Some("stdin_stats.py"), &["-"], Match::All),
    ("stdin-noarg", Some("stdin_stats.py"), &[], Match::All),
    (
        "stdin-data",
        Some("data.csv"),
        &["stdin_stats.py"],
        Match::All,
    ),
    (
        "json-tool",
        Some("in.json"),
        &["-m", "json.tool", "--sort-keys"],
        Match::All,
    ),
    (
        "json-tool-file",
        None,
        &["-m", "json.tool", "in.json"],
        Match::All,
    ),
    ("stdlib", None, &["stdlib_mix.py"], Match::All),
    ("sqlite", None, &["sqlite_demo.py", "demo.db"], Match::All),
    (
        "unittest",
        None,
        &["-m", "unittest", "test_calc"],
        Match::LastErrorLine,
    ),
    (
        "unittest-main",
        None,
        &["test_calc.py"],
        Match::LastErrorLine,
    ),
    (
        "py_compile",
        None,
        &["-m", "py_compile", "helper.py"],
        Match::All,
    ),
    ("no-module", None, &["-m", "no_such_module"], Match::All),
    ("bad-option", None, &["-Z"], Match::All),
    ("no-c-arg", None, &["-c"], Match::All),
    ("unclosed", None, &["unclosed.py", "3"], Match::All),
    ("unclosed-ok", None, &["check_unclosed.py"], Match::All),
    (
        "os-exit",
        None,
        &[
            "-c",
            "import os; print(1, flush=True); print(2); os._exit(5)",
        ],
        Match::All,
    ),
    (
        "optimize",
        None,
        &["-O", "-c", "assert False, 1; print(__debug__)"],
        Match::All,
    ),
    (
        "skip-first",
        None,
        &["-x", "skip_first.py", "a"],
        Match::All,
    ),
    ("recursion", None, &["recurse.py"], Match::LastErrorLine),
    (
        "big-output",
        None,
        &["-c", "for i in range(100000): print(i)"],
        Match::Stdout,
    ),
];

fn native(dir: &Path, stdin: Option<&str>, args: &[&str]) -> Output {
    let mut cmd = Command::new("/usr/bin/python3");
    cmd.args(args)
        .current_dir(dir)
        .env_clear()
        .env("PATH", "/usr/bin:/bin");
    let input = stdin
        .map(|f| std::fs::read(dir.join(f)).unwrap())
        .unwrap_or_default();
    run_command(&mut cmd, &input)
}

fn ours(ws: &Ws, stdin: Option<&str>, args: &[&str]) -> Output {
    let stdin_path = stdin.map(|f| proj().join(f).display().to_string());
    let mut argv: Vec<&str> = vec!["run", "--cwd", "/proj"];
    if let Some(p) = &stdin_path {
        argv.extend(["--stdin", p]);
    }
    argv.push("python3");
    argv.extend(args);
    let mut cmd = ws.command(&argv);
    cmd.env("COMPUTER_CACHE_DIR", component_cache_dir());
    run_command(&mut cmd, b"")
}

fn last_line(bytes: &[u8]) -> String {
    text(bytes).lines().last().unwrap_or("").to_owned()
}

#[test]
fn python3_matches_cpython_on_agent_command_lines() {
    let ws = Ws::new();
    ws.ok(&["import", proj().to_str().unwrap(), "/proj"]);
    let host = tempfile::tempdir().unwrap();
    let copy = host.path().join("proj");
    computer_tests::corpus::copy_tree(&proj(), &copy).unwrap();
    let mut failures = Vec::new();
    for (name, stdin, args, how) in CASES {
        let want = native(&copy, *stdin, args);
        let got = ours(&ws, *stdin, args);
        let norm = |b: &[u8]| {
            text(b)
                .replace(copy.to_str().unwrap(), "/proj")
                .replace("/usr/bin/python3", "python3")
        };
        let same = want.status.code() == got.status.code()
            && norm(&want.stdout) == text(&got.stdout)
            && match how {
                Match::All => norm(&want.stderr) == text(&got.stderr),
                Match::LastErrorLine => last_line(&want.stderr) == last_line(&got.stderr),
                Match::Stdout => true,
            };
        if !same {
            failures.push(format!(
                "{name}: python3 {args:?}\n  native: exit {:?}\n  stdout {:?}\n  stderr {:?}\n{}",
                want.status.code(),
                norm(&want.stdout).chars().take(400).collect::<String>(),
                norm(&want.stderr).chars().take(400).collect::<String>(),
                describe(args, &got)
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} differ:\n{}",
        failures.len(),
        CASES.len(),
        failures.join("\n")
    );
}

#[test]
fn python3_in_shell_scripts_shares_files_and_pipes() {
    let ws = Ws::new();
    let out = ws.ok(&[
        "exec",
        "mkdir -p /d && cd /d && printf 'a,1\\nb,2\\n' > in.csv && \
         python3 -c 'import csv, sys; print(sum(int(r[1]) for r in csv.reader(open(\"in.csv\"))))' && \
         printf 'print(open(\"in.csv\").read().count(\"\\\\n\"))\\n' > count.py && python3 count.py && \
         seq 1 5 | python3 -c 'import sys; print(sum(map(int, sys.stdin)))' | tr 1 X && \
         python3 -c 'open(\"out.txt\", \"w\").write(\"from python\")' && cat out.txt && echo && \
         python3 -c 'import sys; sys.exit(7)'; echo \"exit $?\"; \
         printf '#!/usr/bin/env python3\\nimport sys\\nprint(\"shebang\", sys.argv[1:])\\n' > tool.py && chmod +x tool.py && ./tool.py z; \
         python3 -c 'import tempfile, os; d = tempfile.mkdtemp(); print(d.startswith(\"/tmp/\"), os.path.isdir(d))'; \
         command -v python3; python -c 'print(\"python too\")'",
    ]);
    assert_eq!(
        out,
        "3\n2\nX5\nfrom python\nexit 7\nshebang ['z']\nTrue True\n/usr/bin/python3\npython too\n"
    );
    // The workspace got no bytecode.
    let listing = ws.ok(&["fs", "find", "/d", "**"]);
    assert!(
        !listing.contains("__pycache__") && !listing.contains(".pyc"),
        "{listing}"
    );
}
