# Write and verify a checksum list.
find docs -type f -print0 | sort -z | xargs -0 sha256sum > SUMS
sha256sum -c SUMS | tail -n 2
echo "changed" >> docs/index.md
sha256sum -c --quiet SUMS 2>/dev/null; echo "status $?"
rm SUMS
