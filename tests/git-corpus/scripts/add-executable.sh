# The executable bit is recorded as mode 100755; a mode change shows in
# diff and status.
git init -q -b main
printf '#!/bin/sh\necho hi\n' > run.sh
echo data > data.txt
chmod +x run.sh
git add . && git commit -q -m init
git ls-files -s
chmod -x run.sh
git status -s
git diff
chmod +x data.txt
git diff --stat
git commit -q -a -m modes
git ls-tree HEAD
