# git show of HEAD, of an older commit with --stat, -s with a format,
# and --name-only.
t=1704067200
tick() { t=$((t + 60)); export GIT_AUTHOR_DATE="$t +0000" GIT_COMMITTER_DATE="$t +0000"; }
git init -q -b main
printf 'a\nb\n' > f.txt && git add . && tick && git commit -q -m first
printf 'a\nc\n' > f.txt && echo n > n.txt && git add . && tick && git commit -q -m second -m "With a body."
git show
echo ---
git show --stat HEAD~1
echo ---
git show -s --format='%h %s' HEAD~1
git show --name-only --format=%s
git show --oneline HEAD
