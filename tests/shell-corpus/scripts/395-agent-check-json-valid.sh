# Validate every JSON file.
find . -name '*.json' -type f | sort | while read -r f; do
  if jq empty "$f" 2>/dev/null; then echo "ok   $f"; else echo "BAD  $f"; fi
done
echo '{"broken": ' > web/broken.json
jq empty web/broken.json 2>/dev/null || echo "broken.json rejected"
