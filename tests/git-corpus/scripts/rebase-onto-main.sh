# rebase of a topic branch onto main, linear history, then log --graph.
t=1704067200
tick() { t=$((t + 60)); export GIT_AUTHOR_DATE="$t +0000" GIT_COMMITTER_DATE="$t +0000"; }
git init -q -b main r && cd r
echo base > f.txt && git add . && tick && git commit -q -m base
git checkout -q -b topic
echo t1 > t.txt && git add . && tick && git commit -q -m t1
echo t2 >> t.txt && tick && git commit -q -am t2
git checkout -q main
echo m1 > m.txt && git add . && tick && git commit -q -m m1
git checkout -q topic
tick && git rebase main
echo "exit $?"
git log --graph --oneline --all
git status -sb
