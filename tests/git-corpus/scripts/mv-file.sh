# git mv: rename, move into a directory, the status it leaves.
git init -q -b main
mkdir dir
echo a > a.txt; echo b > b.txt
git add . && git commit -q -m base
git mv a.txt renamed.txt
mkdir -p dest
git mv b.txt dest/
git status -s
git status
ls . dest
git commit -q -m moved
git log --stat --format=%s -1
git show --name-status --format= HEAD
