# String functions.
jq -r '.hosts | map(ascii_upcase) | join(",")' data/config.json
jq -r '.hosts[] | split(".")[0]' data/config.json
jq -r '.items[] | select(.name | test("^S")) | .name' data/inventory.json
jq -r '.hosts[] | ltrimstr("alpha.")' data/config.json
