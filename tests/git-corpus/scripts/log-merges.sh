# A merge commit in the log: the Merge: line, --merges, --no-merges,
# --first-parent.
t=1704067200
tick() { t=$((t + 60)); export GIT_AUTHOR_DATE="$t +0000" GIT_COMMITTER_DATE="$t +0000"; }
git init -q -b main
echo 0 > f && git add f && tick && git commit -q -m base
git checkout -q -b feature
echo 1 > g && git add g && tick && git commit -q -m feature
git checkout -q main
echo 2 > h && git add h && tick && git commit -q -m main
tick && git merge -q --no-edit feature
git log -1
git log --oneline --merges
git log --oneline --no-merges
git log --oneline --first-parent
git log --format='%h %p %s'
