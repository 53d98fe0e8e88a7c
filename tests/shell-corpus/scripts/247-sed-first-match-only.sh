# 0,/re/ changes only the first match.
sed '0,/shipped/s//SHIPPED/' data/orders.csv | grep -c SHIPPED
sed 's/shipped/SHIPPED/' data/orders.csv | grep -c SHIPPED
