# Renames in the index: by git mv, and by rm + add of the same content;
# a rename with a modification on top.
git init -q -b main
printf 'line 1\nline 2\nline 3\nline 4\nline 5\n' > long.txt
echo other > other.txt
git add . && git commit -q -m base
git mv long.txt moved.txt
rm other.txt && echo other > copy.txt && git add -A
git status -s
git status
echo 'line 6' >> moved.txt
git status -s
git diff --cached --stat
git diff --cached -M --name-status
