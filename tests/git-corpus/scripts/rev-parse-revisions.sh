# rev-parse of HEAD, --short, --abbrev-ref, ~ and ^ suffixes, branches,
# tags and peeling.
t=1704067200
tick() { t=$((t + 60)); export GIT_AUTHOR_DATE="$t +0000" GIT_COMMITTER_DATE="$t +0000"; }
git init -q -b main
for i in 1 2 3; do echo $i > f; git add f; tick; git commit -q -m c$i; done
git tag -a v1 -m v1 HEAD~1
git rev-parse HEAD
git rev-parse --short HEAD
git rev-parse --short=12 HEAD
git rev-parse --abbrev-ref HEAD
git rev-parse HEAD~1 HEAD^ HEAD~2 HEAD^^ HEAD~0
git rev-parse main refs/heads/main
git rev-parse v1 v1^{commit} v1^{} v1~0
git rev-parse HEAD^{tree} HEAD:f
git rev-parse --verify HEAD
git rev-parse --verify -q nope; echo "verify exit $?"
git rev-parse --symbolic-full-name HEAD
git checkout -q HEAD~1
git rev-parse --abbrev-ref HEAD
