# Number non-empty lines with sed and paste.
sed '/./=' docs/index.md | sed '/./N; s/\n/ /'
