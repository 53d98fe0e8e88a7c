# Loop until a condition on files holds.
i=0
until [[ -f marker-3 ]]; do
  ((i++))
  touch "marker-$i"
done
ls marker-* | tr '\n' ' '; echo
rm marker-*
