# =~ with a regex in a variable and BASH_REMATCH groups.
re='^([A-Z]{3})-([0-9]+)$'
for sku in WID-1000 GAD-1037 bad-1 SPR-99x; do
  if [[ $sku =~ $re ]]; then
    echo "$sku: prefix=${BASH_REMATCH[1]} num=${BASH_REMATCH[2]}"
  else
    echo "$sku: no match"
  fi
done
