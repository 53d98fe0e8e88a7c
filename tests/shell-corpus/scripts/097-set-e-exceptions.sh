# Failures in conditions, && lists and ! do not trigger set -e.
set -e
if false; then echo "no"; fi
false || echo "or-list rescued"
false && echo "never"
! true
grep -q nothing README.md || true
echo "still running"
x=$(false) || echo "substitution failed"
echo "end"
