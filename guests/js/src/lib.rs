//! The JavaScript runner guest: QuickJS (rquickjs) as a `computer:workspace/runner`
//! component. `run` evaluates an ES module against the workspace; see README.md for
//! the behaviour and the Node-compatible surface.

// The generated WIT bindings have functions with many parameters (e.g. `fs.grep`).
#![allow(clippy::too_many_arguments)]

wit_bindgen::generate!({
    path: "../../wit",
    world: "computer:workspace/runner@0.1.0",
    generate_all,
});

mod builtins;
mod crypto_native;
mod encoding;
mod event_loop;
mod fs_native;
mod loader;
mod modules_ws;
mod natives;
mod output;
mod paths;
mod report;
mod run;
mod state;
#[allow(dead_code)] // `wrap` and `filename` are for build.rs
mod wrap;
mod zlib_native;

struct Runner;

impl Guest for Runner {
    fn run(request: RunRequest) -> RunOutcome {
        run::run(request)
    }
}

export!(Runner);
