# --amend replaces the tip: new message, then new content; the parent
# stays.
git init -q -b main
echo a > a.txt && git add . && git commit -q -m base
echo b > b.txt && git add . && git commit -q -m "tpyo"
git rev-parse HEAD
git commit -q --amend -m "typo fixed"
git log --oneline
echo c > c.txt && git add c.txt
git commit -q --amend --no-edit
git log --oneline --stat
git rev-parse HEAD HEAD~1
