# Repeat and pad strings.
line=$(printf '%*s' 20 '' | tr ' ' '=')
echo "$line"
printf -v dashes '%.0s-' {1..10}
echo "$dashes"
num=42
printf '%s\n' "${num}$(printf '%*s' $((6 - ${#num})) '')|"
