# Conflicts that are not in file content: modify/delete and add/add.
t=1704067200
tick() { t=$((t + 60)); export GIT_AUTHOR_DATE="$t +0000" GIT_COMMITTER_DATE="$t +0000"; }
git init -q -b main
echo base > md.txt && git add . && tick && git commit -q -m base
git checkout -q -b other
git rm -q md.txt && echo theirs > aa.txt && git add . && tick && git commit -q -m other
git checkout -q main
echo changed > md.txt && echo ours > aa.txt && git add . && tick && git commit -q -m main
git merge other
echo "exit $?"
git status -s
git status
cat aa.txt
