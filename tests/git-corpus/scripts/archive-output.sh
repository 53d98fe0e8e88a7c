# archive -o (stdout pointed at the file) writes the same bytes as real git's, tar and zip.
git init -q -b main r && cd r
mkdir d && echo a > d/a.txt && echo b > b.txt && git add . && git commit -q -m a
git archive -o ../out.tar HEAD
echo "exit $?"
wc -c < ../out.tar
git hash-object ../out.tar
git get-tar-commit-id < ../out.tar
git archive --prefix=p/ -o ../out.zip HEAD d
git hash-object ../out.zip
git archive --format=tar HEAD b.txt | wc -c
echo after
