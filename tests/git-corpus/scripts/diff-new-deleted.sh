# New and deleted files in diff --cached: mode lines, /dev/null, empty
# files.
git init -q -b main
echo old > old.txt
git add . && git commit -q -m base
git rm -q old.txt
printf 'n1\nn2\n' > new.txt
: > empty.txt
git add new.txt empty.txt
git diff --cached
git diff --cached --stat
git diff --cached --name-status
