# merge refused: unknown branch, local changes in the way, a merge that is
# not a fast-forward with --ff-only.
t=1704067200
tick() { t=$((t + 60)); export GIT_AUTHOR_DATE="$t +0000" GIT_COMMITTER_DATE="$t +0000"; }
git init -q -b main
echo base > f.txt && git add . && tick && git commit -q -m base
git checkout -q -b other
echo other > f.txt && tick && git commit -q -a -m other
git checkout -q main
echo m > m.txt && git add . && tick && git commit -q -m main
git merge nope
echo "exit $?"
echo local > f.txt
git merge other
echo "exit $?"
git checkout -q -- f.txt
git merge --ff-only other
echo "exit $?"
git merge --abort
echo "exit $?"
git log --oneline
