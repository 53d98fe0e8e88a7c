# <( ) gives a command's output as a file.
diff <(printf 'a\nb\nc\n') <(printf 'a\nB\nc\n')
echo "diff status $?"
paste <(cut -d, -f1 data/users.csv | head -n 4) <(cut -d, -f5 data/users.csv | head -n 4)
comm -12 <(cut -f1 data/products.tsv | sort) <(cut -d, -f3 data/orders.csv | sort -u) | wc -l
