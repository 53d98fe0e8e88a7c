# -u stages modifications and deletions of tracked files only; -A also
# takes new files.
git init -q -b main
echo a > keep.txt; echo b > change.txt; echo c > gone.txt
git add . && git commit -q -m base
echo changed > change.txt
rm gone.txt
echo new > new.txt
git add -u
git status -s
git add -A
git status -s
git commit -q -m update
git log --stat --format=%s
