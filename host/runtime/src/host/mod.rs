pub(crate) mod commands;
pub(crate) mod error;
pub(crate) mod fs;
pub(crate) mod modules;
pub(crate) mod poll;
pub(crate) mod process;
pub(crate) mod stdio;
pub mod wasi_fs;
