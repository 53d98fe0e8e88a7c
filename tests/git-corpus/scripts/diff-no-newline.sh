# "\ No newline at end of file", on either side of the change.
git init -q -b main
printf 'a\nb' > f.txt
printf 'x\ny\n' > g.txt
git add . && git commit -q -m base
printf 'a\nb\n' > f.txt
printf 'x\ny' > g.txt
git diff
printf 'a\nc' > f.txt
git diff f.txt
