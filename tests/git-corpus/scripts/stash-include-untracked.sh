# stash -u / --include-untracked: the untracked files go into a third
# parent and come back on pop and apply; stash@{N} and REF@{N} revisions.
git init -q -b main
echo t > tracked.txt && git add . && git commit -q -m base
echo change >> tracked.txt
mkdir -p d; echo u > untracked.txt; echo v > d/new.txt
git stash -u
git status -s
git log --format='%s %P' -1 stash@{0}^3
git ls-tree -r stash@{0}^3
git show --stat --format=%s stash@{0}
git rev-parse stash@{0} stash@{0}^1 HEAD@{0} main@{0}
git stash list
git stash pop; echo "pop exit $?"
git status -s
git stash push --include-untracked -m msg -q; git stash list; git stash apply -q; git status -s; ls d
