//! The exec tool's exit-127 hint names the backend that can run the
//! missing command, in the tool's own words (`backend "NAME"`), or says
//! that none offered by this server can.

use super::*;

#[tokio::test(flavor = "multi_thread")]
async fn the_exec_hint_names_the_backend_or_says_none_offered_can() {
    let ws = Ws::new();
    let gcc = json!({"command": "gcc --version", "backend": "shell"});
    // The default server offers no container backend.
    let s = Session::start_with(&ws, &[], &[("COMPUTER_CONTAINER_ENGINE", "none")]).await;
    let out = s.ok("exec", gcc.clone()).await;
    assert_eq!(out["exitCode"], 127, "{out}");
    let hint = out["hint"].as_str().unwrap_or_default();
    assert!(
        hint.contains("`gcc` is not available on the `shell` backend")
            && hint.contains("no backend offered here can run it")
            && !hint.contains("container"),
        "{out}"
    );
    s.stop().await;
    // One that offers the container backend names it, and why it cannot run now.
    let s = Session::start_with(
        &ws,
        &["--backends", "shell,container"],
        &[("COMPUTER_CONTAINER_ENGINE", "none")],
    )
    .await;
    let out = s.ok("exec", gcc).await;
    let hint = out["hint"].as_str().unwrap_or_default();
    assert!(
        hint.contains("can run it now: backend \"container\" would")
            && hint.contains("containers are turned off"),
        "{out}"
    );
    s.stop().await;
}
