# rm of a directory without -r; rm of a file with staged changes.
git init -q -b main
mkdir dir && echo 1 > dir/a.txt && echo x > f.txt
git add . && git commit -q -m base
git rm dir
echo "exit $?"
echo changed > f.txt && git add f.txt
git rm f.txt
echo "exit $?"
git rm nope.txt
echo "exit $?"
git status -s
