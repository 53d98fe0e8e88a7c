# Pass arrays by name with nameref.
add_suffix() {
  local -n ref=$1
  local i
  for i in "${!ref[@]}"; do ref[i]="${ref[i]}.bak"; done
}
files=(a b c)
add_suffix files
echo "${files[@]}"
