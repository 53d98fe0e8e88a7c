# comm on sorted sets; join on a key.
cut -d, -f3 data/orders.csv | sort -u > ordered.txt
cut -f1 data/products.tsv | tail -n +2 | sort > all.txt
echo "never ordered: $(comm -13 ordered.txt all.txt | tr '\n' ' ')"
printf '1 alpha\n2 beta\n3 gamma\n' > left.txt
printf '1 one\n3 three\n4 four\n' > right.txt
join left.txt right.txt
join -a1 left.txt right.txt
rm ordered.txt all.txt left.txt right.txt
