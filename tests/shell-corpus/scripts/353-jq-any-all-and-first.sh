# any, all, first, limit.
jq '.items | any(.discontinued)' data/inventory.json
jq '.items | all(.price_cents > 0)' data/inventory.json
jq -r 'first(.items[] | select(.discontinued)) | .name' data/inventory.json
jq -c '[limit(3; .items[] | .id)]' data/inventory.json
