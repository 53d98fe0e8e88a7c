# A subshell has its own EXIT trap.
trap 'echo "parent exit"' EXIT
(
  trap 'echo "child exit"' EXIT
  echo "in child"
)
echo "back in parent"
