# git mv of a missing or untracked source, and onto an existing file.
git init -q -b main
echo a > a.txt && echo b > b.txt && git add . && git commit -q -m base
git mv nope.txt x.txt
echo "exit $?"
echo u > untracked.txt
git mv untracked.txt y.txt
echo "exit $?"
git mv a.txt b.txt
echo "exit $?"
git status -s
