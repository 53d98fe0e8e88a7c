# Escaping & and / in replacements.
echo "a and b" | sed 's/and/\&/'
echo "path" | sed 's/path/a\/b\/c/'
echo "x" | sed 's/x/[&]/'
echo "tab" | sed 's/tab/a\tb/'
