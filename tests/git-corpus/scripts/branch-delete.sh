# -d of a merged branch, -d refused for an unmerged one (exit 1), -D.
t=1704067200
tick() { t=$((t + 60)); export GIT_AUTHOR_DATE="$t +0000" GIT_COMMITTER_DATE="$t +0000"; }
git init -q -b main
echo 1 > f && git add f && tick && git commit -q -m base
git branch merged
git checkout -q -b unmerged
echo 2 > g && git add g && tick && git commit -q -m extra
git checkout -q main
git branch -d merged
echo "exit $?"
git branch -d unmerged
echo "exit $?"
git branch -D unmerged
echo "exit $?"
git branch
