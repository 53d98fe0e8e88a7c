# show of an annotated tag prints the tag, then the commit; a lightweight
# tag shows only the commit.
git init -q -b main
echo 1 > f && git add f && git commit -q -m "tagged commit"
git tag -a v1.0 -m "Release 1.0"
git tag light
git show v1.0
echo ---
git show light
echo ---
git show -s --format=%s v1.0
git cat-file -p v1.0
