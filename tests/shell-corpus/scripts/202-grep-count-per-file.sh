# Count matches per file.
grep -c 'fn ' crate/src/*.rs crate/src/*/*.rs
