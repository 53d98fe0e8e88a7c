# Several hunks in one file, and changes close enough to merge into one.
git init -q -b main
i=1; while [ $i -le 30 ]; do echo "line $i"; i=$((i + 1)); done > f.txt
git add . && git commit -q -m base
sed -i -e 's/^line 3$/LINE 3/' -e 's/^line 9$/LINE 9/' -e 's/^line 25$/LINE 25/' -e '/^line 28$/d' f.txt
echo 'line 31' >> f.txt
git diff
git diff --stat
