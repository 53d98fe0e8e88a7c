# A content conflict: the messages, exit 1, markers in the file, status,
# the index stages; then resolved and committed (--no-edit keeps the
# "# Conflicts:" lines in the message).
t=1704067200
tick() { t=$((t + 60)); export GIT_AUTHOR_DATE="$t +0000" GIT_COMMITTER_DATE="$t +0000"; }
git init -q -b main
printf 'a\nb\nc\n' > f.txt && echo keep > k.txt && git add . && tick && git commit -q -m base
git checkout -q -b feature
printf 'a\nfeature\nc\n' > f.txt && tick && git commit -q -a -m feature
git checkout -q main
printf 'a\nmain\nc\n' > f.txt && tick && git commit -q -a -m main
git merge feature
echo "exit $?"
cat f.txt
git status
git status -s
git ls-files -s
printf 'a\nboth\nc\n' > f.txt
git add f.txt
git status -s
tick && git commit -q --no-edit
git log -1 --format=%B
git log --oneline
