# Commands outside a repository: fatal, exit 128. (diff outside a
# repository falls back to --no-index and prints its usage: only the code
# is compared.)
git status
echo "exit $?"
git log
echo "exit $?"
git rev-parse HEAD
echo "exit $?"
git add x
echo "exit $?"
git rev-parse --is-inside-work-tree
echo "exit $?"
mkdir sub && cd sub && git diff 2>/dev/null
echo "exit $?"
