# The script's exit code is the last command's.
grep -q Inventory README.md
grep -q nope README.md
