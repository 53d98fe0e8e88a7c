# -m renames another branch, or the current one (HEAD follows).
git init -q -b main
echo 1 > f && git add f && git commit -q -m base
git branch topic
git branch -m topic renamed
git branch
git branch -m trunk
git branch
cat .git/HEAD
git branch --show-current
git branch -M renamed trunk2
git branch
git rev-parse --abbrev-ref HEAD
