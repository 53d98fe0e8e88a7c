# -P for lookarounds.
grep -oP '(?<=version = ")[^"]+' crate/Cargo.toml
grep -oP '"version":\s*"\K[^"]+' web/package.json
