# clone over file://, push a branch back, fetch it in a second clone.
t=1704067200
tick() { t=$((t + 60)); export GIT_AUTHOR_DATE="$t +0000" GIT_COMMITTER_DATE="$t +0000"; }
git init -q --bare -b main origin.git
git clone -q "file://$PWD/origin.git" one 2>&1
cd one && echo a > a && git add a && tick && git commit -q -m a
git push -q origin main
echo "exit $?"
git checkout -q -b feature && echo f > f && git add f && tick && git commit -q -m f
git push -q -u origin feature
cd .. && git clone -q "file://$PWD/origin.git" two && cd two
git branch -a
cd ../one && echo g > g && git add g && tick && git commit -q -m g && git push -q
cd ../two && git fetch -q && git log --oneline --all | cat
git -C ../origin.git for-each-ref --format='%(refname)'
