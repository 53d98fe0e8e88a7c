# -A -B -C context lines.
grep -n -A 2 'ADR-004' docs/design/decisions.md
echo "==="
grep -B 1 -A 1 'Fix:' docs/changelog.md
echo "==="
grep -C 1 -m 1 'Status: rejected' docs/design/decisions.md
