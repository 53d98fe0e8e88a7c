# Extract text between markers.
sed -n '/^const SCHEMA/,/)";$/p' crate/src/store/sqlite.rs | sed '1d;$d' | sed 's/^ *//' | cut -d' ' -f1
