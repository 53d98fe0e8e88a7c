# -a stages tracked changes and deletions, never new files.
git init -q -b main
echo 1 > tracked.txt; echo 2 > doomed.txt
git add . && git commit -q -m base
echo 11 > tracked.txt
rm doomed.txt
echo 3 > untracked.txt
git commit -a -m "commit all"
git status -s
git show --stat --format=%s HEAD
