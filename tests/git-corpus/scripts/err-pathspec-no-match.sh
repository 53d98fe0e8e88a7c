# A pathspec that matches nothing: add and rm are fatal (128), checkout
# and restore are errors (1).
git init -q -b main
echo a > a.txt && git add . && git commit -q -m base
git add nope.txt
echo "exit $?"
git rm nope.txt
echo "exit $?"
git checkout -- nope.txt
echo "exit $?"
git restore nope.txt
echo "exit $?"
git add '*.md'
echo "exit $?"
git status -s
