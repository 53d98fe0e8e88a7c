# Indexed arrays.
fruits=(apple banana "cherry pie")
echo "${fruits[0]}"
echo "${fruits[2]}"
echo "${#fruits[@]}"
fruits[5]=fig
echo "${!fruits[@]}"
for f in "${fruits[@]}"; do echo "- $f"; done
