# Local changes that do not conflict travel with a checkout, which lists
# them on stdout.
t=1704067200
tick() { t=$((t + 60)); export GIT_AUTHOR_DATE="$t +0000" GIT_COMMITTER_DATE="$t +0000"; }
git init -q -b main
echo a > a.txt && echo b > b.txt && git add . && tick && git commit -q -m base
git branch other
echo changed > a.txt
echo new > new.txt && git add new.txt
git checkout other
git status -s
git switch main
git status -s
