//! Command components: `wasi:cli/command` programs a run calls by name.
//! `registry` knows which exist (the embedder's and the workspace's) and
//! compiles them; `invocation` runs one inside a run, on its own thread,
//! handed over through `link` so a durable run's journal stays in order;
//! `wasip1` makes components of wasip1 command modules.

pub(crate) mod invocation;
pub(crate) mod link;
pub(crate) mod registry;
pub(crate) mod wasip1;

pub use invocation::MAX_COMMAND_DEPTH;
pub use registry::{CommandListing, CommandOrigin, CommandSpec};
