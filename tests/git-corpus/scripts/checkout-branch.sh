# checkout switches branches and the files with them.
t=1704067200
tick() { t=$((t + 60)); export GIT_AUTHOR_DATE="$t +0000" GIT_COMMITTER_DATE="$t +0000"; }
git init -q -b main
echo main > f.txt && git add . && tick && git commit -q -m base
git checkout -b feature
echo feature > f.txt && echo extra > extra.txt && git add . && tick && git commit -q -m feature
ls; cat f.txt
git checkout main
ls; cat f.txt
git checkout -q feature
cat f.txt
git checkout -
git branch --show-current
git status
