//! The store's tests through its public API, in one test binary with a
//! module per area; [`support`] holds the helpers they share.

mod support;

mod audit;
mod changes;
mod concurrency;
mod deep_trees;
mod dirs;
mod durable;
mod files;
mod group_commit;
mod hard_links;
mod inodes;
mod integrity;
mod links;
mod moves;
mod open_modes;
mod quota;
mod readonly;
mod search;
mod snapshots;
mod transfer;
mod transfer_guard;
