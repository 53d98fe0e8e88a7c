# describe with annotated and lightweight tags, --tags, --long, --dirty.
t=1704067200
tick() { t=$((t + 60)); export GIT_AUTHOR_DATE="$t +0000" GIT_COMMITTER_DATE="$t +0000"; }
git init -q -b main r && cd r
echo 1 > f && git add f && tick && git commit -q -m one
tick && git tag -a v1.0 -m "release 1.0"
echo 2 > f && tick && git commit -q -am two
git tag light
echo 3 > f && tick && git commit -q -am three
git describe
git describe --tags
git describe --long --abbrev=12
echo dirty >> f
git describe --dirty
git describe --contains HEAD~1
