# --stat, --name-only, --name-status, --numstat, --shortstat.
git init -q -b main
printf '1\n2\n3\n4\n5\n' > nums.txt
echo a > a.txt; echo gone > gone.txt
git add . && git commit -q -m base
printf '1\n2\nthree\n4\n5\n6\n7\n' > nums.txt
echo b >> a.txt
git rm -q gone.txt
echo n > new.txt && git add new.txt
git diff HEAD --stat
git diff HEAD --name-only
git diff HEAD --name-status
git diff HEAD --numstat
git diff HEAD --shortstat
git diff --stat
