# The default log format, -n, -1 and --max-count.
t=1704067200
tick() { t=$((t + 3600)); export GIT_AUTHOR_DATE="$t +0000" GIT_COMMITTER_DATE="$t +0000"; }
git init -q -b main
for i in 1 2 3 4; do echo $i > f.txt; git add f.txt; tick; git commit -q -m "commit $i" -m "Body of $i."; done
git log
echo ---
git log -n 2
echo ---
git log -1
git log --max-count=1 --format=%s
git log -n1 --skip=1 --format=%s
