//! The runtime's tests through its public API, in one test binary with a
//! module per area; [`support`] holds the helpers they share. A test that
//! must be alone in its process re-runs itself in a new one
//! ([`support::in_own_process`]).

mod support;

mod commands;
mod component_cache;
mod durable;
mod durable_slots;
mod engine_sharing;
mod exec;
mod host_memory;
mod module_components;
mod programs;
mod wasi_fs;
