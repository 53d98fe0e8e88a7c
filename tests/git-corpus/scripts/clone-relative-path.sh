# `git clone ../a b` from a sibling directory, with a branch picked by -b.
t=1704067200
tick() { t=$((t + 60)); export GIT_AUTHOR_DATE="$t +0000" GIT_COMMITTER_DATE="$t +0000"; }
mkdir a && cd a && git init -q -b main
echo base > f.txt && git add . && tick && git commit -q -m base
git checkout -q -b feature
echo feat > g.txt && git add . && tick && git commit -q -m feat
git checkout -q main
cd .. && mkdir w && cd w
git clone -q ../a b
git clone -q -b feature ../a c
(cd b && git branch --show-current && ls && git log --oneline --all)
(cd c && git branch --show-current && ls && git rev-parse HEAD origin/main)
git -C b status -sb
git -C c status -sb
