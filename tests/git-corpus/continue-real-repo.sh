# Run on the repository make-real-repo.sh made, after it was imported:
# read its packs, packed-refs and index, then keep working on it (the new
# commits are dated after the imported ones).
export GIT_AUTHOR_DATE="2024-01-02T00:00:00+00:00" GIT_COMMITTER_DATE="2024-01-02T00:00:00+00:00"
git log --oneline --all
git status
git status -s
git branch -v
git tag -n
git cat-file -p v1.0
git show --stat HEAD~1
git diff --cached
git commit -q -m "Say hello"
echo "commit exit $?"
git log --oneline -3
git rev-parse HEAD HEAD^{tree}
git checkout -q topic
ls src
git checkout -q -b more
echo more > more.txt && git add more.txt
GIT_COMMITTER_DATE="2024-01-02T01:00:00+00:00" git commit -q -m "More on topic"
GIT_COMMITTER_DATE="2024-01-02T02:00:00+00:00" git merge -q --no-edit feature
echo "merge exit $?"
git log --format='%h %p %s' -3
git log --oneline --all -4
git status
ls . src
