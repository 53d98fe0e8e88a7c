# Limiting diff to paths and directories; from a subdirectory paths stay
# relative to the top.
git init -q -b main
mkdir -p src docs
echo 1 > src/a.rs; echo 1 > src/b.rs; echo 1 > docs/x.md; echo 1 > top.txt
git add . && git commit -q -m base
for f in src/a.rs src/b.rs docs/x.md top.txt; do echo 2 >> $f; done
git diff --name-only -- src
git diff --name-only src/a.rs top.txt
git diff -- docs/x.md
cd src
git diff --name-only
git diff --name-only .
git diff --stat -- b.rs
