//! Outgoing HTTP (`wasi:http/outgoing-handler`) as every guest gets it:
//! only to hosts an allow-list names, bounded by the caller's deadline, and
//! (for commands) one audit row per request.
//!
//! Commands (`curl`, `wget`, user components) are limited by the
//! workspace's list (`Workspace::net`, read at each request so
//! `computer net allow` applies at once); module components by their own
//! `allow_hosts` together with the workspace's. Both get the workspace's
//! credentials (`credentials.rs`) for the host they reach, set outside the
//! sandbox.

mod audit;
mod commands;
mod credentials;
mod journal;
mod loopback;
mod policy;

pub(crate) use audit::{RequestRecord, audited};
pub(crate) use commands::RunHttp;
pub(crate) use credentials::attach as attach_credentials;
pub(crate) use policy::{SendFuture, Target, clamp_options};
