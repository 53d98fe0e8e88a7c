# checkout and switch of names that are neither branches nor paths.
git init -q -b main
echo 1 > f && git add f && git commit -q -m one
git checkout nope
echo "exit $?"
git checkout -- nope.txt
echo "exit $?"
git switch nope
echo "exit $?"
git switch HEAD~0
echo "exit $?"
