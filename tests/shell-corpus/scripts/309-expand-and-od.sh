# Tabs to spaces; bytes as octal/characters.
head -n 2 data/products.tsv | expand -t 12
printf 'a\tb\n' | od -An -c
printf 'AB' | od -An -tx1
