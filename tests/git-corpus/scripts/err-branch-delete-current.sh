# Deleting the checked-out branch, and a branch that does not exist.
git init -q -b main
echo 1 > f && git add f && git commit -q -m base
git branch -d main
echo "exit $?"
git branch -D main
echo "exit $?"
git branch -d nope
echo "exit $?"
git branch
