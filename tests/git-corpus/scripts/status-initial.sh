# Status before the first commit.
git init -q -b main
git status
echo a > a.txt
mkdir d && echo b > d/b.txt
git status
git add a.txt
git status
git status -s
