# log limited to a file or a directory.
t=1704067200
tick() { t=$((t + 60)); export GIT_AUTHOR_DATE="$t +0000" GIT_COMMITTER_DATE="$t +0000"; }
git init -q -b main
mkdir docs
echo 1 > a.txt && git add . && tick && git commit -q -m "add a"
echo 1 > docs/x.md && git add . && tick && git commit -q -m "add docs"
echo 2 > a.txt && tick && git commit -q -a -m "change a"
echo 2 > docs/x.md && tick && git commit -q -a -m "change docs"
git log --oneline -- a.txt
git log --oneline docs
git log --format=%s -- docs/x.md a.txt
git log --oneline -1 -- a.txt
git log --oneline -- nothing-here
echo "exit $?"
