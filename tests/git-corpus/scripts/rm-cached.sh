# rm --cached stops tracking but keeps the file; plain rm deletes it.
git init -q -b main
echo a > a.txt; echo b > b.txt; echo c > c.txt
git add . && git commit -q -m base
git rm --cached a.txt
git rm b.txt
git status -s
git status
ls
git commit -q -m removed
git ls-files
