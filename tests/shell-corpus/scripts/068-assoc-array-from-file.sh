# Load key=value pairs into an associative array.
declare -A env
while IFS='=' read -r k v; do
  [[ -z $k || $k == \#* ]] && continue
  env[$k]=$v
done < .env.example
echo "port=${env[APP_PORT]} host=${env[APP_HOST]}"
printf '%s\n' "${!env[@]}" | sort | tr '\n' ' '
echo
