# Output formats: pretty, compact, sorted keys.
jq '.owners[0]' data/config.json
jq -c '.owners[0]' data/config.json
jq -S -c '.limits' data/config.json
jq --indent 4 '.limits.rate' data/config.json
