# A .gitignore in a subdirectory applies below it; ** patterns; negating
# a file inside an ignored directory does not bring it back.
git init -q -b main
printf '**/tmp/\n*.bak\n' > .gitignore
mkdir -p a/tmp b/c/tmp logs vendor
echo x > a/tmp/t; echo x > b/c/tmp/t; echo x > a/f.bak; echo x > a/f.txt
printf '*.txt\n!important.txt\n' > logs/.gitignore
echo x > logs/one.txt; echo x > logs/important.txt; echo x > logs/x.md
printf 'vendor/\n!vendor/keep.md\n' > .git/info/exclude
echo x > vendor/keep.md; echo x > vendor/lib.c
git status -s -uall
git add -A
git ls-files
