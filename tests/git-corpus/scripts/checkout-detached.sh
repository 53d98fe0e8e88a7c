# A commit checked out: detached HEAD in status and branch, then back.
t=1704067200
tick() { t=$((t + 60)); export GIT_AUTHOR_DATE="$t +0000" GIT_COMMITTER_DATE="$t +0000"; }
git init -q -b main
echo 1 > f && git add f && tick && git commit -q -m one
echo 2 > f && tick && git commit -q -a -m two
git checkout -q HEAD~1
cat f
cat .git/HEAD
git status
git branch
git rev-parse --abbrev-ref HEAD
git symbolic-ref HEAD
echo "exit $?"
echo 3 > f && tick && git commit -q -a -m detached-work
git log --oneline --all
git checkout -q main
cat f
git status -sb
