# Iterating arrays and lengths.
jq '.items | length' data/inventory.json
jq -r '.warehouses[].name' data/inventory.json
jq '.hosts | length' data/config.json
jq -c '.hosts[1:]' data/config.json
