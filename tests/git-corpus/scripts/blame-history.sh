# blame through history: a file renamed unchanged keeps its lines' old
# commits (and blame shows the old name), lines from both sides of a
# merge, and a deleted-then-restored line counting as new.
t=1704067200
tick() { t=$((t + 86400)); export GIT_AUTHOR_DATE="$t +0000" GIT_COMMITTER_DATE="$t +0000"; }
git init -q -b main
printf 'one\ntwo\nthree\nfour\nfive\n' > old.txt && git add . && tick && git commit -q -m base
git mv old.txt new.txt && tick && git commit -q -m rename
git checkout -q -b side
sed -i 's/two/TWO/' new.txt && tick && git commit -q -a -m 'side edit'
git checkout -q main
sed -i 's/five/FIVE/' new.txt && tick && git commit -q -a -m 'main edit'
tick && git merge -q --no-edit side
git blame new.txt
sed -i '/three/d' new.txt && tick && git commit -q -a -m drop
printf 'three\n' >> new.txt && tick && git commit -q -a -m restore
git blame new.txt
git blame HEAD~2 -- new.txt
