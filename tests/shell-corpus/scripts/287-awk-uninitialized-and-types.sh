# Uninitialised values, string vs number comparison.
awk 'BEGIN { print x + 0, "[" x "]", length(x) }'
awk 'BEGIN { if ("10" < "9") print "string compare"; if (10 < 9) print "never" }'
echo "10 9" | awk '{ if ($1 > $2) print "fields compare as numbers" }'
