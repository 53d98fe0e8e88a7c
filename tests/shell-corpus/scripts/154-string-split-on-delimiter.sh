# Split a path into parts.
p="crate/src/store/sqlite.rs"
IFS=/ read -r -a parts <<< "$p"
echo "${#parts[@]} parts"
for part in "${parts[@]}"; do echo "- $part"; done
echo "depth: $(( ${#parts[@]} - 1 ))"
