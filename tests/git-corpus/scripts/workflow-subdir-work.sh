# Working from a subdirectory: add ., commit, log and diff with relative
# paths.
git init -q -b main
mkdir -p pkg/mod other
echo 1 > pkg/mod/a.go; echo 1 > other/b.go
cd pkg
git add .
git status -s
git commit -q -m "pkg only"
cd ..
git status -s
cd pkg/mod
echo 2 >> a.go
git diff
git diff --stat
git commit -q -am "change a"
git log --oneline --name-only
git show --format= --name-only HEAD -- .
