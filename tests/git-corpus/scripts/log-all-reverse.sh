# --all walks every branch by date; --reverse oldest first.
t=1704067200
tick() { t=$((t + 60)); export GIT_AUTHOR_DATE="$t +0000" GIT_COMMITTER_DATE="$t +0000"; }
git init -q -b main
echo 0 > f && git add f && tick && git commit -q -m base
git checkout -q -b side
echo s > s && git add s && tick && git commit -q -m side-1
git checkout -q main
echo m > m && git add m && tick && git commit -q -m main-1
git checkout -q side
echo s2 > s && tick && git commit -q -a -m side-2
git checkout -q main
git log --oneline
git log --oneline --all
git log --oneline --reverse
git log --oneline --all --reverse
git log --format=%s main side
