# ls-files: cached, -s, --others, --exclude-standard, -m, -d, from a
# subdirectory, with a pathspec.
git init -q -b main
mkdir -p sub
echo 1 > a.txt; echo 2 > sub/b.txt; echo 3 > sub/c.txt
echo '*.log' > .gitignore
git add . && git commit -q -m base
echo x > x.log; echo u > untracked.txt
echo changed > a.txt
rm sub/c.txt
git ls-files
git ls-files -s
git ls-files --others
git ls-files --others --exclude-standard
git ls-files -m
git ls-files -d
git ls-files sub
cd sub && git ls-files && git ls-files --full-name
