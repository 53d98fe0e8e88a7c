# --allow-empty commits the same tree again; log shows both.
git init -q -b main
git commit --allow-empty -q -m "empty root"
git commit --allow-empty -m "still empty"
git log --format='%h %t %s'
git cat-file -p HEAD^{tree}
echo "tree entries: $(git cat-file -p HEAD^{tree} | wc -l)"
