# Associative arrays.
declare -A port
port[http]=80
port[https]=443
port[ssh]=22
echo "${port[https]}"
echo "${#port[@]}"
for k in $(printf '%s\n' "${!port[@]}" | sort); do echo "$k -> ${port[$k]}"; done
[[ -v port[ssh] ]] && echo "has ssh"
[[ -v port[ftp] ]] || echo "no ftp"
