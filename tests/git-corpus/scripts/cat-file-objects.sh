# cat-file -t, -s, -p on a commit, a tree and a blob; -e; hash-object
# agrees with the stored blob.
git init -q -b main
mkdir d
printf 'hello\n' > hello.txt; echo nested > d/n.txt
git add . && git commit -q -m "objects"
for rev in HEAD HEAD^{tree} HEAD:hello.txt HEAD:d; do
  echo "$rev: $(git cat-file -t $rev) $(git cat-file -s $rev)"
done
git cat-file -p HEAD
git cat-file -p HEAD^{tree}
git cat-file -p HEAD:hello.txt
git cat-file blob HEAD:d/n.txt
git cat-file commit HEAD
git hash-object hello.txt
git rev-parse HEAD:hello.txt
git cat-file -e HEAD:hello.txt; echo "e exit $?"
git cat-file -e HEAD:nope.txt 2>/dev/null; echo "e missing exit $?"
