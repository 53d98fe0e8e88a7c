# Typical recoveries: amend a forgotten file, unstage, drop a bad commit,
# recover it from the reflog.
t=1704067200
tick() { t=$((t + 600)); export GIT_AUTHOR_DATE="$t +0000" GIT_COMMITTER_DATE="$t +0000"; }
git init -q -b main
echo v1 > app.txt && git add . && tick && git commit -q -m "v1"
echo v2 > app.txt && tick && git commit -q -am "v2"
echo forgot > notes.txt && git add notes.txt && git commit -q --amend --no-edit
git show --stat --format=%s
echo junk > junk.txt && git add junk.txt && git restore --staged junk.txt && rm junk.txt
echo bad > app.txt && tick && git commit -q -am "bad change"
bad=$(git rev-parse HEAD)
git reset -q --hard HEAD~1
cat app.txt
git log --oneline
git cat-file -t $bad
git reset -q --hard $bad
git log --oneline -1
