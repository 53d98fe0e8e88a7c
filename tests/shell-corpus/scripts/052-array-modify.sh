# Appending, unsetting and re-indexing.
a=(a b c d)
unset 'a[1]'
echo "${a[@]} / ${!a[@]}"
a=("${a[@]}")
echo "${!a[@]}"
a+=(e)
a[0]=A
echo "${a[*]}"
