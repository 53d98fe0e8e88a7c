//! The shell runner guest: bash (bashkit) as a `computer:workspace/runner` component.
//! `run` executes a bash script against the workspace; see README.md for the behaviour,
//! the commands, the limits and what differs from GNU bash.

// The generated WIT bindings have functions with many parameters (e.g. `fs.grep`).
#![allow(clippy::too_many_arguments)]

wit_bindgen::generate!({
    path: "../../wit",
    world: "computer:workspace/runner@0.1.0",
    generate_all,
});

mod appends;
mod background;
mod bin_stubs;
mod calendar;
mod cat;
mod chmod;
mod commands;
mod cond_tests;
mod devices;
mod diff;
mod fileops;
mod fs_errors;
mod gunzip;
mod head;
mod limits;
mod listing_cache;
mod ln;
mod local_time;
mod ls;
mod modes;
mod output;
mod pipe_stages;
mod printf_nul;
mod realpath;
mod run;
mod seq;
mod stat;
mod streaming;
mod unavailable;
mod wc;
mod workspace_commands;
mod workspace_fs;
mod zipfile;

struct Runner;

impl Guest for Runner {
    fn run(request: RunRequest) -> RunOutcome {
        run::run(request)
    }
}

export!(Runner);
