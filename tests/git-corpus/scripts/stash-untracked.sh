# Plain stash leaves untracked files alone; -u takes them too.
git init -q -b main
echo t > tracked.txt && git add . && git commit -q -m base
echo change >> tracked.txt
echo u > untracked.txt
git stash -q
git status -s
git stash pop -q
git stash push -q -u
git status -s
ls
git stash pop -q
git status -s
