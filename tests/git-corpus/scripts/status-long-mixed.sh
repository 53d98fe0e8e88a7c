# Long status with every section: staged (new, modified, deleted),
# unstaged (modified, deleted) and untracked.
git init -q -b main
for f in a b c d e; do echo $f > $f.txt; done
git add . && git commit -q -m base
echo staged > a.txt && git add a.txt
echo new > new.txt && git add new.txt
git rm -q b.txt
echo unstaged > c.txt
rm d.txt
echo both > e.txt && git add e.txt && echo more >> e.txt
echo u > untracked.txt
git status
echo "exit $?"
