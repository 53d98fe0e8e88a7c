# Switching branches would overwrite local changes: refused, nothing
# changes.
t=1704067200
tick() { t=$((t + 60)); export GIT_AUTHOR_DATE="$t +0000" GIT_COMMITTER_DATE="$t +0000"; }
git init -q -b main
echo base > f.txt && git add . && tick && git commit -q -m base
git checkout -q -b other
echo other > f.txt && tick && git commit -q -a -m other
git checkout -q main
echo local > f.txt
git checkout other
echo "exit $?"
git switch other
echo "exit $?"
cat f.txt
git branch --show-current
