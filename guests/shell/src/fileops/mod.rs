//! `cp`, `mv` and `rm`, GNU's (see `rm` for what bashkit's got wrong there): bashkit's ignore `-n` (mv), `-P`/`-L`/`-d`/`-p`, `-u`,
//! `-v`, `-T` and `-t`. Both work through bashkit's filesystem (so `/tmp` and the
//! devices behave as for every other command).

mod args;
mod cp;
mod mv;
mod rm;

pub use cp::Cp;
pub use mv::Mv;
pub use rm::Rm;

use std::path::Path;

use bashkit::{FileSystem, Metadata};

/// A failure as `cp`/`mv` word it: the error text without bashkit's prefix.
fn reason(e: &bashkit::Error) -> String {
    match e {
        bashkit::Error::Io(io) => io.to_string(),
        other => other.to_string(),
    }
}

async fn lstat(fs: &dyn FileSystem, path: &Path) -> Option<Metadata> {
    fs.lstat(path).await.ok()
}

async fn stat(fs: &dyn FileSystem, path: &Path) -> Option<Metadata> {
    fs.stat(path).await.ok()
}

/// Whether `inner` is `outer` or lies below it.
fn is_within(inner: &Path, outer: &Path) -> bool {
    inner.starts_with(outer)
}
