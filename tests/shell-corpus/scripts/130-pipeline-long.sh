# A long pipeline.
cat data/words.txt | tr ' ' '\n' | tr 'A-Z' 'a-z' | sort | uniq -c | sort -k1,1nr -k2 | head -n 5 | awk '{ print $2 ": " $1 }'
