# -e sets the exit status from the result.
jq -e '.debug' data/config.json > /dev/null; echo "debug: $?"
jq -e '.features.search' data/config.json > /dev/null; echo "search: $?"
jq -e '.nope' data/config.json > /dev/null; echo "missing: $?"
echo '{"a":1}' | jq '.b // "fallback"'
