# diff -q and -rq on directories: which files differ, which exist on one side only.
cp -r docs docs-b
echo "more" >> docs-b/guide.md
rm docs-b/api.md
mkdir docs-b/drafts
echo "draft" > docs-b/drafts/one.md
diff -q docs docs-b; echo "brief: $?"
diff -rq docs docs-b; echo "recursive: $?"
diff -rq docs docs; echo "same: $?"
diff -q docs/index.md docs-b/index.md; echo "one file: $?"
rm -r docs-b
