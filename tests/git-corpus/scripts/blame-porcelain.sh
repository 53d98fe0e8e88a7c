# blame's machine formats and options: --porcelain (details once per
# commit, runs of lines grouped), --line-porcelain, -e, -l, -n, -f, -t,
# --root, -b, -L with a regex and with +N/-N, and uncommitted lines (-s,
# so that no clock shows).
t=1704067200
tick() { t=$((t + 86400)); export GIT_AUTHOR_DATE="$t +0000" GIT_COMMITTER_DATE="$t +0000"; }
git init -q -b main
printf 'a\nb\nc\nd\ne\n' > f.txt && git add . && tick && git commit -q -m 'first lines'
printf 'a\nB\nC\nd\ne\nf\n' > f.txt && tick && GIT_AUTHOR_EMAIL=other@example.com git commit -q -a -m 'capitals'
git blame --porcelain f.txt
git blame --line-porcelain -L 2,3 f.txt
git blame -e f.txt
git blame -l -L 1,1 f.txt
git blame -n -f -t f.txt
git blame --root -L /C/,+2 f.txt
git blame -b -L 5,-2 f.txt
printf 'a\nB\nnew\nC\nd\ne\nf\n' > f.txt
git blame -s f.txt
