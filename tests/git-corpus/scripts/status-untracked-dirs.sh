# Untracked directories: collapsed by default, listed with -uall, hidden
# with -uno; empty directories never show.
git init -q -b main
echo t > tracked.txt && git add . && git commit -q -m base
mkdir -p newdir/deeper emptydir partly
echo 1 > newdir/a.txt; echo 2 > newdir/deeper/b.txt
echo 3 > partly/x.txt && git add partly/x.txt && echo 4 > partly/y.txt
git status -s
echo ---
git status -s -uall
echo ---
git status -s -uno
echo ---
git status
