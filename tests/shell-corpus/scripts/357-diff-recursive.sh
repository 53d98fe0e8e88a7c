# diff -r between two trees.
cp -r docs docs-copy
echo "extra" > docs-copy/extra.md
sed -i 's/Changelog/Release notes/' docs-copy/index.md
diff -r docs docs-copy
echo "status $?"
rm -r docs-copy
