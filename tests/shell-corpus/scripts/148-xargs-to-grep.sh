# The classic find | xargs grep.
find crate web -name '*.rs' -o -name '*.js' | sort | xargs grep -l 'TODO' | sort
find crate -name '*.rs' | xargs grep -c 'fn ' | sort -t: -k2,2nr -k1,1 | head -n 3
