# Capture groups in basic regular expressions.
echo "john.smith@example.com" | sed 's/\([^.]*\)\.\([^@]*\)@.*/\2, \1/'
sed -n 's/^\([A-Z_]*\)=\(.*\)$/\1 -> \2/p' .env.example
