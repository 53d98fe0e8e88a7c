# rm -r of a directory, and -q.
git init -q -b main
mkdir -p dir/sub
echo 1 > dir/one.txt; echo 2 > dir/sub/two.txt; echo 3 > other.txt
git add . && git commit -q -m base
git rm -r dir
ls
git status -s
git reset -q --hard
git rm -r -q --cached dir
git status -s
