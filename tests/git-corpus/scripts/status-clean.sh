# Clean trees: on a branch, detached at a commit, detached at a tag.
git init -q -b main
echo a > a.txt && git add . && git commit -q -m one
echo b > a.txt && git commit -q -a -m two
git status
git status -s
echo "short: [$(git status -s)]"
git tag v1 HEAD~1
git checkout -q HEAD~1
git status
git checkout -q v1
git status
git checkout -q main
git status
