# read splits into variables; the last gets the rest.
read -r first second rest <<< "a b c d e"
echo "first=$first second=$second rest=$rest"
IFS=: read -r user pass uid <<< "root:x:0:0:root"
echo "$user $uid"
read -r line <<< "  leading and trailing  "
echo "[$line]"
IFS= read -r raw <<< "  leading and trailing  "
echo "[$raw]"
