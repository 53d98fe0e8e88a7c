# hooks run: pre-commit refuses, commit-msg edits the message, post-commit prints.
git init -q -b main r && cd r
printf '#!/bin/sh\ngrep -q TODO staged.txt 2>/dev/null && { echo "no TODOs" >&2; exit 1; }\nexit 0\n' > .git/hooks/pre-commit
printf '#!/bin/sh\necho "[hooked] $(cat "$1")" > "$1"\n' > .git/hooks/commit-msg
printf '#!/bin/sh\necho post-commit ran\n' > .git/hooks/post-commit
chmod +x .git/hooks/pre-commit .git/hooks/commit-msg .git/hooks/post-commit
echo TODO > staged.txt && git add staged.txt
git commit -q -m one
echo "exit $?"
echo done > staged.txt && git add staged.txt
git commit -q -m two
echo "exit $?"
git log --format=%s | cat
