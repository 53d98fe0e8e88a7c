# reset of paths unstages them; reset -q; reset with nothing staged.
git init -q -b main
echo a > a.txt && echo b > b.txt && git add . && git commit -q -m base
echo A > a.txt && echo B > b.txt && echo c > c.txt
git add .
git status -s
git reset a.txt
git status -s
git reset HEAD -- b.txt
git status -s
git reset -q
git status -s
git reset
echo "exit $?"
