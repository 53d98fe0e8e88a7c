# --no-ff makes a merge commit even when a fast-forward is possible; -m
# sets its message.
t=1704067200
tick() { t=$((t + 60)); export GIT_AUTHOR_DATE="$t +0000" GIT_COMMITTER_DATE="$t +0000"; }
git init -q -b main
echo 1 > f && git add f && tick && git commit -q -m base
git checkout -q -b topic
echo 2 > g && git add g && tick && git commit -q -m topic
git checkout -q main
tick
git merge --no-ff --no-edit topic
git log --format='%h %p %s'
git reset -q --hard HEAD~1
git merge --no-ff -m "Custom merge message" topic
git log -1 --format=%B
