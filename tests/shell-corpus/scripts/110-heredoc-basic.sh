# Here-documents with and without expansion.
name=inventory
cat <<EOF
Project: $name
Files: $(ls docs | wc -l)
Math: $((6 * 7))
EOF
cat <<'EOF'
Literal: $name $(ls) $((1+1))
EOF
