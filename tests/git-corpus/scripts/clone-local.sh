# Clone of a local path: history, remote, tracking branch, config.
mkdir a && cd a
git init -q -b main
echo one > f.txt && git add f.txt && git commit -q -m first
echo two >> f.txt && git commit -q -a -m second
cd ..
git clone -q a b
echo "exit $?"
cd b
git log --oneline
git branch -a
git remote -v
git status
cat .git/config
cat f.txt
