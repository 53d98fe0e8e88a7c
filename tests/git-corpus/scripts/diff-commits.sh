# Between commits: A..B, A B, HEAD~2, HEAD^ HEAD, a path limit.
t=1704067200
tick() { t=$((t + 60)); export GIT_AUTHOR_DATE="$t +0000" GIT_COMMITTER_DATE="$t +0000"; }
git init -q -b main
mkdir d
echo 1 > a.txt; echo 1 > d/b.txt
git add . && tick && git commit -q -m c1
echo 2 > a.txt && tick && git commit -q -a -m c2
echo 2 > d/b.txt && tick && git commit -q -a -m c3
git diff HEAD~2..HEAD
echo ---
git diff HEAD~2 HEAD~1
echo ---
git diff HEAD^ HEAD
echo ---
git diff HEAD~2 -- d
echo ---
git diff HEAD~1 HEAD~2 --stat
