# -w matches whole words, -x whole lines.
grep -w 'fig' data/words.txt | head -n 3
grep -cw 'app' web/src/*.js
grep -x 'end' data/messy.txt
grep -xc 'csv import' notes/ideas.txt
