# init in a directory that already has files: nothing is added.
mkdir -p src
echo 'fn main() {}' > src/main.rs
echo '# demo' > README.md
git init -q -b main
git status
git status --porcelain
git ls-files
echo "files: $(git ls-files | wc -l)"
