# branch: create, list (current marked), -v, --list with a pattern,
# --show-current, a branch at an older commit.
t=1704067200
tick() { t=$((t + 60)); export GIT_AUTHOR_DATE="$t +0000" GIT_COMMITTER_DATE="$t +0000"; }
git init -q -b main
echo 1 > f && git add f && tick && git commit -q -m "first commit"
echo 2 > f && tick && git commit -q -a -m "second commit"
git branch feature
git branch old HEAD~1
git branch fix/thing
git branch
git branch -v
git branch --list 'f*'
git branch --show-current
git rev-parse old feature
git branch --contains HEAD~1
git branch --merged old
