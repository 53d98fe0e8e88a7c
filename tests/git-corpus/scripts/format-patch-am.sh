# format-patch two commits, then apply them elsewhere with am.
t=1704067200
tick() { t=$((t + 60)); export GIT_AUTHOR_DATE="$t +0000" GIT_COMMITTER_DATE="$t +0000"; }
git init -q -b main a && cd a
echo base > f.txt && git add . && tick && git commit -q -m base
cd .. && git clone -q a b && cd a
echo one >> f.txt && tick && git commit -q -am "first change"
echo two > g.txt && git add g.txt && tick && git commit -q -m "second change" -m "with a body"
git format-patch -2 -o ../patches
ls ../patches
cd ../b
tick && git am -q ../patches/*.patch
echo "exit $?"
git log --format='%an %s' | cat
cat f.txt g.txt
