# Format a table with printf.
printf '%-10s|%6s|%8s\n' NAME QTY PRICE
printf '%-10s|%6d|%8.2f\n' Widget 12 4.5 Gadget 300 19.999 Hinge 7 0.5
printf '%s\n' "----------"
