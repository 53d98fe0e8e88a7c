# Nested command substitution.
echo "$(echo "outer $(echo "inner $(echo deepest)")")"
dir=$(dirname "$(echo crate/src/api/routes.rs)")
echo "$dir $(basename "$dir")"
