# cp -P/-a keeps symlinks; plain cp follows them.
cp docs/latest.md followed.md
cp -P docs/latest.md kept.md
[[ -L followed.md ]] && echo "followed is a link" || echo "followed is a file"
[[ -L kept.md ]] && echo "kept is a link to $(readlink kept.md)"
cp -a docs docs2
readlink docs2/latest.md
