# Commands that need a commit, in a repository that has none.
git init -q -b main
git log
echo "exit $?"
git rev-parse HEAD
echo "exit $?"
git show
echo "exit $?"
git branch feature
echo "exit $?"
git branch
echo "exit $?"
git diff HEAD
echo "exit $?"
