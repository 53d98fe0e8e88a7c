# rev-parse's repository facts from the top and from a subdirectory.
git init -q -b main
mkdir -p a/b
git rev-parse --show-toplevel
git rev-parse --git-dir
git rev-parse --absolute-git-dir
git rev-parse --is-inside-work-tree
git rev-parse --is-bare-repository
cd a/b
git rev-parse --show-toplevel
git rev-parse --git-dir
git rev-parse --show-prefix
git rev-parse --show-cdup
cd ../../.git
git rev-parse --is-inside-git-dir
git rev-parse --is-inside-work-tree
