# Field access, -r and nested paths.
jq '.name' data/config.json
jq -r '.name' data/config.json
jq '.limits.rate.per_minute' data/config.json
jq -r '.hosts[1]' data/config.json
jq '.motd' data/config.json
