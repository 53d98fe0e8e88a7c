# `git add .` from the top and from a subdirectory.
git init -q -b main
mkdir -p a/b c
echo 1 > a/b/one.txt
echo 2 > a/two.txt
echo 3 > c/three.txt
echo 4 > four.txt
cd a
git add .
git status -s
cd ..
git add .
git ls-files
git commit -q -m all
git ls-tree -r HEAD
git ls-tree HEAD
