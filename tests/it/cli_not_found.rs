//! A missing program leads somewhere (issue 19, item 5): every exit-127
//! answer of `computer exec` names the backend that can run the command, or
//! says why none offered can, and `auto` says which engine and image it
//! falls back to. None of these needs a container engine: the engine is
//! turned off, or is a socket file with nothing serving it.

use std::os::unix::net::UnixListener;
use std::process::Output;

use computer_tests::{Ws, describe, one_json, run_command, text};
use serde_json::Value;

const GCC: &str = "gcc --version";

/// `computer exec --backend BACKEND ARGS... gcc --version` with `env`, the
/// caller's own engine settings removed.
fn exec_gcc(ws: &Ws, backend: &str, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut cmd = ws.exec_command(&[&["--backend", backend][..], args, &[GCC]].concat());
    cmd.env_remove("DOCKER_HOST")
        .env_remove("COMPUTER_CONTAINER_ENGINE")
        .env_remove("COMPUTER_CONTAINER_IMAGE")
        .envs(env.iter().copied());
    let out = run_command(&mut cmd, b"");
    assert_eq!(out.status.code(), Some(127), "{}", describe(&[GCC], &out));
    out
}

/// The hint line on stderr (text mode).
fn hint_line(out: &Output) -> String {
    let stderr = text(&out.stderr);
    stderr
        .lines()
        .find(|l| l.starts_with("computer: exit 127: "))
        .unwrap_or_else(|| panic!("no hint in stderr:\n{stderr}"))
        .to_owned()
}

/// A unix socket path that exists, with nothing answering on it.
fn dead_socket(ws: &Ws) -> String {
    let path = ws.host("engine.sock");
    drop(UnixListener::bind(&path).expect("bind a unix socket"));
    format!("unix://{}", path.display())
}

#[test]
fn with_no_engine_the_hint_names_the_container_backend_and_why_it_cannot_run() {
    let ws = Ws::new();
    let off = [("COMPUTER_CONTAINER_ENGINE", "none")];
    let out = exec_gcc(&ws, "shell", &[], &off);
    let hint = hint_line(&out);
    assert!(
        hint.contains("`gcc` is not available on the `shell` backend")
            && hint.contains("no backend offered here can run it now: `--backend container` would")
            && hint.contains("COMPUTER_CONTAINER_ENGINE is `none`"),
        "{hint}"
    );
    // The same words under --json, in `hint`.
    let out = exec_gcc(&ws, "shell", &["--json"], &off);
    let doc = one_json(&out.stdout);
    assert_eq!(
        format!("computer: {}", doc["hint"].as_str().unwrap_or_default()),
        hint
    );
    // A configured socket that is not there is named as such.
    let gone = format!("unix://{}", ws.host("no-such.sock").display());
    let hint = hint_line(&exec_gcc(
        &ws,
        "shell",
        &[],
        &[("COMPUTER_CONTAINER_ENGINE", &gone)],
    ));
    assert!(
        hint.contains("`--backend container` would")
            && hint.contains(&format!(
                "{gone} (COMPUTER_CONTAINER_ENGINE): no such socket"
            )),
        "{hint}"
    );
}

#[test]
fn with_an_engine_configured_the_hint_says_run_it_on_the_container_backend() {
    let ws = Ws::new();
    let engine = dead_socket(&ws);
    let hint = hint_line(&exec_gcc(
        &ws,
        "shell",
        &[],
        &[("COMPUTER_CONTAINER_ENGINE", &engine)],
    ));
    assert!(
        hint.contains(
            "`gcc` is not available on the `shell` backend; run it with `--backend container`"
        ) && hint.contains("image localhost/computer-debian:12"),
        "{hint}"
    );
}

#[test]
fn auto_says_which_engine_and_image_it_falls_back_to() {
    let ws = Ws::new();
    let engine = dead_socket(&ws);
    // Chosen by COMPUTER_CONTAINER_ENGINE, the default image.
    let out = exec_gcc(&ws, "auto", &[], &[("COMPUTER_CONTAINER_ENGINE", &engine)]);
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains(&format!(
            "running it on `container` (image localhost/computer-debian:12, engine {engine} (COMPUTER_CONTAINER_ENGINE))"
        )),
        "{stderr}"
    );
    // The engine did not answer: the hint does not send the user back to it.
    let hint = hint_line(&out);
    assert!(
        hint.contains("can run it now: `--backend container` would") && hint.contains(&engine),
        "{hint}"
    );
    // Chosen by DOCKER_HOST, with the image the run asks for.
    let out = exec_gcc(
        &ws,
        "auto",
        &["--image", "example.org/tools:1"],
        &[("DOCKER_HOST", &engine)],
    );
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains(&format!(
            "running it on `container` (image example.org/tools:1, engine {engine} (DOCKER_HOST))"
        )),
        "{stderr}"
    );
    // Turned off: `auto` does not try, and says so.
    let out = exec_gcc(
        &ws,
        "auto",
        &["--json"],
        &[("COMPUTER_CONTAINER_ENGINE", "none")],
    );
    let doc: Value = one_json(&out.stdout);
    assert_eq!(doc["backend"], "shell", "{doc}");
    assert_eq!(doc["fallback_failed"]["to"], "container", "{doc}");
    let stderr = doc["stderr"].as_str().unwrap_or_default();
    assert!(
        stderr.contains("`container` backend is not available to fall back to")
            && stderr.contains("containers are turned off"),
        "{doc}"
    );
}
