# keys, has, to_entries.
jq -c 'keys' data/config.json
jq -c '.features | to_entries | map(select(.value)) | map(.key)' data/config.json
jq '.limits | has("max_batch"), has("nope")' data/config.json
jq -r '.features | keys_unsorted[]' data/config.json
