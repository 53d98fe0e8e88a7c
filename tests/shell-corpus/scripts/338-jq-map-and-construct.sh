# map() and object construction.
jq -c '.warehouses | map({(.name): .capacity}) | add' data/inventory.json
jq -c '[.items[] | {sku, tags: (.tags | length)}] | .[0:3]' data/inventory.json
jq -c '.items | map(.price_cents) | max, min' data/inventory.json
