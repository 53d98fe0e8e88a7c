pub(crate) mod fs;
pub(crate) mod modules;
