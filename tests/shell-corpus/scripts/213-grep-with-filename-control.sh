# -h hides and -H forces file names.
grep -h 'version' crate/Cargo.toml web/package.json
grep -H 'MIT' LICENSE
grep -l 'mod ' crate/src/*/mod.rs
