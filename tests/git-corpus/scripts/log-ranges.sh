# Revision ranges: A..B, ^A B, A...B; --author and --grep filters.
t=1704067200
tick() { t=$((t + 60)); export GIT_AUTHOR_DATE="$t +0000" GIT_COMMITTER_DATE="$t +0000"; }
git init -q -b main
echo 0 > f && git add f && tick && git commit -q -m "base"
git checkout -q -b topic
echo 1 > t && git add t && tick && GIT_AUTHOR_NAME=Other git commit -q -m "topic: one"
echo 2 > t && tick && git commit -q -a -m "topic: fix bug"
git checkout -q main
echo 3 > m && git add m && tick && git commit -q -m "main: other"
git log --oneline main..topic
git log --oneline topic ^main
git log --oneline topic..main
git log --oneline main...topic
git log --oneline --author=Other --all
git log --oneline --grep=bug --all
git rev-list --count main..topic
git rev-list main
