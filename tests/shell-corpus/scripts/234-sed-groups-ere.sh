# -E groups and alternation.
sed -E 's/^([0-9]{4})-([0-9]{2})-([0-9]{2})T.*/\3.\2.\1/' data/error.log | sort -u
sed -E -n 's/^version = "([0-9]+)\.([0-9]+)\.([0-9]+)"/major=\1 minor=\2 patch=\3/p' crate/Cargo.toml
echo "foo123bar45" | sed -E 's/[0-9]+/<&>/g'
