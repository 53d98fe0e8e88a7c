# The default merge message names the target branch, except for main and
# master.
t=1704067200
tick() { t=$((t + 60)); export GIT_AUTHOR_DATE="$t +0000" GIT_COMMITTER_DATE="$t +0000"; }
git init -q -b main
echo 1 > f && git add f && tick && git commit -q -m base
git branch dev
git checkout -q -b topic
echo 2 > g && git add g && tick && git commit -q -m topic
git checkout -q dev
echo 3 > h && git add h && tick && git commit -q -m dev
tick && git merge --no-edit topic
git log -1 --format=%s
git checkout -q main
echo 4 > i && git add i && tick && git commit -q -m main
tick && git merge -q --no-edit dev
git log -1 --format=%s
git log --format='%s' --first-parent
