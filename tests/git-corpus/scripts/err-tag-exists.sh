# A tag that exists, deleting one that does not, tagging a bad revision.
git init -q -b main
echo 1 > f && git add f && git commit -q -m one
git tag v1
git tag v1
echo "exit $?"
git tag -a v1 -m again
echo "exit $?"
git tag -d nope
echo "exit $?"
git tag v2 nope
echo "exit $?"
git tag
