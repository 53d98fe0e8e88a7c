# cp -P, -L, -r and -a with symlinks; -p and -a keep modes; -n, -u and -v.
cp -P current link-copy
readlink link-copy
cp -r current tree-copy; readlink tree-copy
cp -rL current deref-copy; ls deref-copy | head -3
cp -a docs docs-a; readlink docs-a/latest.md
printf '#!/bin/sh\necho hi\n' > tool.sh; chmod 750 tool.sh
cp -p tool.sh kept.sh; stat -c '%a %n' kept.sh
cp tool.sh plain.sh; [ -x plain.sh ] && echo "plain copy is executable"
echo one > a.txt; echo two > b.txt
cp -n a.txt b.txt; cat b.txt
cp -v a.txt b.txt docs-a/
cp -v a.txt b.txt
cp docs d.txt; echo "dir without -r: $?"
cp a.txt a.txt; echo "same file: $?"
cp nothing x; echo "missing: $?"
rm -r link-copy tree-copy deref-copy docs-a tool.sh kept.sh plain.sh a.txt b.txt
