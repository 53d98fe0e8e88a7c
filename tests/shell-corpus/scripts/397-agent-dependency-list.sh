# List Cargo dependencies and versions.
sed -n '/^\[dependencies\]/,/^\[/p' crate/Cargo.toml | grep '=' | sed -E 's/^([a-z_-]+) = (\{ version = )?"([^"]+)".*/\1 \3/' | sort
