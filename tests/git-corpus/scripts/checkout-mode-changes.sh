# switching between branches whose files differ only in the executable bit, then status and stage modes.
git init -q -b main r && cd r
echo '#!/bin/sh' > run.sh && echo data > plain.txt && git add . && git commit -q -m base
git checkout -q -b exec
chmod +x run.sh && git add run.sh && git commit -q -m "make run.sh executable"
git checkout -q main
git ls-files -s
git status --short
test -x run.sh && echo "run.sh executable" || echo "run.sh not executable"
git checkout -q exec
git ls-files -s
git status --short
test -x run.sh && echo "run.sh executable" || echo "run.sh not executable"
chmod -x run.sh
git status --short
git diff
git stash -q && git status --short && test -x run.sh && echo restored
