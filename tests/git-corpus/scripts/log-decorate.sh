# --decorate names the refs: HEAD ->, branches, tags; %d and %D.
t=1704067200
tick() { t=$((t + 3600)); export GIT_AUTHOR_DATE="$t +0000" GIT_COMMITTER_DATE="$t +0000"; }
git init -q -b main
echo 1 > f && git add f && tick && git commit -q -m one
git tag v1
git tag -a v1.1 -m "annotated"
echo 2 > f && tick && git commit -q -a -m two
git branch topic
git log --oneline --decorate
git log --format='%h%d' --all
git log --format='[%D]'
git checkout -q --detach HEAD~1
git log --oneline --decorate --all
