# Update a JSON file and write it back.
jq '.port = 9090 | .debug = true | .hosts += ["delta.internal"]' data/config.json > data/config.json.new
mv data/config.json.new data/config.json
jq -c '{port, debug, hosts}' data/config.json
