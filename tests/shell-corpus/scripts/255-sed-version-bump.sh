# Bump the patch version in Cargo.toml and package.json.
v=$(sed -n 's/^version = "\(.*\)"/\1/p' crate/Cargo.toml)
IFS=. read -r major minor patch <<< "$v"
new="$major.$minor.$((patch + 1))"
sed -i "s/^version = \"$v\"/version = \"$new\"/" crate/Cargo.toml
sed -i -E "s/(\"version\": \")[^\"]+/\1$new/" web/package.json
grep -n '^version' crate/Cargo.toml
grep -n '"version"' web/package.json
