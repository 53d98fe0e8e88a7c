# --cached and --staged against HEAD, including a new file; diff HEAD
# covers both.
git init -q -b main
echo a > a.txt && git add . && git commit -q -m base
echo staged > a.txt && git add a.txt
echo fresh > new.txt && git add new.txt
echo unstaged >> a.txt
git diff --cached
echo ---
git diff --staged --stat
echo ---
git diff HEAD
echo ---
git diff
