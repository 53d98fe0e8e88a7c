# basename and dirname.
basename crate/src/store/memory.rs
basename crate/src/store/memory.rs .rs
dirname crate/src/store/memory.rs
dirname memory.rs
basename /
basename -s .md docs/guide.md docs/api.md
