# Several stashes with messages; apply keeps the entry, drop removes it,
# show summarises it.
t=1704067200
tick() { t=$((t + 60)); export GIT_AUTHOR_DATE="$t +0000" GIT_COMMITTER_DATE="$t +0000"; }
git init -q -b main
echo 0 > f.txt && git add . && tick && git commit -q -m base
echo 1 > f.txt && tick && git stash push -q -m "first try"
echo 2 > f.txt && tick && git stash push -m "second try"
git stash list
git stash show
git stash show -p stash@{1}
git stash apply stash@{1}
cat f.txt
git stash list
git checkout -q -- f.txt
git stash drop
git stash list
git stash pop -q
cat f.txt
git stash list
