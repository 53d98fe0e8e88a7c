# Empty arrays and set -u.
set -u
empty=()
echo "count ${#empty[@]}"
for x in "${empty[@]}"; do echo "never $x"; done
echo "done"
