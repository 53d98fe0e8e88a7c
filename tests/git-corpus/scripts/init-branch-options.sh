# The initial branch from -b, --initial-branch and -c init.defaultBranch.
git init -b main one
git init --initial-branch=trunk two
git -c init.defaultBranch=dev init three
for d in one two three; do
  cat $d/.git/HEAD
  (cd $d && git branch --show-current && git status -s -b)
done
