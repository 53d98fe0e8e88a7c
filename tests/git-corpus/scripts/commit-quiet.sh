# -q prints nothing; the ids are fixed by the pinned identities and dates.
git init -q -b main
echo hello > hello.txt
git add hello.txt
git commit -q -m "hello"
echo "exit $?"
git rev-parse HEAD
git rev-parse HEAD^{tree}
git rev-parse HEAD:hello.txt
git commit -q -m nothing
echo "exit $?"
