# Creating a branch that exists, with a bad name, from a bad start point.
git init -q -b main
echo 1 > f && git add f && git commit -q -m base
git branch feature
git branch feature
echo "exit $?"
git branch 'bad..name'
echo "exit $?"
git branch other nope
echo "exit $?"
git checkout -b feature
echo "exit $?"
git branch
