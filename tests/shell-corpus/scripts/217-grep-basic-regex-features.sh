# BRE features: anchors, classes, repetition, back-references.
grep -n '^\[x\]' notes/todo.txt
grep -c '^$' data/messy.txt
grep '\(an\)\1' data/words.txt | head -n 2
grep -E '^[a-z]+ [0-9.]+ (web|db)$' data/hosts.txt
grep 'o\{2,\}' LICENSE | head -n 2
