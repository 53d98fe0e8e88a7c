# blame in its plain form: the boundary commit, authors, dates, line
# numbers, and -s.
t=1704067200
tick() { t=$((t + 86400)); export GIT_AUTHOR_DATE="$t +0000" GIT_COMMITTER_DATE="$t +0000"; }
git init -q -b main
printf 'one\ntwo\nthree\n' > f.txt && git add . && tick && git commit -q -m first
printf 'one\nTWO\nthree\nfour\n' > f.txt && tick && GIT_AUTHOR_NAME="Second Author" git commit -q -a -m second
printf 'zero\none\nTWO\nthree\nfour\n' > f.txt && tick && git commit -q -a -m third
git blame f.txt
git blame -s f.txt
git blame HEAD~1 -- f.txt
git blame -L 2,3 f.txt
