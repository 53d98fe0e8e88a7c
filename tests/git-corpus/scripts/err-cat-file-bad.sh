# cat-file of objects that do not exist.
git init -q -b main
echo 1 > f && git add f && git commit -q -m one
git cat-file -t deadbeef
echo "exit $?"
git cat-file -p HEAD:nope
echo "exit $?"
git cat-file -p 0000000000000000000000000000000000000000
echo "exit $?"
