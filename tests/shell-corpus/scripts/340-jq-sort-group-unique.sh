# sort_by, group_by, unique.
jq -r '.items | sort_by(.price_cents) | .[0:3][] | .name' data/inventory.json
jq -c '.items | group_by(.category) | map({category: .[0].category, n: length})' data/inventory.json
jq -c '[.items[].tags[]] | unique' data/inventory.json
