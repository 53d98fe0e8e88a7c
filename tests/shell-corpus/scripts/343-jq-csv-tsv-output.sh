# @csv and @tsv.
jq -r '.items[:4][] | [.id, .sku, .name, .price_cents] | @csv' data/inventory.json
jq -r '.warehouses[] | [.name, .city, .capacity] | @tsv' data/inventory.json
