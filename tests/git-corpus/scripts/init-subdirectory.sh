# init creates missing directories; the repository found from deeper down.
git init -q -b main sub/repo
ls sub/repo/.git/refs
mkdir -p sub/repo/a/b
cd sub/repo/a/b
git rev-parse --show-toplevel
git rev-parse --git-dir
git rev-parse --show-prefix
git rev-parse --show-cdup
git rev-parse --is-inside-work-tree
cd ../..
git rev-parse --git-dir
git rev-parse --show-prefix
