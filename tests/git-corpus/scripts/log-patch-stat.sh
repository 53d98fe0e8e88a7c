# log -p, --stat and both, newest first.
t=1704067200
tick() { t=$((t + 60)); export GIT_AUTHOR_DATE="$t +0000" GIT_COMMITTER_DATE="$t +0000"; }
git init -q -b main
printf 'a\nb\n' > f.txt && git add . && tick && git commit -q -m one
printf 'a\nB\nc\n' > f.txt && echo g > g.txt && git add . && tick && git commit -q -m two
git rm -q g.txt && tick && git commit -q -m three
git log -p
echo ---
git log --stat
echo ---
git log -p --stat -1 HEAD~1
