# git diff of the worktree against the index: a changed line, an added
# line, a removed line.
git init -q -b main
printf 'alpha\nbeta\ngamma\ndelta\nepsilon\n' > greek.txt
printf 'one\ntwo\n' > num.txt
git add . && git commit -q -m base
printf 'alpha\nBETA\ngamma\nepsilon\nzeta\n' > greek.txt
echo three >> num.txt
git diff
echo "exit $?"
git add num.txt
git diff
