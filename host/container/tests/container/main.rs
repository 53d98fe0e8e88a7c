//! The container backend's tests against a real engine (Podman's API
//! service or Docker), in one test binary with a module per area. Without
//! an engine they print a loud SKIPPED line and pass, unless
//! `COMPUTER_REQUIRE_CONTAINER=1` (set by `scripts/test.sh`); [`support`]
//! holds that logic.

mod support;

mod backend;
mod cli;
mod registry_pull;
mod tools;
