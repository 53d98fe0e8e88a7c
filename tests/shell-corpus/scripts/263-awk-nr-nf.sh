# NR and NF.
awk '{ print NR ": " NF " fields" }' data/messy.txt
awk 'END { print NR }' data/orders.csv
awk 'NF == 0 { e++ } END { print e + 0, "empty lines" }' data/messy.txt
