# Traps can be replaced and removed.
trap 'echo first' EXIT
trap 'echo second' EXIT
trap - EXIT
trap 'echo final trap' EXIT
echo "body"
