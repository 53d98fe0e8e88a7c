//! `computer exec --backend container|auto` and `computer container`
//! through the binary, against a real engine (skipped loudly without one,
//! unless `COMPUTER_REQUIRE_CONTAINER=1`).

use std::path::Path;
use std::process::{Command, Output};

use computer_tests::{component_cache_dir, computer, describe, one_json, run_command, text};

use crate::support::{TEST_IMAGE, skip};

fn engine_available() -> bool {
    let backend = computer_container::ContainerBackend::new(Default::default()).expect("backend");
    match backend.connect() {
        Ok(_) => true,
        Err(e) => {
            skip("container CLI tests", &e.to_string());
            false
        }
    }
}

/// `computer --workspace DIR/ws.db ARGS`. The cache is shared by the
/// tests, so the shell guest is compiled once, not per test (minutes in a
/// debug build); container state in it is keyed by workspace, and each test
/// has its own.
fn cmd(dir: &Path, args: &[&str]) -> Command {
    let mut c = computer(dir);
    c.arg("--workspace")
        .arg(dir.join("ws.db"))
        .args(args)
        .env("COMPUTER_CACHE_DIR", component_cache_dir())
        .env("COMPUTER_CONTAINER_IMAGE", TEST_IMAGE);
    c
}

fn run(dir: &Path, args: &[&str], stdin: &[u8]) -> Output {
    run_command(&mut cmd(dir, args), stdin)
}

#[test]
fn exec_in_the_container_from_the_command_line() {
    if !engine_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let out = run(d, &["fs", "write", "/in.txt"], b"from the workspace\n");
    assert!(out.status.success(), "{}", describe(&["fs", "write"], &out));

    let args = [
        "exec",
        "--backend",
        "container",
        "--stdin",
        "-",
        "cat in.txt; cat > piped.txt; echo made > made.txt; exit 7",
    ];
    let out = run(d, &args, b"stdin text\n");
    assert_eq!(out.status.code(), Some(7), "{}", describe(&args, &out));
    assert_eq!(text(&out.stdout), "from the workspace\n");
    let out = run(d, &["fs", "read", "/piped.txt"], b"");
    assert_eq!(text(&out.stdout), "stdin text\n");

    let args = ["--json", "exec", "--backend", "container", "cat made.txt"];
    let out = run(d, &args, b"");
    assert!(out.status.success(), "{}", describe(&args, &out));
    let doc = one_json(&out.stdout);
    assert_eq!(doc["backend"], "container");
    assert_eq!(doc["stdout"], "made\n");
    assert_eq!(
        (doc["pushed"].as_u64(), doc["pulled"].as_u64()),
        (Some(0), Some(0))
    );
    assert_eq!(doc["container"]["created"], false);

    let args = ["--json", "exec", "--backend", "auto", "dc -e '2 3 + p'"];
    let out = run(d, &args, b"");
    assert!(out.status.success(), "{}", describe(&args, &out));
    let doc = one_json(&out.stdout);
    assert_eq!(
        (doc["backend"].as_str(), doc["stdout"].as_str()),
        (Some("container"), Some("5\n"))
    );
    assert_eq!(doc["fallback"]["exit_code"], 127);

    let args = [
        "exec",
        "--backend",
        "container",
        "--timeout",
        "1",
        "sleep 60",
    ];
    let out = run(d, &args, b"");
    assert_eq!(out.status.code(), Some(124), "{}", describe(&args, &out));

    let out = run(d, &["--json", "container", "status"], b"");
    let doc = one_json(&out.stdout);
    assert_eq!(doc["container"]["state"], "running", "{doc}");
    let out = run(d, &["--json", "container", "stop"], b"");
    assert!(
        out.status.success(),
        "{}",
        describe(&["container", "stop"], &out)
    );
    assert_eq!(one_json(&out.stdout)["removed"], true);
    let out = run(d, &["--json", "container", "status"], b"");
    assert!(one_json(&out.stdout)["container"].is_null());
}

#[test]
fn without_an_engine_container_exec_exits_125_and_the_shell_still_works() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let missing = format!("unix://{}/missing.sock", d.display());
    let args = ["exec", "--backend", "container", "echo hi"];
    let out = run_command(cmd(d, &args).env("DOCKER_HOST", &missing), b"");
    assert_eq!(out.status.code(), Some(125), "{}", describe(&args, &out));
    let err = text(&out.stderr);
    assert!(
        err.contains("no container engine: set DOCKER_HOST or start podman system service"),
        "{err}"
    );
    assert!(out.stdout.is_empty());

    let args = ["exec", "--backend", "shell", "echo still here"];
    let out = run_command(cmd(d, &args).env("DOCKER_HOST", &missing), b"");
    assert!(out.status.success(), "{}", describe(&args, &out));
    assert_eq!(text(&out.stdout), "still here\n");
}

#[test]
fn a_program_the_image_lacks_points_to_the_image_that_has_it() {
    if !engine_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // The test image is busybox: no gcc. `auto` moves the run there, and
    // the hint says which image has gcc and how to get it.
    let args = ["--json", "exec", "--backend", "auto", "gcc --version"];
    let out = run(d, &args, b"");
    assert_eq!(out.status.code(), Some(127), "{}", describe(&args, &out));
    let doc = one_json(&out.stdout);
    assert_eq!(doc["backend"], "container", "{doc}");
    assert_eq!(doc["fallback"]["from"], "shell", "{doc}");
    assert_eq!(doc["container"]["image"], TEST_IMAGE, "{doc}");
    assert!(
        doc["container"]["engine"]
            .as_str()
            .is_some_and(|e| e.contains("://")),
        "the result names the engine: {doc}"
    );
    let hint = doc["hint"].as_str().unwrap_or_default();
    assert!(
        hint.contains(&format!("the image {TEST_IMAGE} has no `gcc`"))
            && hint.contains(&format!(
                "the default image {} has it",
                computer_container::DEFAULT_IMAGE
            ))
            && hint.contains("scripts/build-image.sh"),
        "{hint}"
    );
    let _ = run(d, &["container", "stop"], b"");
}

/// The Debian image `scripts/build-image.sh` builds is not built in CI (it
/// takes minutes): these checks run where it exists, and say loudly that
/// they were skipped where it does not.
#[test]
fn the_default_image_compiles_c_and_runs_python3() {
    if !engine_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let image = computer_container::DEFAULT_IMAGE;
    let script = "gcc --version && python3 -V && make --version && node --version \
                  && npm --version && pip --version && git --version \
                  && printf 'int main(void) { return 42; }' > a.c && gcc a.c -o a; ./a; echo \"exit $?\"";
    let args = ["exec", "--backend", "container", "--image", image, script];
    let out = run(d, &args, b"");
    if text(&out.stderr).contains("not present locally") {
        eprintln!(
            "\n!!!!!!!! SKIPPED the_default_image_compiles_c_and_runs_python3: {image} is absent; build it with scripts/build-image.sh\n"
        );
        return;
    }
    assert!(out.status.success(), "{}", describe(&args, &out));
    let stdout = text(&out.stdout);
    for expected in [
        "gcc (Debian",
        "Python 3.",
        "GNU Make",
        "pip ",
        "git version",
        "exit 42",
    ] {
        assert!(stdout.contains(expected), "no {expected:?} in:\n{stdout}");
    }
    // The compiled program came back into the workspace.
    let out = run(d, &["--json", "fs", "stat", "/a"], b"");
    assert!(out.status.success(), "{}", describe(&["fs", "stat"], &out));
    // `auto` with no image chosen falls back to this image.
    let args = ["--json", "exec", "--backend", "auto", "gcc --version"];
    let out = run_command(cmd(d, &args).env_remove("COMPUTER_CONTAINER_IMAGE"), b"");
    assert!(out.status.success(), "{}", describe(&args, &out));
    let doc = one_json(&out.stdout);
    assert_eq!(doc["container"]["image"], image, "{doc}");
    let _ = run(d, &["container", "stop"], b"");
}
