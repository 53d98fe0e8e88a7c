# A TODO report grouped by file.
grep -rn 'TODO\|FIXME' --include='*.rs' --include='*.js' . | sort -t: -k1,1 -k2,2n | awk -F: '{ f = $1; sub(/^\.\//, "", f); if (f != last) { print f; last = f } text = $0; sub(/^[^:]*:[^:]*:[ \t]*(\/\/)? */, "", text); print "  L" $2 ": " text }'
