# shortlog -sn, git grep with -n, -c and a pathspec, blame -L.
git init -q -b main r && cd r
printf 'alpha\nbeta\ngamma\n' > a.txt && git add . && GIT_AUTHOR_NAME=Ann git commit -q -m a
printf 'beta two\n' > b.txt && git add . && GIT_AUTHOR_NAME=Bob git commit -q -m b
echo delta >> a.txt && GIT_AUTHOR_NAME=Bob git commit -q -am c
git shortlog -sn HEAD
git grep -n beta
git grep -c a -- a.txt
git blame -L 2,4 --porcelain a.txt | grep -c "^author "
git blame -s a.txt
