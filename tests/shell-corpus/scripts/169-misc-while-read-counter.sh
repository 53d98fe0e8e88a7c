# Count and number lines while reading.
n=0
while IFS= read -r line; do
  ((++n))
  [[ $line == \#* ]] && echo "$n: ${line#\# }"
done < docs/api.md
echo "total $n"
