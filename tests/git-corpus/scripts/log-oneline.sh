# --oneline, --abbrev-commit, --no-abbrev; piped log shows no decorations.
t=1704067200
tick() { t=$((t + 3600)); export GIT_AUTHOR_DATE="$t +0000" GIT_COMMITTER_DATE="$t +0000"; }
git init -q -b main
for i in 1 2 3; do echo $i > f.txt; git add f.txt; tick; git commit -q -m "change $i"; done
git tag v1 HEAD~1
git log --oneline
git log --oneline -2
git log --pretty=oneline
git log --oneline --no-abbrev-commit -1
git log --abbrev=10 --oneline -1
