//! The store's tests through its public API, in one test binary with a
//! module per area; [`support`] holds the helpers they share.

mod support;

mod audit;
mod changes;
mod concurrency;
mod dirs;
mod durable;
mod files;
mod links;
mod moves;
mod readonly;
mod search;
mod transfer;
