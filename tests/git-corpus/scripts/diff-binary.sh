# Binary files: changed, new and their --stat and --numstat lines.
git init -q -b main
printf 'GIF89a\000\001\002\003' > img.gif
echo text > t.txt
git add . && git commit -q -m base
printf 'GIF89a\000\001\002\004\005' > img.gif
printf '\000\377\000' > new.bin && git add new.bin
git diff
git diff HEAD
git diff HEAD --stat
git diff HEAD --numstat
git show --stat --format=%s HEAD
