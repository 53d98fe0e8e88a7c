# checkout -b / switch -c, from HEAD and from a start point; -B resets.
t=1704067200
tick() { t=$((t + 60)); export GIT_AUTHOR_DATE="$t +0000" GIT_COMMITTER_DATE="$t +0000"; }
git init -q -b main
echo 1 > f && git add f && tick && git commit -q -m one
echo 2 > f && tick && git commit -q -a -m two
git checkout -q -b from-head
git rev-parse --abbrev-ref HEAD
git checkout -q -b from-old HEAD~1
cat f
git switch -q -c via-switch main
cat f
git switch -q -C from-old main
git log --oneline -1 from-old
git branch
