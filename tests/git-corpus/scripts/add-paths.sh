# add by path and by directory; the index as ls-files -s shows it.
git init -q -b main
mkdir -p src docs
echo 'one' > src/a.txt
echo 'two' > src/b.txt
echo 'doc' > docs/guide.md
echo 'top' > top.txt
git add src/a.txt top.txt
git status -s
git add docs
git status -s
git ls-files -s
