# grep's exit statuses.
grep -q Inventory README.md; echo "match: $?"
grep -q Nothing README.md; echo "no match: $?"
grep -q x no-such-file 2>/dev/null; echo "error: $?"
grep -s x no-such-file; echo "silent error: $?"
