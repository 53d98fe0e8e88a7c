# --porcelain -b: before the first commit, on a branch, detached.
git init -q -b main
echo a > a.txt
git status --porcelain -b
git status
git add a.txt && git commit -q -m one
git status --porcelain -b
git checkout -q --detach
git status --porcelain -b
git status
