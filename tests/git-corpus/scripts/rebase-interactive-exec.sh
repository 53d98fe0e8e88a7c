# rebase -i with a sequence editor that squashes, and --exec.
t=1704067200
tick() { t=$((t + 60)); export GIT_AUTHOR_DATE="$t +0000" GIT_COMMITTER_DATE="$t +0000"; }
git init -q -b main r && cd r
for i in 1 2 3; do echo $i >> f; git add f; tick; git commit -q -m "c$i"; done
GIT_SEQUENCE_EDITOR="sed -i -e '2s/^pick/squash/'" GIT_EDITOR=true git rebase -q -i HEAD~2
echo "exit $?"
git log --format=%s | cat
git rebase -q --exec 'echo at $(git log -1 --format=%s)' HEAD~1
