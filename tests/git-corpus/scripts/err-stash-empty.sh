# stash with nothing to save, and pop/apply/drop with no entries.
git init -q -b main
echo a > a.txt && git add . && git commit -q -m base
git stash
echo "exit $?"
git stash pop
echo "exit $?"
git stash apply
echo "exit $?"
git stash drop
echo "exit $?"
git stash list
echo "exit $?"
