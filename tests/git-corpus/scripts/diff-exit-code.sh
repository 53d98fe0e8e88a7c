# --exit-code and --quiet: 1 when there are differences, 0 otherwise.
git init -q -b main
echo a > a.txt && git add . && git commit -q -m base
git diff --exit-code
echo "clean exit $?"
echo b > a.txt
git diff --exit-code
echo "dirty exit $?"
git diff --quiet
echo "quiet exit $?"
git diff --cached --quiet
echo "cached quiet exit $?"
git add a.txt
git diff --cached --quiet
echo "staged quiet exit $?"
git diff --quiet HEAD
echo "head quiet exit $?"
git diff --stat --exit-code
echo "stat exit $?"
