# switch --detach, switch to a remote-less branch, switch back with -.
t=1704067200
tick() { t=$((t + 60)); export GIT_AUTHOR_DATE="$t +0000" GIT_COMMITTER_DATE="$t +0000"; }
git init -q -b main
echo 1 > f && git add f && tick && git commit -q -m one
echo 2 > f && tick && git commit -q -a -m two
git branch side HEAD~1
git switch side
cat f
git switch --detach main
git status | head -1
git switch -
git branch --show-current
git switch -q main
git branch --show-current
