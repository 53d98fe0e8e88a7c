# --exit-code and --quiet report differences with exit 1 and nothing on
# stderr.
git init -q -b main
echo a > a.txt && git add . && git commit -q -m base
echo b > a.txt
git diff --exit-code --stat
echo "exit $?"
git diff --quiet
echo "exit $?"
git diff --quiet HEAD -- a.txt
echo "exit $?"
git diff --quiet HEAD -- other.txt
echo "exit $?"
