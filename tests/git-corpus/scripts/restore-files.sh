# restore: worktree from the index, --staged from HEAD, --source.
t=1704067200
tick() { t=$((t + 60)); export GIT_AUTHOR_DATE="$t +0000" GIT_COMMITTER_DATE="$t +0000"; }
git init -q -b main
echo v1 > a.txt && echo b > b.txt && git add . && tick && git commit -q -m one
echo v2 > a.txt && tick && git commit -q -a -m two
echo staged > a.txt && git add a.txt
echo worktree > a.txt
echo dirty > b.txt
git status -s
git restore b.txt
git status -s
git restore --staged a.txt
git status -s
cat a.txt
git restore a.txt
cat a.txt
git restore --source=HEAD~1 a.txt
cat a.txt
git status -s
git restore --staged --worktree --source=HEAD a.txt
git status -s
