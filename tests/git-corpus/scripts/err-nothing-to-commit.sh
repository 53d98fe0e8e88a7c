# "nothing to commit" in its three wordings, each exit 1 on stdout.
git init -q -b main
git commit -m empty
echo "exit $?"
echo a > a.txt
git commit -m untracked
echo "exit $?"
git add a.txt && git commit -q -m first
git commit -m again
echo "exit $?"
echo b > b.txt
git commit -m again
echo "exit $?"
