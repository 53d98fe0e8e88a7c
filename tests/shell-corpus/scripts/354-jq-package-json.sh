# Inspect package.json the way agents do.
jq -r '.scripts | to_entries[] | "\(.key): \(.value)"' web/package.json
jq -r '.dependencies + .devDependencies | keys[]' web/package.json
jq -r '.version' web/package.json
jq '.keywords | index("warehouse")' web/package.json
