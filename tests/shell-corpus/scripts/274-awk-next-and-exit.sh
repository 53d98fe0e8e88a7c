# next skips, exit stops.
awk '/^#/ { next } { print $1 }' data/hosts.txt
awk 'NR > 3 { exit } { print }' LICENSE
awk 'BEGIN { exit 3 }'; echo "awk status $?"
