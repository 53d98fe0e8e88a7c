//! A newcomer's first hour, scripted: the README's Quick start run as
//! written (its second block, in a fresh directory, with `computer` on
//! PATH), which drives the shell, JavaScript, an approval and the official
//! MCP Python SDK. Its output is checked against what each step must print.

use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use computer_tests::{component_cache_dir, computer_bin, workspace_root};

/// The `sh` blocks under the README's "## Quick start", in order.
fn quick_start_blocks(readme: &str) -> Vec<String> {
    let section = readme
        .split("\n## Quick start\n")
        .nth(1)
        .expect("README.md has a \"## Quick start\" section");
    let section = section.split("\n## ").next().unwrap_or(section);
    let mut blocks = Vec::new();
    let mut rest = section;
    while let Some(start) = rest.find("```sh\n") {
        let body = &rest[start + 6..];
        // A block ends at the first fence that starts a line.
        let end = body
            .find("\n```\n")
            .expect("every ```sh block in the Quick start is closed");
        blocks.push(body[..end + 1].to_owned());
        rest = &body[end + 5..];
    }
    blocks
}

#[test]
fn the_quick_start_blocks_are_found() {
    let readme = std::fs::read_to_string(workspace_root().join("README.md")).unwrap();
    let blocks = quick_start_blocks(&readme);
    assert_eq!(
        blocks.len(),
        2,
        "build block, then the session: {blocks:#?}"
    );
    assert!(blocks[0].contains("scripts/build.sh"), "{}", blocks[0]);
    assert!(blocks[1].contains("computer init"), "{}", blocks[1]);
}

#[test]
fn the_quick_start_runs_as_written_from_any_directory() {
    let readme = std::fs::read_to_string(workspace_root().join("README.md")).unwrap();
    let session = quick_start_blocks(&readme).remove(1);
    let bin_dir = computer_bin().parent().unwrap().to_owned();
    let home = tempfile::tempdir().unwrap();
    let tmp = home.path().join("tmp");
    std::fs::create_dir(&tmp).unwrap();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    // The first block's exports, pointing at this build instead of a release one.
    let child = Command::new("bash")
        .args(["-euo", "pipefail", "-c", &session])
        .process_group(0)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .current_dir(home.path())
        .env("PATH", path)
        .env("REPO", workspace_root())
        .env("HOME", home.path())
        .env("TMPDIR", &tmp)
        .env("COMPUTER_CACHE_DIR", component_cache_dir())
        .env_remove("COMPUTER_WORKSPACE")
        .spawn()
        .unwrap();
    let group = child.id() as i32;
    let out = child.wait_with_output().unwrap();
    // The stand-in GitHub, should the session have stopped before its `kill %1`.
    let _ = Command::new("kill")
        .args(["--", &format!("-{group}")])
        .output();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "the Quick start failed ({}):\n--- stdout\n{stdout}\n--- stderr\n{stderr}",
        out.status
    );
    let expect = |what: &str, text: &str| {
        assert!(
            stdout.contains(text),
            "{what}: {text:?} not in the output:\n{stdout}\n--- stderr\n{stderr}"
        );
    };
    expect("grep in the shell", "src/main.rs:1:fn answer() -> u32 {");
    expect("python3 and sqlite3", "42\n42\n");
    expect(
        "the JS default export (8 lines and a trailing newline)",
        "\n8\n",
    );
    expect("the edit's diff", "-    41\n+    42\n");
    expect("the export", "fn answer() -> u32 {\n    42\n}");
    expect("the parked run", "parked, waiting for an answer (exit 75)");
    expect("the MCP tool list", "'exec'");
    expect(
        "exec over MCP: the session's workspace, its file and its commit",
        r#""stdout":"main.rs\n"#,
    );
    expect("the commit, seen over MCP", r#" first\n""#);
    // The approval resumed the run, which posted to the stand-in GitHub.
    let log = std::fs::read_to_string(session_dir(&tmp).join("github.log")).unwrap_or_default();
    assert!(log.contains("LGTM"), "the stand-in GitHub got: {log:?}");
    // Nothing of the session was left in the directory the test started in.
    assert!(!home.path().join(".computer").exists());
}

/// The directory the session made with `mktemp -d` under `tmp`.
fn session_dir(tmp: &Path) -> PathBuf {
    std::fs::read_dir(tmp)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .find(|p| p.join("agent.db").is_file())
        .expect("the session's mktemp -d directory, holding agent.db")
}
