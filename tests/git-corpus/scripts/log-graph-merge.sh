# log --graph of a merge, with --decorate, and for-each-ref formats.
t=1704067200
tick() { t=$((t + 60)); export GIT_AUTHOR_DATE="$t +0000" GIT_COMMITTER_DATE="$t +0000"; }
git init -q -b main r && cd r
echo a > a && git add a && tick && git commit -q -m a
git checkout -q -b x && echo x > x && git add x && tick && git commit -q -m x
git checkout -q main && echo b > b && git add b && tick && git commit -q -m b
tick && git merge -q --no-edit x
git tag v1
git log --graph --oneline --decorate | cat
git for-each-ref --format='%(refname:short) %(objecttype) %(subject)'
git for-each-ref --sort=-committerdate --format='%(refname)' refs/heads
