//! The black-box tests of `computer`, in one test binary with a module per
//! area: every test binary links wasmtime, so one binary instead of
//! seventeen saves link time and disk. Shared helpers are in the
//! `computer_tests` library (`tests/support/`).
//!
//! One area: `cargo test -p computer-tests -- cli_mcp::`.

mod archive_escapes;
mod background_jobs;
mod cli_commands;
mod cli_concurrency;
mod cli_dirs;
mod cli_durable;
mod cli_edit;
mod cli_exec;
mod cli_files;
mod cli_fsck;
mod cli_full_disk;
mod cli_hardening;
mod cli_mcp;
mod cli_modules;
mod cli_newcomer;
mod cli_node;
mod cli_not_found;
mod cli_output;
mod cli_python;
mod cli_quota;
mod cli_search;
mod cli_signals;
mod cli_snapshots;
mod cli_transfer;
mod cli_transfer_guard;
mod cli_wasip1;
mod cli_workspace;
mod curl;
mod durable_crash;
mod durable_fencing;
mod embed_example;
mod first_hour;
mod git_corpus;
mod git_durable;
mod git_escapes;
mod git_http;
mod hardening;
mod js_cases;
mod js_fetch;
mod mcp_sdk_session;
mod media;
mod net_live;
mod node_common;
mod node_corpus;
mod node_packages;
mod pandoc;
mod policy;
mod process_facts;
mod python_backend;
mod python_capture;
mod python_corpus;
mod python_http;
mod read_only;
mod secrets;
mod serve;
mod shell_corpus;
mod shell_hardening;
mod shell_limits;
mod sockets;
mod sqlite3_corpus;
mod wit_contract;
