# Modes and symlinks in the work tree: the executable bit and symlinks
# are checked out, switched and cloned as git does them.
git init -q -b main
printf '#!/bin/sh\necho hi\n' > run.sh; chmod +x run.sh; echo a > a.txt
ln -s a.txt link
git add . && git commit -q -m one
git checkout -q -b other
chmod -x run.sh; rm link; ln -s run.sh link; git commit -q -a -m two
git checkout -q main
ls -l run.sh | cut -c1-10; readlink link; git status --short
git checkout -q other
ls -l run.sh | cut -c1-10; readlink link; git status --short
git clone -q . ../copy && cd ../copy && ls -l run.sh | cut -c1-10 && readlink link && git status --short
