pub(crate) mod error;
pub(crate) mod fs;
pub(crate) mod modules;
