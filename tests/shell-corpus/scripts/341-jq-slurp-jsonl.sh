# -s slurps JSON lines into an array.
jq -s 'length' data/events.jsonl
jq -s -c 'group_by(.type) | map({type: .[0].type, qty: (map(.qty) | add)})' data/events.jsonl
jq -r 'select(.ok == false) | .seq' data/events.jsonl | tr '\n' ' '; echo
