# The EXIT trap also runs when set -e aborts.
set -e
trap 'echo "exit trap, status $?"' EXIT
echo "start"
false
echo "never"
