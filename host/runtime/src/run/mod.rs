pub(crate) mod exec;
pub(crate) mod limits;
pub(crate) mod output;
pub(crate) mod run_id;
pub(crate) mod state;
