# del() and with_entries().
jq -c 'del(.owners, .limits, .motd)' data/config.json
jq -c '.features | with_entries(.value |= not)' data/config.json
