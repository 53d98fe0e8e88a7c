# git bisect with a run script finds the first bad commit (bisect is a shell script in 2.39).
t=1704067200
tick() { t=$((t + 60)); export GIT_AUTHOR_DATE="$t +0000" GIT_COMMITTER_DATE="$t +0000"; }
git init -q -b main r && cd r
for i in 1 2 3 4 5 6 7 8; do echo $i > n.txt; git add n.txt; tick; git commit -q -m "n=$i"; done
git bisect start HEAD HEAD~7 >/dev/null
git bisect run sh -c 'test "$(cat n.txt)" -lt 5' | grep "is the first bad commit"
git bisect log | grep -c "^git bisect"
git bisect reset >/dev/null
git rev-parse --abbrev-ref HEAD
