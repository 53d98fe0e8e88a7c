# -i matches case-insensitively.
grep -i 'apple' data/words.txt | head -n 4
grep -ic 'apple' data/words.txt
grep -c 'apple' data/words.txt
