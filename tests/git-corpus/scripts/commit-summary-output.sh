# What a non-quiet commit prints: root commit, creates, deletes, renames.
git init -q -b main
echo one > a.txt
printf 'l1\nl2\nl3\n' > b.txt
git add .
git commit -m "first"
echo two >> a.txt
git rm -q b.txt
echo new > c.txt
git add .
git commit -m "second"
git mv c.txt d.txt
git commit -m "rename"
git commit --allow-empty -m "empty"
