# Count words with an associative array.
declare -A count
while read -r w; do
  count[$w]=$(( ${count[$w]:-0} + 1 ))
done < <(tr ' ' '\n' < data/words.txt | tr 'A-Z' 'a-z')
for w in "${!count[@]}"; do echo "${count[$w]} $w"; done | sort -k1,1nr -k2 | head -n 5
