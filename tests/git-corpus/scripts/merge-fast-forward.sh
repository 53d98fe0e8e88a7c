# A fast-forward merge: Updating, Fast-forward and the stat; then
# "Already up to date."; --ff-only.
t=1704067200
tick() { t=$((t + 60)); export GIT_AUTHOR_DATE="$t +0000" GIT_COMMITTER_DATE="$t +0000"; }
git init -q -b main
echo base > f.txt && git add . && tick && git commit -q -m base
git checkout -q -b feature
echo more >> f.txt && echo new > new.txt && git add . && tick && git commit -q -m feature
git checkout -q main
git merge feature
echo "exit $?"
git log --oneline
git merge feature
git merge --ff-only feature
cat f.txt
