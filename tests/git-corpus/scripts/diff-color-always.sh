# Colour is off when stdout is not a terminal, and on with -c
# color.ui=always (the ANSI sequences are compared byte for byte).
t=1704067200
tick() { t=$((t + 60)); export GIT_AUTHOR_DATE="$t +0000" GIT_COMMITTER_DATE="$t +0000"; }
git init -q -b main
printf 'a\nb\nc\n' > f.txt && git add . && tick && git commit -q -m base
git branch side
printf 'a\nB\nc\nd\n' > f.txt && echo u > u.txt
git diff
git -c color.ui=auto status -s
git -c color.ui=always diff
git -c color.ui=always status -s
git -c color.ui=always log --oneline --decorate
git -c color.ui=always branch
git -c color.diff=always diff --stat
