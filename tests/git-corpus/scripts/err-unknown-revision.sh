# Unknown revisions: rev-parse, log, show, diff, reset, and --verify.
git init -q -b main
echo 1 > f && git add f && git commit -q -m one
git rev-parse nope
echo "exit $?"
git rev-parse --verify nope
echo "exit $?"
git log nope
echo "exit $?"
git show nope
echo "exit $?"
git diff nope
echo "exit $?"
git reset --hard nope
echo "exit $?"
git rev-parse HEAD~5
echo "exit $?"
