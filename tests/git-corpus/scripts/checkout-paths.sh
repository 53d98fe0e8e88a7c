# checkout -- file discards worktree changes; checkout REV -- file takes
# an old version into index and worktree.
t=1704067200
tick() { t=$((t + 60)); export GIT_AUTHOR_DATE="$t +0000" GIT_COMMITTER_DATE="$t +0000"; }
git init -q -b main
echo v1 > a.txt && echo b1 > b.txt && git add . && tick && git commit -q -m one
echo v2 > a.txt && echo b2 > b.txt && tick && git commit -q -a -m two
echo scratch > a.txt && echo scratch > b.txt
git checkout -- a.txt
cat a.txt b.txt
git status -s
git checkout HEAD~1 -- a.txt
cat a.txt
git status -s
git checkout .
git status -s
