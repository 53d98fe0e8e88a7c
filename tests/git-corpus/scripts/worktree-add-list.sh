# worktree add, list and remove.
git init -q -b main r && cd r
echo a > a.txt && git add . && git commit -q -m a
git worktree add -q ../wt -b feature
echo "exit $?"
git worktree list | awk '{print $3}'
cd ../wt && echo f > f.txt && git add f.txt && git commit -q -m f && cd ../r
git log --oneline feature | cat
git worktree remove ../wt
git worktree list | wc -l
ls ..
