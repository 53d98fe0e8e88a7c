# set -e inside functions and subshells.
set -e
f() { echo "in f"; false; echo "not reached"; }
( f ) || echo "subshell failed with $?"
echo "after subshell"
f
echo "never"
