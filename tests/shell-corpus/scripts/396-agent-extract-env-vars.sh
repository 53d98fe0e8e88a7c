# Which environment variables does the code read?
grep -rhoE 'env::var\("[A-Z_]+"\)' crate/src | sed -E 's/.*"([A-Z_]+)".*/\1/' | sort -u > code-vars.txt
grep -oE '^[A-Z_]+' .env.example | sort -u > example-vars.txt
echo "documented but unused:"
comm -13 code-vars.txt example-vars.txt
echo "used but undocumented:"
comm -23 code-vars.txt example-vars.txt
rm code-vars.txt example-vars.txt
