//! The JavaScript runner guest: QuickJS (rquickjs) as a `computer:workspace/runner`
//! component. `run` evaluates an ES module against the workspace; see README.md for
//! the behaviour and the Node-compatible surface.

// The generated WIT bindings have functions with many parameters (e.g. `fs.grep`).
#![allow(clippy::too_many_arguments)]

// The runner world plus outgoing HTTP, for `fetch`: the host links wasi:http for
// every run and lets requests through only to the workspace's allowed hosts.
wit_bindgen::generate!({
    inline: "
        package computer:js;
        world js {
            include computer:workspace/runner@0.1.0;
            import wasi:http/outgoing-handler@0.2.12;
            /// Pre-initialization (see `run::preinitialize`): the host runs it once,
            /// snapshots the instance and compiles the snapshot.
            export wizer-initialize: func();
        }
    ",
    path: "../../wit",
    world: "computer:js/js",
    generate_all,
});

mod builtins;
mod child_native;
mod crypto_native;
mod encoding;
mod event_loop;
mod fs_native;
mod http_native;
mod loader;
mod module_native;
mod modules_ws;
mod natives;
mod output;
mod paths;
mod report;
mod run;
mod state;
mod timers;
#[allow(dead_code)] // `wrap` and `filename` are for build.rs
mod wrap;
mod zlib_native;

struct Runner;

impl Guest for Runner {
    fn run(request: RunRequest) -> RunOutcome {
        run::run(request)
    }

    fn wizer_initialize() {
        run::preinitialize();
    }
}

export!(Runner);
