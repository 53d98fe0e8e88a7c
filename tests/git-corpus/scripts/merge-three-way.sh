# A true merge with --no-edit: the ort strategy's output, two parents,
# the default message, both changes in the file.
t=1704067200
tick() { t=$((t + 60)); export GIT_AUTHOR_DATE="$t +0000" GIT_COMMITTER_DATE="$t +0000"; }
git init -q -b main
printf 'one\ntwo\nthree\nfour\nfive\n' > f.txt && git add . && tick && git commit -q -m base
git checkout -q -b feature
sed -i 's/two/TWO/' f.txt && echo feat > feat.txt && git add . && tick && git commit -q -m "feature change"
git checkout -q main
sed -i 's/four/FOUR/' f.txt && tick && git commit -q -a -m "main change"
tick
git merge --no-edit feature
echo "exit $?"
cat f.txt
git log --oneline --all
git cat-file -p HEAD
git show --stat HEAD
