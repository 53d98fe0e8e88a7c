# user.name/user.email from config when the environment has none; the
# environment wins when set.
unset GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL
git init -q -b main
git config user.name "Config Person"
git config user.email config@example.com
echo a > a.txt && git add a.txt && git commit -q -m one
git log -1 --format='%an <%ae> | %cn <%ce>'
GIT_AUTHOR_NAME="Env Author" GIT_AUTHOR_EMAIL=env@example.com git commit -q --allow-empty -m two
git log -1 --format='%an <%ae> | %cn <%ce>'
git log --format=%H
