# check-ignore, with -v and negated patterns.
git init -q -b main r && cd r
printf '*.tmp\n!keep.tmp\nbuild/\n' > .gitignore
mkdir -p build sub && touch a.tmp keep.tmp build/o sub/c.tmp
git check-ignore a.tmp keep.tmp build/o sub/c.tmp x.txt
echo "exit $?"
git check-ignore -v a.tmp build/o sub/c.tmp
git check-ignore -v --non-matching keep.tmp x.txt
git status --porcelain --ignored
