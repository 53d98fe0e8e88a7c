# reduce and add.
jq '[.items[].stock | to_entries[] | .value] | add' data/inventory.json
jq 'reduce .items[] as $i (0; . + $i.price_cents)' data/inventory.json
jq -c 'reduce .items[] as $i ({}; .[$i.category] += 1)' data/inventory.json
