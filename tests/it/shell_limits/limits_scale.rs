//! `Limits.shell` reaching the guest, the CLI's limits, and a 100 MB file.

use super::*;

// ------------------------------------------------------------ shell limits

/// A loop of 5000 iterations that prints its count.
const LOOP_5000: &str = "i=0; while [ $i -lt 5000 ]; do i=$((i+1)); done; echo $i";

#[test]
fn loop_limit_comes_from_the_runs_limits() {
    let ws = empty_workspace();
    let with_loops = |n: u64| {
        let mut limits = shell_defaults();
        limits.shell.max_loop_iterations = n;
        limits
    };

    let r = run(&ws, LOOP_5000, with_loops(10_000));
    assert_eq!(
        (r.exit_code, text(&r).0.as_str()),
        (0, "5000\n"),
        "{}",
        show(LOOP_5000, &r)
    );

    let r = run(&ws, LOOP_5000, with_loops(1000));
    let shown = show(LOOP_5000, &r);
    assert_eq!((r.status, r.exit_code), (RunStatus::Failed, 1), "{shown}");
    assert_eq!(r.stdout, b"", "the script must stop at the loop\n{shown}");
    assert_eq!(
        text(&r).1,
        "bash: maximum loop iterations exceeded (1000) \
         (raise it with COMPUTER_SHELL_MAX_LOOP_ITERATIONS)\n",
        "{shown}"
    );

    // The caller's explicit variable wins over the run's limits.
    let r = exec(
        &ws,
        LOOP_5000,
        options(
            Some(with_loops(1000)),
            &[("COMPUTER_SHELL_MAX_LOOP_ITERATIONS", "100000")],
        ),
    );
    assert_eq!(
        (r.exit_code, text(&r).0.as_str()),
        (0, "5000\n"),
        "{}",
        show(LOOP_5000, &r)
    );
    // The other way round too: a low variable over generous limits.
    let r = exec(
        &ws,
        LOOP_5000,
        options(
            Some(with_loops(1_000_000)),
            &[("COMPUTER_SHELL_MAX_LOOP_ITERATIONS", "100")],
        ),
    );
    assert!(
        r.exit_code == 1
            && text(&r)
                .1
                .contains("maximum loop iterations exceeded (100)"),
        "{}",
        show(LOOP_5000, &r)
    );
}

#[test]
fn limit_variables_are_not_visible_to_the_script() {
    let ws = empty_workspace();
    let script = "env | grep -c '^COMPUTER_SHELL_'; echo \"${COMPUTER_SHELL_MAX_COMMANDS-unset}\"";
    let r = run(&ws, script, shell_defaults());
    assert_eq!(text(&r).0, "0\nunset\n", "{}", show(script, &r));
}

#[test]
fn command_limit_comes_from_the_runs_limits() {
    let ws = empty_workspace();
    let script = "for i in $(seq 1 1000); do true; done; echo finished";
    let r = run(&ws, script, shell_defaults());
    assert_eq!(text(&r).0, "finished\n", "{}", show(script, &r));

    let mut limits = shell_defaults();
    limits.shell.max_commands = 200;
    let r = run(&ws, script, limits);
    let shown = show(script, &r);
    assert_eq!((r.status, r.exit_code), (RunStatus::Failed, 1), "{shown}");
    assert_eq!(r.stdout, b"", "{shown}");
    assert!(
        text(&r).1.contains("COMPUTER_SHELL_MAX_COMMANDS"),
        "{shown}"
    );
}

// ------------------------------------------------------------ the CLI

#[test]
fn cli_endless_loop_times_out_with_124() {
    let ws = Ws::new();
    let args = [
        "--backend",
        "shell",
        "--timeout",
        "2",
        "while true; do :; done",
    ];
    let out = ws.exec(&args, "");
    let shown = describe(&args, &out);
    assert_eq!(out.status.code(), Some(124), "{shown}");
    assert!(out.stdout.is_empty(), "{shown}");
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("timed out"),
        "{shown}"
    );
    assert!(ws.names("/").is_empty(), "{shown}");
}

#[test]
fn cli_fork_bomb_ends() {
    let ws = Ws::new();
    let args = ["--backend", "shell", "--timeout", "60", ":(){ :|:& };:"];
    let out = ws.exec(&args, "");
    let shown = describe(&args, &out);
    let code = out.status.code();
    assert!(code == Some(1) || code == Some(124), "{shown}");
    assert!(out.stdout.is_empty(), "{shown}");
    // Only the kept copy of the cut stderr (/.computer/output).
    let names = ws.names("/");
    assert!(names.iter().all(|n| n == ".computer"), "{names:?}\n{shown}");
}

#[test]
fn cli_command_not_found_is_127() {
    let ws = Ws::new();
    // The CLI's default backend is the shell.
    let mut cmd = ws.command(&["exec", "nosuchcmd"]);
    cmd.env("COMPUTER_CACHE_DIR", computer_tests::component_cache_dir());
    let out = computer_tests::run_command(&mut cmd, b"");
    let shown = describe(&["exec", "nosuchcmd"], &out);
    assert_eq!(out.status.code(), Some(127), "{shown}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let lines: Vec<&str> = stderr.lines().collect();
    assert!(
        lines[0].starts_with("bash: ") && lines[0].ends_with("nosuchcmd: command not found"),
        "{shown}"
    );
    // Then the CLI's own word on what could run it.
    assert_eq!(lines.len(), 2, "{shown}");
    assert!(
        lines[1].starts_with("computer: exit 127: `nosuchcmd`"),
        "{shown}"
    );
}

// ------------------------------------------------------------ scale

/// Words cycled through the big file; `grep -c` counts one of them.
const WORDS: [&str; 7] = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta"];

/// Deterministic content of at least `size` bytes: numbered lines whose
/// leading key is scrambled, so `sort` has real work to do.
fn big_content(size: usize) -> Vec<u8> {
    use std::io::Write;
    let mut data = Vec::with_capacity(size + 64);
    let mut i: u64 = 0;
    while data.len() < size {
        let key = i.wrapping_mul(2_654_435_761) % 4_294_967_296;
        writeln!(data, "{key:010} {i:08} {}", WORDS[(i % 7) as usize]).expect("vec write");
        i += 1;
    }
    data
}

#[test]
fn hundred_megabyte_file_with_cat_grep_wc_sort_sha256sum() {
    let started = Instant::now();
    let data = big_content(100 << 20);
    let ws = empty_workspace();

    // The expected results are computed while the store takes the file.
    let (expected, written) = std::thread::scope(|s| {
        let writer = s.spawn(|| {
            ws.write("/f", &data, &WriteOptions::default())
                .expect("writing /f");
            started.elapsed()
        });
        let lines: Vec<&[u8]> = data
            .split(|b| *b == b'\n')
            .filter(|l| !l.is_empty())
            .collect();
        let gammas = lines
            .iter()
            .filter(|l| l.windows(5).any(|w| w == b"gamma"))
            .count();
        let max_line = lines.iter().max().expect("lines");
        let digest: String = Sha256::digest(&data)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        let mib = |n: usize| n << 20;
        // (script, memory cap, expected stdout). The caps bound how much
        // the guest may grow: `wc FILE` reads in ranges and `cat f | wc -c`
        // streams through a bounded pipe, both well below the file's size;
        // grep and sha256sum take the file whole, within 2.5 times its size.
        // `sort` needs 6 times the file's size: it gets the shell's default
        // (1 GiB).
        let shell_memory = shell_defaults().memory_bytes;
        let expected: Vec<(&str, usize, String)> = vec![
            ("cat f | wc -c", mib(64), format!("{}\n", data.len())),
            ("cat f | grep -c gamma", mib(64), format!("{gammas}\n")),
            ("wc -l f", mib(64), format!("{} f\n", lines.len())),
            ("grep -c gamma f", mib(256), format!("{gammas}\n")),
            ("sha256sum f", mib(256), format!("{digest}  f\n")),
            (
                "sort f | tail -1",
                shell_memory,
                format!("{}\n", String::from_utf8_lossy(max_line)),
            ),
        ];
        (expected, writer.join().expect("writer thread"))
    });
    let prepared = started.elapsed();

    let mut timings = Vec::new();
    let mut failures = Vec::new();
    for (script, memory, want) in &expected {
        let limits = Limits {
            memory_bytes: *memory,
            ..limits_with_timeout(Duration::from_secs(120))
        };
        let r = run(&ws, script, limits);
        timings.push(format!("{script}: {:?}", r.duration));
        let got = text(&r).0;
        if r.exit_code != 0 || &got != want || !r.stderr.is_empty() {
            failures.push(format!(
                "want {want:?} (memory cap {} MiB)\n{}",
                memory >> 20,
                show(script, &r)
            ));
        }
    }
    eprintln!(
        "100 MB file ({} bytes): stored in {written:?}, prepared in {prepared:?}; {}",
        data.len(),
        timings.join("; ")
    );
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    // The commands only read.
    let paths: BTreeSet<String> = tree(&ws).into_keys().collect();
    assert_eq!(paths, BTreeSet::from(["/f".to_owned()]));
    assert_eq!(ws.stat("/f").expect("stat /f").size, data.len() as u64);
}
