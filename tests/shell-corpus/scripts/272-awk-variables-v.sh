# -v passes shell values in.
min=300
awk -v min="$min" -F'\t' 'NR > 1 && $6 >= min { print $2 }' data/products.tsv | sort
awk -v prefix="> " '{ print prefix $0 }' notes/todo.txt | head -n 2
