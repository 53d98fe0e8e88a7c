//! Workspace operations, grouped by what they act on.

mod dirs;
mod files;
mod links;
mod moves;

pub(crate) use dirs::mkdir_p;
pub(crate) use files::set_mode;
