# .git/info/exclude ignores like .gitignore; add -f overrides; an ignored
# path given to add is refused with exit 1.
git init -q -b main
echo 'secret*' >> .git/info/exclude
echo s > secret.txt; echo p > public.txt
git status -s
git add secret.txt 2>/dev/null
echo "add exit $?"
git add -f secret.txt
git status -s
git ls-files
