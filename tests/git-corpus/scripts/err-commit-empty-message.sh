# An empty -m message aborts the commit (exit 1).
git init -q -b main
echo a > a.txt && git add a.txt
git commit -m ""
echo "exit $?"
git log
echo "exit $?"
