# Export active users to JSON with jq.
tail -n +2 data/users.csv | awk -F, '$6 == "true" { print $1 "\t" $2 "\t" $4 }' | jq -R -s -c 'split("\n") | map(select(length > 0) | split("\t") | {id: (.[0] | tonumber), name: .[1], role: .[2]})' > users.json
jq 'length' users.json
jq -r 'map(select(.role == "admin")) | .[].name' users.json
jq -c '.[0]' users.json
