//! The answer to a respelled file test (see `rewrite`), asked as an `exists` or
//! `stat` of `WORD/.computer-cond-LETTER`.

use super::{FILE_TESTS, MAGIC_PREFIX};
use crate::computer::workspace::fs::NodeKind;
use crate::devices::{self, Device};

/// `Some(answer)` when `path` (absolute, normalized) is a respelled test.
pub fn answer(path: &str) -> Option<bool> {
    let (target, name) = path.rsplit_once('/')?;
    let letter = name.strip_prefix(MAGIC_PREFIX)?;
    if !FILE_TESTS.contains(&letter) {
        return None;
    }
    // `WORD/…` with an empty WORD normalizes to `/…`, as WORD `/` does; an empty
    // operand is the common case (an unset variable), and it is false for every test.
    if target.is_empty() {
        return Some(false);
    }
    let followed = || devices::stat(target, true).ok();
    Some(match letter {
        "L" | "h" => devices::stat(target, false).is_ok_and(|s| s.kind == NodeKind::Symlink),
        "x" => followed().is_some_and(|s| s.mode & 0o111 != 0),
        "u" => followed().is_some_and(|s| s.mode & 0o4000 != 0),
        "g" => followed().is_some_and(|s| s.mode & 0o2000 != 0),
        "k" => followed().is_some_and(|s| s.mode & 0o1000 != 0),
        // The run's user owns every file in the workspace.
        "O" | "G" => followed().is_some(),
        "c" => Device::at(target).is_some(),
        // The workspace has no FIFOs, sockets or block devices.
        _ => false,
    })
}
