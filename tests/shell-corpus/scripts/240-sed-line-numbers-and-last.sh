# = prints line numbers; $ addresses the last line.
sed -n '$=' data/orders.csv
sed -n '/ERROR/=' data/archive/old.log | tr '\n' ' '
echo
sed '$!d' data/numbers.txt
