# The same mix as status-long-mixed, in -s, --porcelain and -s -b.
git init -q -b main
for f in a b c d e; do echo $f > $f.txt; done
git add . && git commit -q -m base
echo staged > a.txt && git add a.txt
echo new > new.txt && git add new.txt
git rm -q b.txt
echo unstaged > c.txt
rm d.txt
echo both > e.txt && git add e.txt && echo more >> e.txt
mkdir udir && echo u > udir/u.txt
git status -s
echo ---
git status --porcelain
echo ---
git status -s -b
echo ---
git status --short --branch --untracked-files=no
