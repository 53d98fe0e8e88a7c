# blame's errors: a path not in HEAD, a path not in an older commit, a
# range past the end, line 0, and an unknown revision.
git init -q -b main
printf 'x\ny\n' > f.txt && git add f.txt && git commit -q -m one
echo untracked > u.txt
git blame u.txt; echo "exit $?"
git blame nope.txt; echo "exit $?"
git blame -L 5,6 f.txt; echo "exit $?"
git blame -L 0,1 f.txt; echo "exit $?"
git blame nosuchrev -- f.txt; echo "exit $?"
