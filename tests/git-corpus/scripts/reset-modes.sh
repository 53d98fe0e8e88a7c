# reset --soft keeps index and worktree, --mixed keeps the worktree,
# --hard resets everything.
t=1704067200
tick() { t=$((t + 60)); export GIT_AUTHOR_DATE="$t +0000" GIT_COMMITTER_DATE="$t +0000"; }
git init -q -b main
echo 1 > f.txt && git add . && tick && git commit -q -m one
echo 2 > f.txt && tick && git commit -q -a -m two
git reset --soft HEAD~1
git log --oneline
git status -s
git commit -q -m two-again
git reset HEAD~1
git status -s
cat f.txt
git commit -q -a -m two-third
git reset --mixed HEAD~1
git status -s
git reset --hard HEAD
cat f.txt
git status
git reset --hard ORIG_HEAD
git log --oneline
