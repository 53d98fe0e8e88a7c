//! `[[ ]]`'s file and option tests, made to answer as bash's do.
//!
//! bashkit's `[[ ]]` evaluator asks the filesystem only `exists` for `-x` (as for
//! `-e`) and takes every unary operator it does not know (`-L`, `-h`, `-p`, `-o`...)
//! as true; its `test` and `[` are right. No extension point reaches the evaluator,
//! so `rewrite` respells those tests in the script before it runs, into an `-e` of a
//! marked path that `answer` evaluates in `WorkspaceFs`, or a match on `SHELLOPTS`.

mod answer;
mod rewrite;

pub use answer::answer;
pub use rewrite::hook;

/// The last path component that marks a respelled test: `WORD/.computer-cond-L`
/// asks `-L WORD`.
const MAGIC_PREFIX: &str = ".computer-cond-";

/// The unary file tests respelled (the letter after `-`). `-e -f -d -s -r -w` and
/// `-n -z -v -t` are right in bashkit already.
const FILE_TESTS: &[&str] = &["L", "h", "x", "p", "S", "b", "c", "u", "g", "k", "O", "G"];
