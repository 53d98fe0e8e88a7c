# select() filters.
jq -r '.items[] | select(.category == "tools") | .name' data/inventory.json
jq -r '.items[] | select(.price_cents > 10000) | "\(.sku) \(.price_cents)"' data/inventory.json
jq -c '.owners[] | select(.team == "store")' data/config.json
