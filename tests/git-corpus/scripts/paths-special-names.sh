# Names with spaces, non-ASCII, quotes and backslashes: status, ls-files
# and diff quote them the way core.quotePath does by default. (No tab: the
# workspace refuses it in names.)
git init -q -b main
echo 1 > 'with space.txt'
echo 2 > 'café.txt'
echo 3 > 'back\slash.txt'
echo 4 > 'quote"d.txt'
git status -s
git add .
git status -s
git ls-files
git -c core.quotePath=false ls-files
git commit -q -m names
echo x >> 'café.txt'
git diff --stat
git diff --name-only
