# paths and leaf values.
jq -c '[paths(scalars)] | length' data/config.json
jq -r 'paths(scalars) | map(tostring) | join(".")' data/config.json | head -n 6
jq -c 'getpath(["limits", "rate"])' data/config.json
