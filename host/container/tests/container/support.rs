//! Helpers shared by the container tests: whether a missing engine is a
//! failure, and the loud skip when it is not.

/// The image the container tests run in: small, built in a second by
/// `scripts/build-image.sh busybox` (CI builds no other).
pub const TEST_IMAGE: &str = computer_container::BUSYBOX_IMAGE;

/// `COMPUTER_REQUIRE_CONTAINER=1` (set by `scripts/test.sh`): a missing
/// engine or image fails the tests instead of skipping them.
pub fn required() -> bool {
    std::env::var("COMPUTER_REQUIRE_CONTAINER").is_ok_and(|v| v == "1")
}

/// Says loudly that `name` is skipped and why, or panics when
/// [`required`].
pub fn skip(name: &str, why: &str) {
    let msg = format!(
        "SKIPPED {name}: {why}. Run scripts/setup-podman.sh and scripts/build-image.sh busybox, then export DOCKER_HOST=unix:///tmp/podman.sock"
    );
    if required() {
        panic!("{msg} (COMPUTER_REQUIRE_CONTAINER=1)");
    }
    eprintln!("\n!!!!!!!! {msg}\n");
}

/// Bytes as text, lossily.
pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}
