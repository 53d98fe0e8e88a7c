# The most frequent words in the docs.
cat docs/*.md docs/design/*.md | tr -cs 'A-Za-z' '\n' | tr 'A-Z' 'a-z' | grep -v '^$' | sort | uniq -c | sort -k1,1nr -k2 | head -n 10
