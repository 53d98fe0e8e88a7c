# Lightweight and annotated tags: list, -l pattern, -n, types, delete.
t=1704067200
tick() { t=$((t + 60)); export GIT_AUTHOR_DATE="$t +0000" GIT_COMMITTER_DATE="$t +0000"; }
git init -q -b main
echo 1 > f && git add f && tick && git commit -q -m "first"
git tag v0.1
echo 2 > f && tick && git commit -q -a -m "second"
tick && git tag -a v1.0 -m "Version 1.0"
git tag -a v1.1 -m "Version 1.1" -m "More text." HEAD~1
git tag lightweight
git tag
git tag -l 'v1*'
git tag --list 'v0*'
git tag -n
git cat-file -t v0.1
git cat-file -t v1.0
git rev-parse v1.0 v1.0^{} v0.1
git tag -d lightweight
git tag
git tag --contains HEAD~1
git tag --points-at HEAD
