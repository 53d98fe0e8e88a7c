# cherry-pick a commit from another branch, then revert it.
t=1704067200
tick() { t=$((t + 60)); export GIT_AUTHOR_DATE="$t +0000" GIT_COMMITTER_DATE="$t +0000"; }
git init -q -b main r && cd r
echo a > a.txt && git add . && tick && git commit -q -m a
git checkout -q -b side
echo b > b.txt && git add . && tick && git commit -q -m "add b"
git checkout -q main
tick && git cherry-pick side
echo "exit $?"
tick && git revert --no-edit HEAD
echo "exit $?"
git log --format='%s%n%b' | cat
ls
