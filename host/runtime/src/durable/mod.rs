pub(crate) mod calls;
pub(crate) mod journal;
pub(crate) mod lease;
pub(crate) mod runs;
