# From a subdirectory, long and short status show paths relative to it;
# --porcelain shows them from the top.
git init -q -b main
mkdir -p src/lib docs
echo 1 > src/lib/a.rs; echo 2 > docs/d.md; echo 3 > top.txt
git add . && git commit -q -m base
echo x >> src/lib/a.rs; echo x >> docs/d.md; echo x >> top.txt
echo n > src/new.rs
cd src
git status
git status -s
git status --porcelain
git status -s .
