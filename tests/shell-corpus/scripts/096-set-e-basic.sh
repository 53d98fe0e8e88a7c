# set -e stops at the first failing command.
set -e
echo "one"
false
echo "never"
