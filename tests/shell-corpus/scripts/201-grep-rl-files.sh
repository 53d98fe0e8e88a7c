# Files that mention a word, recursively.
grep -rl 'Store' crate/src | sort
echo "---"
grep -rL 'Store' crate/src | sort
