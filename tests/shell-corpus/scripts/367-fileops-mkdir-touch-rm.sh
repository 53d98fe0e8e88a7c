# Create and remove files and directories.
mkdir -p tmp/a/b/c
touch tmp/a/one.txt tmp/a/b/two.txt
echo "content" > tmp/a/b/c/three.txt
find tmp | sort
rm tmp/a/one.txt
rm -r tmp/a/b/c
find tmp | sort
rmdir tmp/a/b 2>/dev/null || echo "b not empty"
