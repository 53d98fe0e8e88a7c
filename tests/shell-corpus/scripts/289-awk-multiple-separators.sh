# A regex field separator.
echo "a:b;c,d" | awk -F'[:;,]' '{ print $3, NF }'
awk -F'[][]' 'NR <= 3 { print $2 }' data/access.log
