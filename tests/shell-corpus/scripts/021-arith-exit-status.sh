# (( )) sets the exit status from the value.
if ((3 > 2)); then echo "3 > 2"; fi
if ! ((0)); then echo "zero is false"; fi
((5 - 5))
echo "status $?"
count=0
while ((count < 3)); do
  echo "count $count"
  ((count++)) || true
done
