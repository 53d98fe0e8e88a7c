# A deletion in the worktree and one staged with git rm.
git init -q -b main
echo a > a.txt; echo b > b.txt
git add . && git commit -q -m base
rm a.txt
git rm -q b.txt
git status
git status -s
git diff --name-status
git diff --cached --name-status
