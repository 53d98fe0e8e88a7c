# .gitignore: globs, a directory pattern, an anchored pattern, negation.
git init -q -b main
printf '*.log\nbuild/\n/root-only.txt\n!keep.log\ndoc/*.tmp\n' > .gitignore
mkdir -p build sub doc/deep
echo x > a.log; echo x > keep.log; echo x > build/out.o
echo x > root-only.txt; echo x > sub/root-only.txt
echo x > doc/a.tmp; echo x > doc/deep/b.tmp; echo x > main.c
git status --porcelain
echo ---
git status --porcelain --ignored
echo ---
git add .
git ls-files
