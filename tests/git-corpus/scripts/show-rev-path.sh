# REV:path shows a blob, REV:dir a tree listing, :path the staged blob.
git init -q -b main
mkdir -p dir/sub
echo one > dir/a.txt; echo two > dir/sub/b.txt; echo top > top.txt
git add . && git commit -q -m base
echo changed > top.txt && git commit -q -a -m change
echo staged > top.txt && git add top.txt
git show HEAD:top.txt
git show HEAD~1:top.txt
git show :top.txt
git show HEAD:dir/sub/b.txt
git show HEAD:dir
git show HEAD~1:
git cat-file -p HEAD:dir
