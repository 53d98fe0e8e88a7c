# After a clone, a new commit puts the branch ahead of its upstream.
mkdir a && cd a && git init -q -b main
echo x > x.txt && git add . && git commit -q -m init
cd .. && git clone -q a b && cd b
echo y > y.txt && git add y.txt
GIT_COMMITTER_DATE="2024-01-02T00:00:00+00:00" git commit -q -m "add y"
git status
git status -sb
git branch -vv
git log --oneline origin/main..main
