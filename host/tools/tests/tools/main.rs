//! Every tool and its error paths, through the public entry point
//! `Tools::call`, on an in-memory workspace (and, for `exec`, a runtime
//! with the built-in JS guest).
//!
//! One test binary with a module per group of tools; [`support`] holds the
//! helpers and the imports they share.

mod support;

mod definitions;
mod dispatch_recording;
mod exec;
mod files;
mod history;
mod listing;
