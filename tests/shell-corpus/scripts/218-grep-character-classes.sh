# POSIX character classes.
grep -c '[[:digit:]]' data/messy.txt
grep '[[:upper:]][[:upper:]]' data/messy.txt
grep -E '[[:space:]]{3,}' data/messy.txt
grep -n '[[:punct:]]$' README.md | head -n 3
