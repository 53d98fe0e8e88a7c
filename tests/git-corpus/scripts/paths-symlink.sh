# A symbolic link is stored as mode 120000 whose blob is the target.
git init -q -b main
echo target > real.txt
ln -s real.txt link.txt
git add . && git commit -q -m links
git ls-files -s
git cat-file -p HEAD:link.txt
echo
git ls-tree HEAD
ln -sf other.txt link.txt
git status -s
git diff
