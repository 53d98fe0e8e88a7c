# Cloning a path that does not exist, and into a non-empty directory.
git clone nope x
echo "exit $?"
mkdir a && (cd a && git init -q -b main && echo 1 > f && git add f && git commit -q -m 1)
mkdir full && echo hi > full/file
git clone a full
echo "exit $?"
ls full
