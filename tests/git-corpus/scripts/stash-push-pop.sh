# stash: push saves and cleans, list, pop restores and drops.
git init -q -b main
echo a > a.txt && echo b > b.txt && git add . && git commit -q -m base
echo changed > a.txt
echo staged > b.txt && git add b.txt
git stash
echo "exit $?"
git status -s
cat a.txt b.txt
git stash list
git stash pop
echo "exit $?"
git status -s
git stash list
echo "entries: $(git stash list | wc -l)"
