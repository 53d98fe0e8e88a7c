# --arg and --argjson.
jq -r --arg cat garden '.items[] | select(.category == $cat) | .sku' data/inventory.json
jq -c --argjson n 3 '.items[:$n] | map(.id)' data/inventory.json
jq -n --arg name inventory --argjson port 8080 '{name: $name, port: $port}'
