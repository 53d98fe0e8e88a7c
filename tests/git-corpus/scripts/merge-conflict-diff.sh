# git diff during a conflict is a combined diff (diff --cc); --ours
# compares with one side.
t=1704067200
tick() { t=$((t + 60)); export GIT_AUTHOR_DATE="$t +0000" GIT_COMMITTER_DATE="$t +0000"; }
git init -q -b main
printf 'a\nb\nc\n' > f.txt && git add . && tick && git commit -q -m base
git checkout -q -b feature
printf 'a\nfeature\nc\n' > f.txt && tick && git commit -q -a -m feature
git checkout -q main
printf 'a\nmain\nc\n' > f.txt && tick && git commit -q -a -m main
git merge -q feature
echo "exit $?"
git diff
git diff --name-only
git diff --ours
