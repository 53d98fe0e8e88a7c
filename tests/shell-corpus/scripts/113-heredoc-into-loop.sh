# A here-document feeding a while loop.
while read -r key value; do
  printf '%s => %s\n' "$key" "$value"
done <<EOF
alpha 1
beta 2
gamma three words
EOF
