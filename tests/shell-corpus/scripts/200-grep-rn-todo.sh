# Find TODO/FIXME comments with file and line.
grep -rn 'TODO\|FIXME' crate web | sort
