# Quotes nest inside command substitution.
file="notes/Project Plan.txt"
first="$(head -n 1 "$file")"
echo "first line: \"$first\""
echo "upper: $(echo "$first" | tr 'a-z' 'A-Z')"
