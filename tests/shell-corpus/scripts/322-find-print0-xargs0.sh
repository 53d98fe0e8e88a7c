# -print0 with xargs -0 copes with spaces.
find . -name '* *' -print0 | xargs -0 wc -l | sort -k2
find . -type f -name '*.txt' -print0 | xargs -0 grep -l 'csv' | sort
