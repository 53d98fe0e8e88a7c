# clean -n, -d, -x and -X with ignored files.
git init -q -b main r && cd r
echo "*.log" > .gitignore && git add .gitignore && git commit -q -m ignore
touch a.txt b.log && mkdir -p d/e && touch d/e/x.txt
git clean -n
git clean -nd
git clean -nX
git clean -ndx
git clean -fdq
ls -A
